package sse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/sse/internal/reactor"
)

// Limits of the exchange.
const (
	// errorBodyLimit is how much of a non-2xx body goes into Result.Error.
	errorBodyLimit = 4 << 10
	// drainLimit and drainTimeout bound reading what follows a terminal
	// event, so HTTP/1.1 connections can be reused; Do waits drainWait
	// for it.
	drainLimit   = 256 << 10
	drainTimeout = time.Second
	drainWait    = 50 * time.Millisecond
)

// exchange is the life of one request: send, headers, stream, outcome.
type exchange struct {
	client *Client
	req    Request
	res    *Result
	tl     timeline
	stream *stream

	ctx      context.Context
	cancel   context.CancelCauseFunc
	sent     time.Time
	t0Shift  atomic.Int64     // how much later the request left than sent: see Transmitted
	sentOnce atomic.Bool      // a transmission was reported
	now      func() time.Time // when the bytes being parsed arrived
	lastByte atomic.Int64     // nanoseconds since the send
	meter    *meter
	reqBytes int64

	// On the reactor: the connection carrying the exchange (reactor.go).
	wc       atomic.Pointer[reactor.Conn]
	redirect *redirection // the response was a redirect to follow

	// The set-up of the first connection the exchange opened (Timings'
	// Connecting and TLSHandshaking); openedConn says there was one.
	openedConn bool
	conns      connSetup

	// Through net/http: the connection that carried the response, the
	// offset of the request's first byte on it and, on a new connection,
	// its set-up (connSetup.total).
	conn  net.Conn
	mark  uint64
	setup time.Duration
	// wireLag is the longest read lag of the reactor's reads for this
	// exchange, nanoseconds plus one (0: no stamped read).
	wireLag atomic.Int64
	stamps  *stampConn // nil where reads are not kernel-stamped
}

// newExchange prepares an exchange with the request's defaults applied.
func newExchange(c *Client, req *Request) *exchange {
	r := req.withDefaults()
	return &exchange{
		client: c, req: r, ctx: context.Background(), cancel: func(error) {}, now: time.Now,
		res: &Result{URL: r.URL, State: map[string]any{}, ToolCalls: []ToolCall{}, Dialect: r.Dialect},
	}
}

// clock returns the time since the send at which the bytes being parsed
// arrived, on the monotonic clock: now, or, on the reactor, the moment they
// were read.
func (x *exchange) clock() time.Duration { return x.now().Sub(x.start()) }

// start is the moment the exchange's times count from: when the request
// was handed to the transport, or, where the kernel stamped the request's
// transmission, that moment less the connection's set-up (Transmitted).
func (x *exchange) start() time.Time { return x.sent.Add(time.Duration(x.t0Shift.Load())) }

// abort cancels the exchange from a timer with cause, and wakes a reactor
// read waiting for bytes.
func (x *exchange) abort(cause error) {
	x.cancel(cause)
	if c := x.wc.Load(); c != nil {
		c.Interrupt(x)
	}
}

// run performs the exchange, redirects included; the outcome lands in
// x.res.
func (x *exchange) run(parent context.Context) {
	if err := x.req.Validate(); err != nil {
		x.res.fail(CodeInvalidRequest, strings.ReplaceAll(err.Error(), "\n", "; "))
		return
	}
	x.ctx, x.cancel = context.WithCancelCause(parent)
	deadline := time.AfterFunc(x.req.Timeout, func() { x.abort(errTimeout) })
	defer deadline.Stop()
	x.markSent()
	for followed := 1; ; followed++ {
		r := x.send()
		if r == nil || !x.redirectTo(r, followed) {
			return
		}
	}
}

// send performs one request of the exchange on the first of the client's
// transports that carries it; it returns the redirect to follow, or nil
// when the exchange ended.
func (x *exchange) send() *redirection {
	hreq, err := x.newHTTPRequest()
	if err != nil {
		x.res.fail(CodeInvalidRequest, err.Error())
		return nil
	}
	x.redirect = nil
	for _, t := range x.client.transports {
		if t.carries(hreq) {
			return t.roundTrip(x, hreq)
		}
	}
	x.res.fail(CodeInternal, "no transport carries "+hreq.URL.Scheme+" requests")
	return nil
}

