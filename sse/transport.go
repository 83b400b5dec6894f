package sse

import (
	"io"
	"net/http"
	"time"

	"github.com/usefullatency/usefullatency/internal/netstack"
)

// streamTransport is what an exchange needs from a transport: it sends one
// request of the exchange and sees its response through (headers checked,
// stream read into the exchange's result), or reports the redirect to
// follow. The reactor (reactorTransport) and net/http (netHTTPTransport)
// satisfy it; a Client asks its transports in turn and the first that
// carries a request sends it, so the exchange never names a transport.
type streamTransport interface {
	// carries reports whether the transport sends hreq.
	carries(hreq *http.Request) bool
	// roundTrip sends hreq for x and reads its response into x's result;
	// it returns the redirect to follow, or nil when the exchange ended.
	roundTrip(x *exchange, hreq *http.Request) *redirection
	// closeIdle closes the transport's idle kept-alive connections.
	closeIdle()
}

var (
	_ streamTransport = netHTTPTransport{}
	_ streamTransport = reactorTransport{}
)

// netHTTPTransport sends requests through net/http: every request it is
// asked about (TLS, HTTP/2, proxies, custom transports, plain HTTP when the
// reactor is off).
type netHTTPTransport struct {
	hc *http.Client
}

// carries implements streamTransport: net/http carries every request.
func (netHTTPTransport) carries(*http.Request) bool { return true }

// closeIdle implements streamTransport.
func (t netHTTPTransport) closeIdle() { t.hc.CloseIdleConnections() }

// roundTrip implements streamTransport.
func (t netHTTPTransport) roundTrip(x *exchange, hreq *http.Request) *redirection {
	interim := new(int64)
	x.now, x.conn, x.stamps = time.Now, nil, nil
	ctx := netstack.WithServerName(x.traceConn(x.countInterim(interim)), hreq.URL.Hostname())
	resp, err := t.hc.Do(hreq.WithContext(ctx))
	if err != nil {
		x.failTransport(err)
		x.cancel(nil)
		return nil
	}
	if n := *interim + headerBytes(resp.Proto, resp.Status, resp.Header); n > int64(x.req.MaxHeaderSize) {
		resp.Body.Close()
		x.res.fail(CodeTooLarge, headerLimit(x.req.MaxHeaderSize).Error())
		x.cancel(nil)
		return nil
	}
	if r := redirectOf(resp); r != nil && x.ctx.Err() == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, errorBodyLimit))
		resp.Body.Close()
		return r
	}
	x.stampResponse(resp)
	x.receive(resp)
	return nil
}
