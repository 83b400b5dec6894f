package k6http

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// recorder keeps the bytes written on the connections it dialed.
type recorder struct {
	mu      sync.Mutex
	written bytes.Buffer
}

// dial dials addr and records what is written to the connection.
func (r *recorder) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return recordingConn{Conn: c, r: r}, nil
}

// take returns what was written so far and forgets it.
func (r *recorder) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.written.String()
	r.written.Reset()
	return s
}

// recordingConn is a connection whose writes are recorded.
type recordingConn struct {
	net.Conn
	r *recorder
}

func (c recordingConn) Write(b []byte) (int, error) {
	c.r.mu.Lock()
	c.r.written.Write(b)
	c.r.mu.Unlock()
	return c.Conn.Write(b)
}

// TestEncodeRequestAsNetHTTP checks that the direct transport writes
// every kind of request byte for byte as net/http's Transport does.
func TestEncodeRequestAsNetHTTP(t *testing.T) {
	srv := newRawServer(t, answerAll("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	base := "http://" + srv.addr
	cases := []struct {
		name, method, url, body string
		header                  http.Header
		adjust                  func(*http.Request)
		noReuse                 bool
	}{
		{name: "GET", method: "GET", url: "/a/b?c=d&e=%20f", header: http.Header{"User-Agent": {"k6"}, "X-B": {"2", " 3 "}, "Accept": {"*/*"}, "x-lower": {"l"}}},
		{name: "no User-Agent", method: "GET", url: "/"},
		{name: "empty User-Agent", method: "GET", url: "/", header: http.Header{"User-Agent": {""}}},
		{name: "POST", method: "POST", url: "/p", body: "a=1&b=2", header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}},
		{name: "POST without body", method: "POST", url: "/p"},
		{name: "PATCH empty body", method: "PATCH", url: "/p", body: ""},
		{name: "DELETE without body", method: "DELETE", url: "/d"},
		{name: "DELETE with body", method: "DELETE", url: "/d", body: "x"},
		{name: "OPTIONS", method: "OPTIONS", url: "/"},
		{name: "ignored fields", method: "PUT", url: "/", body: "b", header: http.Header{"Host": {"other"}, "Content-Length": {"99"}, "Trailer": {"X"}}},
		{name: "Host override", method: "GET", url: "/", adjust: func(r *http.Request) { r.Host = "virtual.example:81" }},
		{name: "Close", method: "GET", url: "/", adjust: func(r *http.Request) { r.Close = true }},
		{name: "noConnectionReuse", method: "GET", url: "/", noReuse: true},
		{name: "noConnectionReuse, asked to close", method: "GET", url: "/", noReuse: true, header: http.Header{"Connection": {"close"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got [2]string
			for i := range got {
				rec := &recorder{}
				fallback := &http.Transport{DialContext: rec.dial, DisableKeepAlives: c.noReuse, DisableCompression: true}
				tr := newDirectTransport(fallback)
				var rt http.RoundTripper = tr
				if i == 1 {
					rt = fallback
				}
				var body io.Reader
				if c.body != "" || c.method == "PATCH" {
					body = strings.NewReader(c.body)
				}
				adjust := func(r *http.Request) {
					for k, v := range c.header {
						r.Header[k] = v
					}
					if c.adjust != nil {
						c.adjust(r)
					}
				}
				if o := roundTrip(context.Background(), rt, c.method, base+c.url, body, adjust); o.err != nil {
					t.Fatal(o.err)
				}
				got[i] = rec.take()
				tr.CloseIdleConnections()
			}
			if got[0] != got[1] {
				t.Errorf("direct wrote\n%q\nnet/http wrote\n%q", got[0], got[1])
			}
		})
	}
}