// markSent records the send time and the schedule lag.
func (x *exchange) markSent() {
	x.sent = time.Now()
	x.res.Sent = x.sent
	if !x.req.ScheduledAt.IsZero() {
		x.tl.scheduleLag.set(x.sent.Sub(x.req.ScheduledAt))
	}
}

// newHTTPRequest builds the HTTP request with default headers.
func (x *exchange) newHTTPRequest() (*http.Request, error) {
	var body io.Reader
	if x.req.Body != nil {
		body = bytes.NewReader(x.req.Body)
	}
	hreq, err := http.NewRequest(x.req.Method, x.req.URL, body)
	if err != nil {
		return nil, err
	}
	if x.req.Header != nil {
		hreq.Header = x.req.Header.Clone()
	}
	if host := hreq.Header.Get("Host"); host != "" {
		hreq.Host = host // net/http sends r.Host, not Header["Host"]
		hreq.Header.Del("Host")
	}
	setDefault(hreq.Header, "Accept", acceptEventStream)
	setDefault(hreq.Header, "Accept-Encoding", acceptEncodings)
	setDefault(hreq.Header, "User-Agent", x.client.userAgent)
	setBasicAuth(hreq)
	x.reqBytes += requestSize(hreq, len(x.req.Body))
	return hreq, nil
}

// setBasicAuth sends the user information of the request's URL
// (http://user:pass@host/) as Basic authentication unless the request has
// an Authorization header, as net/http's Client does, on every transport:
// the reactor writes the request itself. Each hop of a redirect decides by
// its own URL, which keeps the user information only on a relative
// Location (the same host).
func setBasicAuth(hreq *http.Request) {
	u := hreq.URL.User
	if u == nil || hreq.Header.Get("Authorization") != "" {
		return
	}
	pass, _ := u.Password()
	hreq.SetBasicAuth(u.Username(), pass)
}

// The values of the default request headers, shared by every request
// that takes them: neither net/http nor the reactor modifies a header's
// values in place (they set, add or delete), and a redirect clones them.
var (
	acceptEventStream = []string{"text/event-stream"}
	acceptEncodings   = []string{"gzip, deflate"}
)

// setDefault sets the header k, in canonical form, to v unless it is
// present.
func setDefault(h http.Header, k string, v []string) {
	if _, ok := h[k]; !ok {
		h[k] = v
	}
}

// failTransport records a failure before any response arrived.
func (x *exchange) failTransport(err error) {
	if code, msg, ok := contextCode(x.ctx); ok {
		x.res.fail(code, msg)
		return
	}
	if x.req.Timeout > 0 && time.Since(x.sent) >= x.req.Timeout {
		// The transport gave up at the request's deadline (a write bounded
		// by it) before the timeout's timer canceled the context.
		x.res.fail(CodeTimeout, "request timeout exceeded")
		return
	}
	code := transportCode(err)
	if code == CodeTooLarge {
		x.res.fail(code, headerLimit(x.req.MaxHeaderSize).Error())
		return
	}
	x.res.fail(code, innerMessage(err))
}

// receive handles the response: headers, status, content type, stream.
func (x *exchange) receive(resp *http.Response) {
	x.head(resp)
	x.meter.r = resp.Body
	body, err := x.limitedBody(resp.Header.Get("Content-Encoding"))
	switch {
	case err != nil:
		x.res.fail(CodeProtocol, err.Error())
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		x.failStatus(resp, body)
	case !x.checkContentType(resp):
	case !x.open(resp):
	default:
		x.readStream(resp, body)
		return
	}
	resp.Body.Close()
	x.cancel(nil)
}

// head records the response's head: its time, status and headers, and
// the queue time a header reports; the body's meter starts.
func (x *exchange) head(resp *http.Response) {
	x.tl.headers.set(x.clock())
	x.res.Status, x.res.Proto, x.res.Header = resp.StatusCode, resp.Proto, resp.Header
	x.res.URL = resp.Request.URL.String()
	if q, ok := x.req.Queue.fromHeader(resp.Header); ok {
		x.tl.queue.set(time.Duration(q * float64(time.Millisecond)))
	}
	x.meter = &meter{last: &x.lastByte, clock: x.clock}
	x.lastByte.Store(int64(x.clock()))
}

