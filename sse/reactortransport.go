package sse

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/usefullatency/usefullatency/sse/internal/reactor"
)

// reactorTransport sends plain-HTTP/1.1 requests on the reactor's
// connections of one Client's pool (package reactor).
type reactorTransport struct {
	pool  *reactor.Pool
	proxy func(*http.Request) (*url.URL, error) // the client's proxy rule; nil for none
}

// carries implements streamTransport: plain-HTTP requests without a
// proxy.
func (t reactorTransport) carries(hreq *http.Request) bool {
	if hreq.URL.Scheme != "http" {
		return false
	}
	if t.proxy != nil {
		if u, err := t.proxy(hreq); err != nil || u != nil {
			return false
		}
	}
	return true
}

// closeIdle implements streamTransport.
func (t reactorTransport) closeIdle() { t.pool.CloseIdle() }

// roundTrip implements streamTransport: the reactor sends the request and
// parses the response, handing it to the exchange (Respond); a failure
// before any response is recorded here. A redirect ends it with
// x.redirect set.
func (t reactorTransport) roundTrip(x *exchange, hreq *http.Request) *redirection {
	err := t.pool.Do(x, hreq, x.sent.Add(x.req.Timeout))
	var bad *reactor.RequestError
	switch {
	case err == nil:
	case errors.As(err, &bad):
		x.res.fail(CodeInvalidRequest, bad.Error())
	case errors.Is(err, reactor.ErrInternal):
		x.res.fail(CodeInternal, err.Error())
	default:
		x.failTransport(err)
	}
	if x.redirect != nil {
		x.Attach(nil) // the next request may go through net/http
	}
	return x.redirect
}

// The exchange as the reactor sees it (reactor.Exchange).
var _ reactor.Exchange = (*exchange)(nil)

// Context implements reactor.Exchange.
func (x *exchange) Context() context.Context { return x.ctx }

// HeaderLimit implements reactor.Exchange.
func (x *exchange) HeaderLimit() int { return x.req.MaxHeaderSize }

// Handoff implements reactor.Exchange: a stream with callbacks (onOpen,
// onEvent, function predicates) is parsed on the caller's goroutine, which
// may run them.
func (x *exchange) Handoff() bool { return x.req.OnOpen != nil || x.req.runsCallbacks() }

// Attach implements reactor.Exchange: the bytes the exchange parses are
// stamped with their arrival on c (or read time, with none).
func (x *exchange) Attach(c *reactor.Conn) {
	if c == nil {
		x.wc.Store(nil)
		x.now = time.Now
		return
	}
	x.now = c.Arrival
	x.wc.Store(c)
}

// Connected implements reactor.Exchange: the request opened a connection
// whose TCP connect took connect (Timings.Connecting).
func (x *exchange) Connected(connect time.Duration) {
	x.opened(connSetup{connect: point{at: connect, ok: true}})
}

// Transmitted implements reactor.Exchange: the kernel sent the request's
// first write at at, after setup spent connecting. The exchange's times
// then count from at less setup instead of from the moment the request was
// handed over, so a runner too busy to write the request at once does not
// lengthen every time of the response; the delay shows in schedule_lag
// instead. Only the first transmission counts (a retried or redirected
// request keeps the time its first request left), and only one that moves
// the start later.
func (x *exchange) Transmitted(at time.Time, setup time.Duration) {
	if !x.sentOnce.CompareAndSwap(false, true) {
		return
	}
	if shift := at.Add(-setup).Sub(x.sent); shift > 0 {
		x.t0Shift.Store(int64(shift))
	}
}

// Respond implements reactor.Exchange: a redirect is left for the
// exchange to follow, an event stream the reactor can push is taken as its
// bytes arrive (pushedStream), any other response is read as every
// exchange does.
func (x *exchange) Respond(resp *http.Response) reactor.Sink {
	if r := redirectOf(resp); r != nil && x.ctx.Err() == nil {
		x.redirect = r
		resp.Body.Close() // unread: the connection is not kept
		return nil
	}
	if x.pushable(resp) {
		return x.push(resp)
	}
	x.receive(resp)
	return nil
}
