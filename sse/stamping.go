package sse

import (
	"context"
	"net/http"
	"net/http/httptrace"
	"time"
)

// traceConn notes the connection net/http picks for the request, so the
// response can be read on its kernel stamps, where on it the request
// starts, and, on a new connection, how long setting it up took (its
// dialTrace times the dial).
func (x *exchange) traceConn(ctx context.Context) context.Context {
	d := new(dialTrace)
	trace := d.trace()
	trace.GotConn = func(info httptrace.GotConnInfo) { x.gotConn(info, d) }
	return httptrace.WithClientTrace(context.WithValue(ctx, dialTraceKey{}, d), trace)
}

// gotConn takes the connection net/http handed out for the request (h2Conn
// reports an HTTP/2 connection the same way). An HTTP/1.1 request starts at
// the next byte written on it; an HTTP/2 stream at its HEADERS frame, which
// the frame tap stamps. A new connection's set-up is the request's.
func (x *exchange) gotConn(info httptrace.GotConnInfo, d *dialTrace) {
	x.conn, x.setup = nil, 0
	sc := stampOf(info.Conn)
	tlsOn, h2 := tlsOf(info.Conn)
	if !h2 {
		x.conn = info.Conn
		if sc != nil {
			x.mark = sc.Mark()
		}
	}
	if info.Reused {
		return
	}
	s := d.setupOf(sc, tlsOn)
	x.setup = s.total()
	x.opened(s)
}

// transmitted moves the exchange's start to the kernel's send time of the
// request on a net/http connection (HTTP/1.1 from the connection's mark,
// HTTP/2 from the stream's HEADERS frame), as the reactor does.
func (x *exchange) transmitted(resp *http.Response) {
	if b, ok := resp.Body.(*h2Body); ok {
		if b.sentOK {
			x.Transmitted(b.sent, x.setup)
		}
		return
	}
	if sc := stampOf(x.conn); sc != nil {
		if at, ok := sc.SentAt(x.mark); ok {
			x.Transmitted(at, x.setup)
		}
	}
}

// stampResponse points the exchange's clock at the kernel stamps of the
// connection that carried resp: on HTTP/1.1 (plain or TLS), the stamp of
// the connection's latest read, which is the read that completed the bytes
// being parsed (the response is read on the caller's goroutine, and
// crypto/tls reads no further than the record it decodes); on HTTP/2, the
// stamp of the frame that held the last byte handed out (frameTap). Where
// the kernel gives no stamps, the clock stays the read time.
func (x *exchange) stampResponse(resp *http.Response) {
	x.transmitted(resp)
	if b, ok := resp.Body.(*h2Body); ok {
		x.stamps = b.tap.sc
		x.stamps.takeLag() // the lag of this exchange's reads starts now
		x.now = b.arrival
		return
	}
	sc := stampOf(x.conn)
	if sc == nil {
		return
	}
	sc.takeLag()
	x.stamps = sc
	x.now = sc.at
}

// bySegment reports whether the exchange's bytes are stamped by the
// arrival of their own TCP segment (a packet capture follows its
// connection): events that then share a stamp were sent together.
func (x *exchange) bySegment() bool {
	if c := x.wc.Load(); c != nil {
		return c.Captured()
	}
	return x.stamps != nil && x.stamps.cap != nil
}

// readLag returns the longest lag between the kernel receiving bytes of
// the exchange's connection and the program reading them, since the
// response began.
func (x *exchange) readLag() (time.Duration, bool) {
	if l := x.wireLag.Load(); l > 0 {
		return time.Duration(l - 1), true
	}
	if x.stamps == nil {
		return 0, false
	}
	return x.stamps.takeLag(), true
}

// NoteLag implements reactor.Exchange: it records the lag of one of the
// reactor's reads for the exchange.
func (x *exchange) NoteLag(d time.Duration) {
	for {
		old := x.wireLag.Load()
		if old > int64(d) || x.wireLag.CompareAndSwap(old, int64(d)+1) {
			return
		}
	}
}