// failStatus records a non-2xx response with the start of its body.
func (x *exchange) failStatus(resp *http.Response, body io.Reader) {
	b, _ := io.ReadAll(io.LimitReader(body, errorBodyLimit))
	msg := fmt.Sprintf("HTTP %s", resp.Status)
	if text := strings.TrimSpace(strings.ToValidUTF8(string(b), string(utf8.RuneError))); text != "" {
		msg += ": " + text
	}
	x.res.fail(CodeHTTPStatus, msg)
}

// checkContentType fails the request unless the body is an event stream or
// of an accepted type.
func (x *exchange) checkContentType(resp *http.Response) bool {
	ok, ct := x.streamType(resp)
	if ok {
		return true
	}
	if ct == "" {
		x.res.fail(CodeContentType, "response has no Content-Type; want text/event-stream")
	} else {
		x.res.fail(CodeContentType, fmt.Sprintf("content type %q is not text/event-stream", ct))
	}
	return false
}

// streamType reports whether the response's Content-Type is an event
// stream or an accepted type, and returns it.
func (x *exchange) streamType(resp *http.Response) (bool, string) {
	ct := resp.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil {
		mt = ct
	}
	return acceptsContentType(mt, x.req.AcceptContentTypes), ct
}

// open runs Request.OnOpen; it reports whether to read the stream.
func (x *exchange) open(resp *http.Response) bool {
	if x.req.OnOpen == nil {
		return true
	}
	_, err := callSafely("onOpen", func() (struct{}, error) {
		return struct{}{}, x.req.OnOpen(resp.StatusCode, resp.Header)
	})
	if err != nil && !errors.Is(err, ErrStop) {
		var cb *CallbackError
		errors.As(err, &cb)
		x.res.fail(CodeCallback, cb.Error())
	}
	return err == nil
}

// readStream reads the events under the idle timeout, then settles the
// outcome and releases the connection.
func (x *exchange) readStream(resp *http.Response, body io.Reader) {
	idle := x.startIdleWatch()
	x.stream = newStream(&x.req, &x.tl, x.clock, x.wc.Load() != nil)
	x.stream.bySegment = x.bySegment()
	err := x.stream.read(body)
	idle.Stop()
	switch {
	case err != nil:
		x.failStream(err)
	case x.stream.finished:
		x.drainAfterEnd(resp.Body)
		return
	}
	x.stream.stop()
	resp.Body.Close()
	x.cancel(nil)
}

// startIdleWatch arms the idle timeout: the timer re-arms itself for the
// remaining silence, so reads only store a timestamp.
func (x *exchange) startIdleWatch() *time.Timer {
	limit := x.req.IdleTimeout
	var t *time.Timer
	t = time.AfterFunc(time.Hour, func() {
		silent := time.Since(x.start()) - time.Duration(x.lastByte.Load())
		if silent >= limit {
			x.abort(errIdleTimeout)
			return
		}
		t.Reset(limit - silent)
	})
	t.Reset(limit) // armed after t is assigned, which the callback reads
	return t
}

