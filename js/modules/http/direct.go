package k6http

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptrace"
	"time"

	"github.com/usefullatency/usefullatency/internal/netstack"
)

// directTransport is the transport of one VU. It carries a plain http://
// HTTP/1.1 exchange itself, on the goroutine that calls RoundTrip: one
// write of the whole request, the response read from the connection's
// buffered reader, the connection kept in its own idle pool. net/http's
// Transport would hand each exchange to a writing and a reading goroutine
// of the connection, through channels; at thousands of requests a second
// that handoff and its scheduling cost more CPU than the exchange itself.
//
// It dials through the fallback's DialContext (the run's network stack,
// counting and stamping each connection), applies the fallback's idle
// limits, header limit and keep-alive setting, and fires the httptrace
// hooks the exchange's timings come from at the moments net/http fires
// them. Every request it does not carry (see carries) goes to the
// fallback unchanged: https, proxies, Expect, Upgrade, large or streamed
// bodies, anything unusual.
type directTransport struct {
	fallback *http.Transport
	dial     dialFunc
	idle     *idlePool
	// noReuse closes every connection after its exchange, asking the
	// server to (DisableKeepAlives, the noConnectionReuse option).
	noReuse bool
	// maxHeader bounds the status line and headers of a response, 1xx
	// responses included, in bytes.
	maxHeader int64
}

var _ http.RoundTripper = (*directTransport)(nil)

// maxDirectBody is the largest request body the direct transport sends,
// 64 KiB: it writes the body before reading the response, so a larger
// one, which a server may answer before reading it, goes to net/http,
// which writes and reads at once.
const maxDirectBody = 64 << 10

// readBufferSize is the size of a connection's read buffer, net/http's.
const readBufferSize = 4 << 10

// newDirectTransport returns a direct transport in front of fallback,
// sharing its dialer and limits (net/http's defaults where they are
// zero).
func newDirectTransport(fallback *http.Transport) *directTransport {
	return &directTransport{
		fallback:  fallback,
		dial:      fallback.DialContext,
		idle:      newIdlePool(fallback.MaxIdleConns, orDefault(fallback.MaxIdleConnsPerHost, http.DefaultMaxIdleConnsPerHost), fallback.IdleConnTimeout),
		noReuse:   fallback.DisableKeepAlives,
		maxHeader: orDefault(fallback.MaxResponseHeaderBytes, 10<<20),
	}
}

// orDefault returns n, or def when n is 0: the zero values of net/http's
// limits that mean its defaults.
func orDefault[T int | int64](n, def T) T {
	if n == 0 {
		return def
	}
	return n
}

// RoundTrip sends req and returns its response, whose body must be read
// to its end or closed; the direct transport carries it when it can,
// net/http otherwise.
func (t *directTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.carries(req) {
		return t.fallback.RoundTrip(forNetHTTP(req))
	}
	return t.roundTrip(req)
}

// forNetHTTP returns req as net/http needs it when its context carries a
// tracer (withTracer): with the tracer's hooks where net/http fires them
// (httptrace) and the host it goes to, which chooses a TLS client
// certificate (netstack.WithServerName).
func forNetHTTP(req *http.Request) *http.Request {
	tr := tracerOf(req.Context())
	if tr == nil {
		return req
	}
	return req.WithContext(netstack.WithServerName(tr.netContext(req.Context()), req.URL.Hostname()))
}

// hooksOf returns the httptrace hooks of an exchange sent with ctx: its
// tracer's, or those httptrace put in ctx; nil for none.
func hooksOf(ctx context.Context) *httptrace.ClientTrace {
	if tr := tracerOf(ctx); tr != nil {
		return tr.clientTrace()
	}
	return httptrace.ContextClientTrace(ctx)
}

// CloseIdleConnections closes the idle connections of both transports.
func (t *directTransport) CloseIdleConnections() {
	for _, c := range t.idle.drain() {
		c.close()
	}
	t.fallback.CloseIdleConnections()
}

// roundTrip sends req on a connection to its host, a pooled one first,
// and retries on another when a pooled one turns out closed by the server
// before it answered and req may be sent again, as net/http does.
func (t *directTransport) roundTrip(req *http.Request) (*http.Response, error) {
	msg, err := encodeRequest(req, t.noReuse)
	if err != nil {
		return nil, err
	}
	defer msg.free()
	ctx := req.Context()
	trace := hooksOf(ctx)
	addr := dialAddr(req.URL)
	for {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		c, err := t.getConn(ctx, trace, addr, replayable(req))
		if err != nil {
			return nil, err
		}
		res, f := t.exchange(ctx, trace, c, req, msg.b)
		if f == nil {
			return res, nil
		}
		if !c.reused || !f.retryable(req) {
			return nil, f.err
		}
	}
}

