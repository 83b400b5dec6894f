package k6http

import (
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"slices"
	"strconv"
	"sync"
)

// wireRequest is a request encoded as HTTP/1.1 bytes, in a buffer of a
// pool.
type wireRequest struct {
	b []byte
}

// wireRequests are the buffers of encoded requests.
var wireRequests = sync.Pool{New: func() any { return &wireRequest{b: make([]byte, 0, 1024)} }}

// free gives the buffer back to the pool.
func (w *wireRequest) free() {
	w.b = w.b[:0]
	wireRequests.Put(w)
}

// encodeRequest encodes req as net/http's Transport writes it to a server
// it reaches directly: the request line, Host, User-Agent (Go's default
// unless the header has one, none when it is empty), Connection: close
// for req.Close, Content-Length when net/http sends one, the other
// fields sorted by name, Connection: close when closeConn and the request
// does not ask for it already, and the body. It reads and closes the body.
func encodeRequest(req *http.Request, closeConn bool) (*wireRequest, error) {
	w := wireRequests.Get().(*wireRequest)
	b := append(w.b, req.Method...)
	b = append(b, ' ')
	b = append(b, req.URL.RequestURI()...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	if req.Host != "" {
		b = append(b, req.Host...)
	} else {
		b = append(b, req.URL.Host...)
	}
	b = append(b, "\r\n"...)
	b = appendUserAgent(b, req.Header)
	if req.Close && !wantsClose(req.Header) {
		b = append(b, "Connection: close\r\n"...)
	}
	if length, ok := contentLength(req); ok {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, length, 10)
		b = append(b, "\r\n"...)
	}
	b = appendFields(b, req.Header)
	if closeConn && !req.Close && !wantsClose(req.Header) {
		b = append(b, "Connection: close\r\n"...)
	}
	b = append(b, "\r\n"...)
	b, err := appendBody(b, req)
	w.b = b
	if err != nil {
		w.free()
		return nil, err
	}
	return w, nil
}

// goUserAgent is the User-Agent net/http sends for a request whose
// header has none.
const goUserAgent = "Go-http-client/1.1"

// appendUserAgent appends the User-Agent field: the header's first value,
// Go's default when it has none, nothing when that value is empty.
func appendUserAgent(b []byte, h http.Header) []byte {
	ua := goUserAgent
	if vv, ok := h["User-Agent"]; ok {
		ua = ""
		if len(vv) > 0 {
			ua = textproto.TrimString(vv[0])
		}
	}
	if ua == "" {
		return b
	}
	b = append(b, "User-Agent: "...)
	b = append(b, ua...)
	return append(b, "\r\n"...)
}

// contentLength returns the Content-Length net/http sends with req: its
// body's length when it has one, 0 for a POST, PUT or PATCH without one;
// ok is false when it sends none.
func contentLength(req *http.Request) (int64, bool) {
	if !noBody(req) {
		return req.ContentLength, true
	}
	switch req.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
		return 0, true
	}
	return 0, false
}

// encodedElsewhere are the header fields encodeRequest writes from the
// request itself, not from its header.
var encodedElsewhere = map[string]bool{"Host": true, "User-Agent": true, "Content-Length": true, "Transfer-Encoding": true, "Trailer": true}

// appendFields appends the fields of h sorted by name, each value trimmed,
// but those written from the request itself.
func appendFields(b []byte, h http.Header) []byte {
	var arr [24]string
	keys := arr[:0]
	for k := range h {
		if !encodedElsewhere[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, textproto.TrimString(v)...)
			b = append(b, "\r\n"...)
		}
	}
	return b
}

// appendBody appends req's body, of req.ContentLength bytes, and closes
// it.
func appendBody(b []byte, req *http.Request) ([]byte, error) {
	if noBody(req) {
		return b, nil
	}
	defer req.Body.Close()
	n := int(req.ContentLength)
	b = slices.Grow(b, n)
	got, err := io.ReadFull(req.Body, b[len(b):len(b)+n])
	if err != nil {
		return b, fmt.Errorf("http: ContentLength=%d with Body length %d", n, got)
	}
	return b[:len(b)+n], nil
}
