package k6http

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/internal/redact"
	"golang.org/x/net/http/httpguts"
)

// send performs one exchange (no redirect following) to at on rt and
// reads the whole response body. ctx carries the request's deadline; a
// failure is recorded in the exchange, never returned. The exchange's
// tracer is taken from tracers and given back (see tracerSlot).
func send(ctx context.Context, rt http.RoundTripper, method string, at *hopURL, header http.Header, body []byte, rd bodyReading, tracers *tracerSlot) *exchange {
	ex := &exchange{method: method, url: at.str, reqHeader: header, reqBody: body, tagURL: at.redacted}
	tr := tracers.take()
	req, err := newHTTPRequest(withTracer(ctx, tr), method, at, header, body)
	if err != nil {
		tracers.give(tr)
		ex.errorCode, ex.errorMsg, ex.end = codeGeneric, redact.Text(err.Error()), time.Now()
		return ex
	}
	res, err := rt.RoundTrip(req)
	if err == nil {
		err = ex.readResponse(res, rd)
	}
	p, conn, base := tr.finish()
	tracers.give(tr)
	ex.end, ex.timings = p.done, p.timings()
	ex.connection(conn, base)
	if err != nil {
		ex.failWith(ctx, err)
	}
	return ex
}

// failWith records err, the error of the round trip or of reading the
// response: a bad body keeps the response (see bodyError), so does one
// beyond a limit, without its body; anything else fails the exchange.
func (ex *exchange) failWith(ctx context.Context, err error) {
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
	default:
		ex.fail(ctx, err)
	}
}

// bodyReading says how a response body is read: decoded up to limit
// bytes, or discarded (responseType none, discardResponseBodies).
type bodyReading struct {
	discard bool
	limit   int64
}

// newHTTPRequest returns the request of method to at with header and
// body (none when nil), as http.NewRequestWithContext builds it from
// at.str, without parsing at.str again: at.parsed copied, its Host
// without an empty port, and for a body its length and GetBody. It fails
// as NewRequestWithContext does for an invalid method or URL.
func newHTTPRequest(ctx context.Context, method string, at *hopURL, header http.Header, body []byte) (*http.Request, error) {
	if method == "" {
		method = http.MethodGet
	}
	if !httpguts.ValidHeaderFieldName(method) {
		return nil, fmt.Errorf("net/http: invalid method %q", method)
	}
	if at.err != nil {
		return nil, at.err
	}
	u := new(url.URL)
	*u = *at.parsed
	u.Host = removeEmptyPort(u.Host)
	r := http.Request{
		Method: method, URL: u, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: header, Host: u.Host,
	}
	if body != nil {
		setBody(&r, body)
	}
	return r.WithContext(ctx), nil
}

// setBody sets body as r's body, as http.NewRequestWithContext sets a
// *bytes.Reader: its length, a GetBody that reads it again, and for an
// empty one http.NoBody.
func setBody(r *http.Request, body []byte) {
	br := bytes.NewReader(body)
	snapshot := *br
	r.Body, r.ContentLength = io.NopCloser(br), int64(len(body))
	r.GetBody = func() (io.ReadCloser, error) {
		r := snapshot
		return io.NopCloser(&r), nil
	}
	if len(body) == 0 {
		r.Body = http.NoBody
		r.GetBody = func() (io.ReadCloser, error) { return http.NoBody, nil }
	}
}

// removeEmptyPort removes the empty port of host ("example.com:"), as
// net/http does to the URL of a new request.
func removeEmptyPort(host string) string {
	if strings.LastIndex(host, ":") > strings.LastIndex(host, "]") {
		return strings.TrimSuffix(host, ":")
	}
	return host
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
	if w := wireOf(conn); w != nil && w.remoteIP != "" {
		ex.remoteIP, ex.remotePort = w.remoteIP, w.remotePort
	} else if addr, ok := conn.RemoteAddr().(*net.TCPAddr); ok {
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
