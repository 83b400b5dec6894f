//lint:file-ignore SA1019 x/net/http2's Transport and ClientConn are deprecated for net/http's, but net/http's HTTP/2 reads the *tls.Conn itself: only x/net's framer can read through the frame tap that stamps each frame.

package sse

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"reflect"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
)

// useH2 makes t speak HTTP/2 through golang.org/x/net/http2 on connections
// net/http dialed and handed over after ALPN chose "h2", instead of
// net/http's bundled HTTP/2, which reads the *tls.Conn itself: here the
// HTTP/2 framer reads through a frameTap, so each frame is stamped with
// the kernel receive time of its last byte. Each connection serves
// requests from net/http's pool (h2 connections stay in it and are
// shared) until it can take no more.
func useH2(t *http.Transport, idle time.Duration) {
	t2 := &http2.Transport{
		IdleConnTimeout:    idle,
		DisableCompression: true, // the exchange decodes, to count wire bytes
		MaxHeaderListSize:  uint32(DefaultMaxHeaderSize),
		ReadIdleTimeout:    30 * time.Second,
		PingTimeout:        15 * time.Second,
	}
	t.TLSClientConfig.NextProtos = []string{"h2", "http/1.1"}
	t.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{
		"h2": func(_ string, tc *tls.Conn) http.RoundTripper {
			var nc net.Conn = tc
			var tap *frameTap
			if sc := stampOf(tc); sc != nil {
				tap = newFrameTap(tc, sc)
				nc = tap
			}
			cc, err := t2.NewClientConn(nc)
			if err != nil {
				tc.Close()
				return failedConn{err}
			}
			return &h2Conn{cc: cc, tap: tap, tc: tc}
		},
	}
}

// h2Conn is one HTTP/2 connection as net/http's alternate transport; tap
// is nil where the kernel gives no stamps.
type h2Conn struct {
	cc   *http2.ClientConn
	tap  *frameTap
	tc   *tls.Conn
	used atomic.Bool // a request was sent on it
}

// RoundTrip sends req on the connection; when it can take no new request
// it answers http2.ErrNoCachedConn, so net/http drops it from its pool and
// dials another.
func (h *h2Conn) RoundTrip(req *http.Request) (*http.Response, error) {
	if !h.cc.CanTakeNewRequest() {
		return nil, http2.ErrNoCachedConn
	}
	h.gotConn(req)
	resp, err := h.cc.RoundTrip(req)
	if err != nil || h.tap == nil {
		return resp, err
	}
	if id, err := h2StreamID(resp.Body); err == nil {
		b := &h2Body{ReadCloser: resp.Body, tap: h.tap, id: id, last: h.tap.sc.at()}
		if at, ok := h.tap.headersAt(id); ok {
			b.last = at
		}
		b.sent, b.sentOK = h.tap.sentAt(id)
		resp.Body = b
	}
	return resp, nil
}

// gotConn reports the connection to the request's trace, as net/http's
// own HTTP/2 does (net/http reports none for an alternate transport): the
// first request sent on the connection is the one that opened it, the
// others reuse it.
func (h *h2Conn) gotConn(req *http.Request) {
	reused := h.used.Swap(true)
	if trace := httptrace.ContextClientTrace(req.Context()); trace != nil && trace.GotConn != nil {
		trace.GotConn(httptrace.GotConnInfo{Conn: h.tc, Reused: reused})
	}
}

// failedConn is a connection whose HTTP/2 setup failed.
type failedConn struct{ err error }

// RoundTrip returns the setup error.
func (f failedConn) RoundTrip(*http.Request) (*http.Response, error) { return nil, f.err }

// errNoStream is the reason an HTTP/2 body has no stream stamps.
var errNoStream = errors.New("no HTTP/2 stream id")

// h2StreamID reads the stream id of an x/net/http2 response body. The id
// is not exported; this reads the body's clientStream.ID by reflection,
// for the version of golang.org/x/net in go.mod (a test guards it).
func h2StreamID(body io.ReadCloser) (uint32, error) {
	v := reflect.ValueOf(body)
	if v.Kind() != reflect.Struct {
		return 0, errNoStream
	}
	cs := v.FieldByName("cs")
	if !cs.IsValid() || cs.Kind() != reflect.Pointer || cs.IsNil() {
		return 0, errNoStream
	}
	id := cs.Elem().FieldByName("ID")
	if !id.IsValid() || id.Kind() != reflect.Uint32 {
		return 0, errNoStream
	}
	return uint32(id.Uint()), nil
}

// h2Body is an HTTP/2 response body that knows when the bytes it last
// handed out arrived: the stamp of the DATA frame that held the last of
// them.
type h2Body struct {
	io.ReadCloser
	tap  *frameTap
	id   uint32
	off  int64
	last time.Time
	// sent is when the kernel sent the request's HEADERS frame (sentOK).
	sent   time.Time
	sentOK bool
	// rest holds what a read took beyond its first frame, and restErr
	// the error that read returned, reported once rest is handed out.
	rest    []byte
	restErr error
}

// Read implements io.Reader. It hands out at most the rest of one DATA
// frame, so bytes of frames that arrived apart are never read together:
// the transport queues every frame's data for a late reader, and a read
// that took several frames keeps the ones after the first for the next
// Reads.
func (b *h2Body) Read(p []byte) (int, error) {
	if len(b.rest) > 0 {
		k := b.handOut(p, b.rest)
		b.rest = b.rest[k:]
		if len(b.rest) == 0 && b.restErr != nil {
			err := b.restErr
			b.restErr = nil
			return k, err
		}
		return k, nil
	}
	n, err := b.ReadCloser.Read(p)
	if n == 0 {
		b.last = b.tap.sc.at() // the end of the body
		return 0, err
	}
	k := b.handOut(p, p[:n])
	if k < n {
		b.rest, b.restErr = append(b.rest[:0], p[k:n]...), err
		return k, nil
	}
	return k, err
}

// handOut hands out the bytes of src up to the end of the frame that
// holds the first of them: it copies them to p, moves the body's offset
// and stamps them with that frame's arrival; it returns how many.
func (b *h2Body) handOut(p, src []byte) int {
	k := len(src)
	if end, ok := b.tap.frameEnd(b.id, b.off); ok && end-b.off < int64(k) {
		k = int(end - b.off)
	}
	k = copy(p, src[:k])
	b.off += int64(k)
	if at, ok := b.tap.dataAt(b.id, b.off); ok {
		b.last = at
	} else {
		b.last = b.tap.sc.at() // stamps dropped
	}
	return k
}

// arrival returns the stamp of the bytes last handed out.
func (b *h2Body) arrival() time.Time { return b.last }

// Close implements io.Closer and forgets the stream's stamps.
func (b *h2Body) Close() error {
	b.tap.forget(b.id)
	return b.ReadCloser.Close()
}