// drainAfterEnd drains the body in the background and waits for it up to
// drainWait: servers usually end the body right after the terminal event,
// and waiting that long returns the connection to the pool before the
// caller's next request.
func (x *exchange) drainAfterEnd(body io.Closer) {
	if c := x.wc.Load(); c != nil && !x.Handoff() {
		// On the reactor: the caller has its result now; the drain goes on
		// in the coroutine.
		c.Settle()
		x.drain(body)
		return
	}
	done := make(chan struct{})
	go func() {
		x.drain(body)
		close(done)
	}()
	t := time.NewTimer(drainWait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// drain reads what follows a terminal event (through the stream's reader,
// the only one reading the body), briefly, so an HTTP/1.1 connection can
// return to the pool, then releases the request.
func (x *exchange) drain(body io.Closer) {
	t := time.AfterFunc(drainTimeout, func() { x.abort(errDone) })
	_, _ = io.Copy(io.Discard, io.LimitReader(x.stream.rest, drainLimit))
	x.stream.stop()
	body.Close()
	t.Stop()
	x.cancel(errDone)
}

// failStream records the failure that ended the stream.
func (x *exchange) failStream(err error) {
	var cb *CallbackError
	var big *tooLargeError
	var se *streamError
	var lim *httpsafe.LimitError
	switch {
	case errors.As(err, &lim):
		x.res.fail(CodeTooLarge, lim.Error())
	case errors.As(err, &cb):
		x.res.fail(CodeCallback, cb.Error())
	case errors.As(err, &big):
		x.res.fail(CodeEventTooLarge, big.Error())
	case errors.As(err, &se):
		x.res.fail(CodeStreamError, se.Error())
	}
	if code, msg, ok := contextCode(x.ctx); ok {
		x.res.fail(code, msg)
	}
	if isDecodeError(err) {
		x.res.fail(CodeProtocol, "content decoding failed: "+err.Error())
	}
	x.res.fail(CodeReset, "connection lost mid-stream: "+err.Error())
}

// result assembles the Result from the exchange's state.
func (x *exchange) result() *Result {
	r := x.res
	if r.Failed() {
		x.tl.complete = point{}
	}
	if s := x.stream; s != nil {
		x.copyStream(s)
	}
	if shift := time.Duration(x.t0Shift.Load()); shift > 0 {
		r.Sent = x.start()
		if x.tl.scheduleLag.ok {
			x.tl.scheduleLag.at += shift
		}
	}
	r.Timings = x.tl.timings()
	r.Timings.Connecting, r.Timings.TLSHandshaking = x.conns.connect.ms(), x.conns.handshake.ms()
	r.UsefulReached = x.tl.useful.ok
	if x.req.Pricing != nil {
		r.Cost = x.req.Pricing.Cost(r.Usage)
	}
	if r.Marks == nil {
		r.Marks = map[string]*float64{}
		for _, n := range x.req.markNames() {
			r.Marks[n] = nil
		}
	}
	r.BytesSent = x.reqBytes
	if lag, ok := x.readLag(); ok {
		r.ReadLag = msPtr(lag)
	}
	if x.meter != nil {
		r.BytesReceived = responseHeaderSize(r) + x.meter.n.Load()
	}
	return r
}

// copyStream copies the stream's content and counts into the result.
func (x *exchange) copyStream(s *stream) {
	r := x.res
	r.Text, r.Reasoning = s.content.text.Final(), s.content.reasoning.Final()
	r.State, r.ToolCalls, r.Usage = s.content.state, s.content.toolCalls(), s.content.usage
	r.EventsByKind = s.counts
	r.Events, r.Heartbeats, r.EmptyEvents = s.seq, s.counts[Heartbeat], s.counts[Empty]
	r.CoalescedEvents = s.shared
	r.Marks = s.preds.results()
	r.Dialect = s.cls.Dialect()
}

// requestSize estimates the bytes of an HTTP/1.1 request: request line,
// headers (Host included), blank line and body.
func requestSize(r *http.Request, body int) int64 {
	n := len(r.Method) + 1 + len(r.URL.RequestURI()) + len(" HTTP/1.1\r\n")
	n += len("Host: \r\n") + len(r.URL.Host)
	n += headerSize(r.Header) + 2 + body
	if body > 0 {
		n += len("Content-Length: \r\n") + len(fmt.Sprint(body))
	}
	return int64(n)
}

// responseHeaderSize estimates the status line and headers of a response.
func responseHeaderSize(r *Result) int64 {
	if r.Status == 0 {
		return 0
	}
	return int64(len(r.Proto) + len(" 200 ") + len(http.StatusText(r.Status)) + 2 + headerSize(r.Header) + 2)
}

// headerSize is the size of header lines "Key: value\r\n".
func headerSize(h http.Header) int {
	n := 0
	for k, vs := range h {
		for _, v := range vs {
			n += len(k) + 2 + len(v) + 2
		}
	}
	return n
}
