package k6http

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/internal/netstack"
	"github.com/usefullatency/usefullatency/internal/redact"
)

// send performs one exchange (no redirect following) on rt and reads the
// whole response body. ctx carries the request's deadline; a failure is
// recorded in the exchange, never returned.
func send(ctx context.Context, rt http.RoundTripper, method, url string, header http.Header, body []byte, rd bodyReading) *exchange {
	ex := &exchange{method: method, url: url, reqHeader: header, reqBody: body}
	tr := &tracer{}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, tr.clientTrace()), method, url, bodyReader(body))
	if err == nil {
		req = req.WithContext(netstack.WithServerName(req.Context(), req.URL.Hostname()))
	}
	if err != nil {
		ex.errorCode, ex.errorMsg, ex.end = codeGeneric, redact.Text(err.Error()), time.Now()
		return ex
	}
	req.Header = header
	res, err := rt.RoundTrip(req)
	if err == nil {
		err = ex.readResponse(res, rd)
	}
	p, conn, base := tr.finish()
	ex.end, ex.timings = p.done, p.timings()
	ex.connection(conn, base)
	var be *bodyError
	var lim *httpsafe.LimitError
	switch {
	case errors.As(err, &be):
		// The response arrived; only its body is bad.
		ex.errorCode, ex.errorMsg = be.code, be.msg
	case errors.As(err, &lim):
		// The response is kept, without its body: the error says which
		// limit it exceeded.
		ex.body, ex.errorCode, ex.errorMsg = nil, codeGeneric, lim.Error()
	case err != nil:
		ex.fail(ctx, err)
	}
	return ex
}

// bodyReading says how a response body is read: decoded up to limit
// bytes, or discarded (responseType none, discardResponseBodies).
type bodyReading struct {
	discard bool
	limit   int64
}

// bodyReader returns a reader of body, or nil for no body (so that no
// Content-Length: 0 is sent with a GET).
func bodyReader(body []byte) io.Reader {
	if body == nil {
		return nil
	}
	return bytes.NewReader(body)
}

// readResponse copies the status, headers, TLS state (OCSP staple included)
// and whole body of res
// into ex, decoded (see readBody) unless it is discarded, and closes the
// body.
func (ex *exchange) readResponse(res *http.Response, rd bodyReading) error {
	defer res.Body.Close()
	ex.status, ex.statusText, ex.proto, ex.header = res.StatusCode, res.Status, res.Proto, res.Header
	if res.TLS != nil {
		ex.tlsVersion, ex.cipher = tlsVersionName(res.TLS.Version), tls.CipherSuiteName(res.TLS.CipherSuite)
		ex.ocsp = stapledOCSP(res.TLS)
	}
	if rd.discard {
		_, err := io.Copy(io.Discard, res.Body)
		return err
	}
	body, err := readBody(res.Body, res.Header.Get("Content-Encoding"), bodySize(res), rd.limit)
	ex.body = body
	return err
}

// bodySize returns the length of res's body when it is known: 0 for none
// (a response to HEAD announces the length of a body it does not carry),
// else its Content-Length, -1 when unknown.
func bodySize(res *http.Response) int64 {
	if res.Body == http.NoBody || (res.Request != nil && res.Request.Method == http.MethodHead) {
		return 0
	}
	return res.ContentLength
}

// connection records the remote address of conn and the bytes the
// exchange moved on it: all of a new connection's (handshakes included),
// what a reused one moved since the exchange got it (base).
func (ex *exchange) connection(conn net.Conn, base [2]int64) {
	if conn == nil {
		return
	}
	if addr, ok := conn.RemoteAddr().(*net.TCPAddr); ok {
		ex.remoteIP, ex.remotePort = addr.IP.String(), addr.Port
	}
	sent, received := counts(conn)
	ex.sent, ex.received = sent-base[0], received-base[1]
}

// fail records err as the exchange's failure: no response (status 0) and
// k6's error code. An error caused by the VU's context marks the exchange
// canceled.
func (ex *exchange) fail(ctx context.Context, err error) {
	ex.status, ex.statusText, ex.proto, ex.header, ex.body = 0, "", "", nil, nil
	ex.errorCode, ex.errorMsg = classify(ctx, err)
	ex.canceled = ctx.Err() != nil && ex.errorCode != codeTimeout
}

// tlsVersionName returns k6's name of a TLS version ("tls1.3").
func tlsVersionName(v uint16) string {
	return strings.ReplaceAll(strings.ToLower(tls.VersionName(v)), "tls ", "tls")
}
