package sse

import (
	"errors"
	"net/http"
	"time"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/sse/internal/reactor"
)

// errDrained ends a drain that went past drainLimit.
var errDrained = errors.New("more than drainLimit bytes after the terminal event")

// pushedStream is an event stream the reactor pushes to its exchange as
// the bytes arrive (a reactor.Sink): the stream is parsed on the reactor's
// goroutine by an eventParser, with no coroutine, reader chain or buffer
// of its own. It takes the streams that run no JavaScript and whose body
// needs no decoding; it records what readStream records the same way.
type pushedStream struct {
	x      *exchange
	events eventParser
	idle   *time.Timer

	taken   int64 // body bytes parsed, against maxResponseSize
	done    bool  // a terminal event ended the stream: what follows is drained
	drained int64
	drain   *time.Timer // ends a drain that takes too long

	// data is where the parser starts collecting an event's data: most
	// events fit, and the stream then grows no buffer of its own.
	data [256]byte
}

// pushable reports whether the reactor may push resp's body to the
// exchange: a successful event stream in no content coding, on the
// reactor, for a request that runs no callbacks and is still running.
func (x *exchange) pushable(resp *http.Response) bool {
	if x.wc.Load() == nil || x.Handoff() || x.ctx.Err() != nil {
		return false
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 || !identity(resp.Header.Get("Content-Encoding")) {
		return false
	}
	ok, _ := x.streamType(resp)
	return ok
}

// push records resp's head and returns the sink its body goes to.
func (x *exchange) push(resp *http.Response) reactor.Sink {
	x.head(resp)
	x.stream = newStream(&x.req, &x.tl, x.clock, true)
	x.stream.bySegment = x.bySegment()
	p := &pushedStream{x: x}
	p.events = eventParser{s: x.stream, max: x.req.MaxEventSize}
	p.events.data = p.data[:0]
	p.idle = x.startIdleWatch()
	return p
}

// Body implements reactor.Sink.
func (p *pushedStream) Body(b []byte) error {
	x := p.x
	at := x.clock()
	x.meter.n.Add(int64(len(b)))
	x.lastByte.Store(int64(at))
	if p.done {
		p.drained += int64(len(b))
		if p.drained > drainLimit {
			return errDrained
		}
		return nil
	}
	var over error
	if left := x.req.MaxResponseSize - p.taken; int64(len(b)) > left {
		b, over = b[:left], &httpsafe.LimitError{What: "maxResponseSize", Limit: x.req.MaxResponseSize}
	}
	p.taken += int64(len(b))
	n, err := p.events.feed(b, at)
	if err != nil {
		return err
	}
	if x.stream.finished {
		p.finish()
		p.drained = int64(len(b) - n)
		return nil
	}
	return over
}

// finish follows the stream's terminal event: the caller has its outcome
// now, while what follows is drained (up to drainLimit bytes, for
// drainTimeout) so that the connection can serve another request.
func (p *pushedStream) finish() {
	x := p.x
	p.done = true
	p.idle.Stop()
	if c := x.wc.Load(); c != nil {
		c.Settle()
	}
	p.drain = time.AfterFunc(drainTimeout, func() { x.abort(errDone) })
}

// End implements reactor.Sink: the stream's clean end without a terminal
// event, its failure, or the end of the drain after its terminal event.
func (p *pushedStream) End(err error) {
	x := p.x
	p.idle.Stop()
	if p.done {
		p.drain.Stop()
		x.cancel(errDone)
		return
	}
	switch {
	case err == nil:
		x.tl.end(x.clock())
	case errors.Is(err, reactor.ErrInternal):
		x.res.fail(CodeInternal, err.Error())
	default:
		x.failStream(err)
	}
	x.cancel(nil)
}