// getConn returns an idle connection to addr that still looks open (see
// reusable), or a new one, with ctx's deadline, firing the GetConn,
// GotConn and (through the dialer) ConnectStart and ConnectDone hooks.
func (t *directTransport) getConn(ctx context.Context, trace *httptrace.ClientTrace, addr string, replayable bool) (*directConn, error) {
	if trace != nil && trace.GetConn != nil {
		trace.GetConn(addr)
	}
	for c := t.idle.get(addr); c != nil; c = t.idle.get(addr) {
		c.setDeadline(ctx)
		idle := time.Since(c.idleAt)
		if !c.reusable(idle, replayable) {
			c.close()
			continue
		}
		if trace != nil && trace.GotConn != nil {
			trace.GotConn(httptrace.GotConnInfo{Conn: c.conn, Reused: true, WasIdle: true, IdleTime: idle})
		}
		return c, nil
	}
	dialCtx := ctx
	if tr := tracerOf(ctx); tr != nil {
		dialCtx = tr.netContext(ctx) // the dialer fires ConnectStart and ConnectDone
	}
	conn, err := t.dial(dialCtx, "tcp", addr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, err
	}
	c := newDirectConn(conn, addr)
	c.setDeadline(ctx)
	if trace != nil && trace.GotConn != nil {
		trace.GotConn(httptrace.GotConnInfo{Conn: conn})
	}
	return c, nil
}

// exchange writes msg, the encoded req, on c and reads the response's
// head. A response without a body gives c back to the pool at once; one
// with a body does when the body was read to its end. The end of the
// request's context interrupts a blocked write or read: its deadline is
// c's (see getConn), its cancellation fires c.interrupt (see
// interruptOf). On failure c is closed.
func (t *directTransport) exchange(ctx context.Context, trace *httptrace.ClientTrace, c *directConn, req *http.Request, msg []byte) (*http.Response, *failure) {
	stop := context.AfterFunc(interruptOf(ctx), c.interrupt)
	if f := c.send(ctx, trace, msg); f != nil {
		stop()
		c.close()
		return nil, f
	}
	res, f := t.readHead(ctx, trace, c, req)
	if f != nil {
		stop()
		c.close()
		return nil, f
	}
	keep := !t.noReuse && res.StatusCode >= 200 && !res.Close && !req.Close && !wantsClose(req.Header)
	if req.Method == http.MethodHead || res.ContentLength == 0 {
		t.finish(c, stop, keep)
		return res, nil
	}
	res.Body = &directBody{t: t, c: c, body: res.Body, ctx: ctx, stop: stop, keep: keep}
	return res, nil
}

// readHead reads the head of the final response to req on c, skipping
// 1xx responses but 101, within the header limit; WroteRequest was fired.
func (t *directTransport) readHead(ctx context.Context, trace *httptrace.ClientTrace, c *directConn, req *http.Request) (*http.Response, *failure) {
	c.limit = t.maxHeader
	if _, err := c.br.Peek(1); err != nil {
		return nil, newFailure(ctx, err, stageUnanswered)
	}
	if trace != nil && trace.GotFirstResponseByte != nil {
		trace.GotFirstResponseByte()
	}
	for {
		res, err := http.ReadResponse(c.br, req)
		if err != nil {
			if c.limit <= 0 {
				err = fmt.Errorf("net/http: server response headers exceeded %d bytes; aborted", t.maxHeader)
			}
			return nil, newFailure(ctx, fmt.Errorf("net/http: HTTP/1.x transport connection broken: %w", err), stageBroken)
		}
		if res.StatusCode < 100 || res.StatusCode > 199 || res.StatusCode == http.StatusSwitchingProtocols {
			c.limit = math.MaxInt64
			return res, nil
		}
	}
}

// finish ends an exchange on c: it disarms the context's interruption and
// gives c back to the pool when keep holds, the interruption had not fired
// and nothing more arrived; otherwise it closes c.
func (t *directTransport) finish(c *directConn, stop func() bool, keep bool) {
	if stop() && keep && !c.sawEOF && c.br.Buffered() == 0 && t.idle.put(c) {
		return
	}
	c.close()
}
