package k6http

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/js/modules"
)

// newTestTransport returns a VU's direct transport with the default
// network settings.
func newTestTransport(t *testing.T, noReuse bool) *directTransport {
	t.Helper()
	tr := newDirectTransport(newTransport((*modules.Run)(nil).Network(1), noReuse))
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}

// rawServer is a TCP server whose handler answers the requests of each
// connection with bytes of its own; conns counts the connections it
// accepted.
type rawServer struct {
	addr  string
	conns atomic.Int32
}

// newRawServer starts a raw server: serve is called on each connection,
// with its number from 1 and a reader of its requests.
func newRawServer(t *testing.T, serve func(n int, c net.Conn, br *bufio.Reader)) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{addr: ln.Addr().String()}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var open []net.Conn
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		for _, c := range open {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n := int(s.conns.Add(1))
			mu.Lock()
			open = append(open, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				serve(n, c, bufio.NewReader(c))
			}()
		}
	}()
	return s
}

// answerAll answers every request of a connection with resp.
func answerAll(resp string) func(int, net.Conn, *bufio.Reader) {
	return func(_ int, c net.Conn, br *bufio.Reader) {
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, req.Body)
			if _, err := io.WriteString(c, resp); err != nil {
				return
			}
		}
	}
}

// outcome is what a round trip gave: the body read, the error, and
// whether the connection it got was a reused one.
type outcome struct {
	status int
	body   string
	err    error
	reused bool
}

// roundTrip sends a request of method to url with body (none when nil)
// on rt, adjusted by adjust, and reads the whole response.
func roundTrip(ctx context.Context, rt http.RoundTripper, method, url string, body io.Reader, adjust ...func(*http.Request)) outcome {
	var o outcome
	trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { o.reused = i.Reused }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), method, url, body)
	if err != nil {
		return outcome{err: err}
	}
	for _, f := range adjust {
		f(req)
	}
	res, err := rt.RoundTrip(req)
	if err != nil {
		o.err = err
		return o
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	o.status, o.body, o.err = res.StatusCode, string(b), err
	return o
}

// TestDirectReusesOneConnection checks that sequential requests share one
// TCP connection, kept by the direct transport's pool: the first dials,
// every later one reports a reused connection.
func TestDirectReusesOneConnection(t *testing.T) {
	srv := newRawServer(t, answerAll("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	tr := newTestTransport(t, false)
	for i := range 20 {
		o := roundTrip(context.Background(), tr, http.MethodGet, "http://"+srv.addr+"/", nil)
		if o.err != nil || o.body != "ok" || o.reused != (i > 0) {
			t.Fatalf("request %d: %+v", i, o)
		}
	}
	if n := srv.conns.Load(); n != 1 {
		t.Errorf("%d connections for 20 requests, want 1", n)
	}
	if tr.idle.n != 1 {
		t.Errorf("%d idle connections in the direct pool, want 1", tr.idle.n)
	}
}

// TestDirectResponseFraming checks each way a response delimits its body,
// and whether the connection is kept afterwards: the second request
// reuses it, or needed a new one.
func TestDirectResponseFraming(t *testing.T) {
	cases := []struct {
		name, method, resp, body string
		reused                   bool
	}{
		{"content-length", "GET", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", "hello", true},
		{"chunked with trailer", "GET", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n2\r\nlo\r\n0\r\nX-T: 1\r\n\r\n", "hello", true},
		{"empty", "GET", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", "", true},
		{"1xx skipped", "GET", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", "ok", true},
		{"head", "HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", "", true},
		{"204", "GET", "HTTP/1.1 204 No Content\r\n\r\n", "", true},
		{"304", "GET", "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", "", true},
		{"connection close", "GET", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", "ok", false},
		{"http/1.0", "GET", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", "ok", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newRawServer(t, answerAll(c.resp))
			tr := newTestTransport(t, false)
			for i := range 2 {
				o := roundTrip(context.Background(), tr, c.method, "http://"+srv.addr+"/", nil)
				if o.err != nil || o.body != c.body {
					t.Fatalf("request %d: %+v, want body %q", i, o, c.body)
				}
				if i == 1 && o.reused != c.reused {
					t.Errorf("second request reused = %v, want %v", o.reused, c.reused)
				}
			}
		})
	}
}

// TestDirectCloseDelimitedBody checks a body that ends when the server
// closes the connection: read whole, and the connection not kept.
func TestDirectCloseDelimitedBody(t *testing.T) {
	srv := newRawServer(t, func(_ int, c net.Conn, br *bufio.Reader) {
		if _, err := http.ReadRequest(br); err == nil {
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\n\r\n"+strings.Repeat("z", 10000))
		}
	})
	tr := newTestTransport(t, false)
	for i := range 2 {
		o := roundTrip(context.Background(), tr, http.MethodGet, "http://"+srv.addr+"/", nil)
		if o.err != nil || o.body != strings.Repeat("z", 10000) || o.reused {
			t.Fatalf("request %d: err %v, %d bytes, reused %v", i, o.err, len(o.body), o.reused)
		}
	}
	if n := srv.conns.Load(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
}

// TestDirectKeepAliveOff checks that a request asking to close, and the
// noConnectionReuse transport, send Connection: close and keep nothing.
func TestDirectKeepAliveOff(t *testing.T) {
	var sawClose atomic.Int32
	srv := newRawServer(t, func(_ int, c net.Conn, br *bufio.Reader) {
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			if req.Close {
				sawClose.Add(1)
			}
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}
	})
	url := "http://" + srv.addr + "/"
	off := newTestTransport(t, true)
	on := newTestTransport(t, false)
	for range 2 {
		if o := roundTrip(context.Background(), off, http.MethodGet, url, nil); o.err != nil || o.reused {
			t.Fatalf("noConnectionReuse: %+v", o)
		}
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Close = true
		res, err := on.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.ReadAll(res.Body)
		res.Body.Close()
	}
	if n, closes := srv.conns.Load(), sawClose.Load(); n != 4 || closes != 4 {
		t.Errorf("%d connections, %d requests with Connection: close; want 4 and 4", n, closes)
	}
	if off.idle.n+on.idle.n != 0 {
		t.Errorf("%d idle connections kept, want none", off.idle.n+on.idle.n)
	}
}

// TestDirectHeaderLimit checks that a response whose head exceeds the
// header limit fails as with net/http, with the same message.
func TestDirectHeaderLimit(t *testing.T) {
	srv := newRawServer(t, answerAll("HTTP/1.1 200 OK\r\nX-Big: "+strings.Repeat("b", 4000)+"\r\nContent-Length: 0\r\n\r\n"))
	tr := newTestTransport(t, false)
	tr.maxHeader, tr.fallback.MaxResponseHeaderBytes = 1024, 1024
	direct := roundTrip(context.Background(), tr, http.MethodGet, "http://"+srv.addr+"/", nil)
	viaNetHTTP := roundTrip(context.Background(), tr.fallback, http.MethodGet, "http://"+srv.addr+"/", nil)
	if direct.err == nil || !strings.Contains(direct.err.Error(), "server response headers exceeded 1024 bytes") {
		t.Fatalf("error = %v, want the header limit's", direct.err)
	}
	if viaNetHTTP.err == nil || direct.err.Error() != viaNetHTTP.err.Error() {
		t.Errorf("error = %q, net/http's = %v", direct.err, viaNetHTTP.err)
	}
}

// TestDirectEarlyCloseClosesConnection checks that closing a body before
// its end closes the connection, without reading the rest, and that the
// next request dials a new one.
func TestDirectEarlyCloseClosesConnection(t *testing.T) {
	var firstClosed atomic.Bool
	srv := newRawServer(t, func(n int, c net.Conn, br *bufio.Reader) {
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\n"+strings.Repeat("x", 100))
		_, err := br.ReadByte() // blocks until the client closes
		if n == 1 && err != nil {
			firstClosed.Store(true)
		}
	})
	tr := newTestTransport(t, false)
	req, _ := http.NewRequest(http.MethodGet, "http://"+srv.addr+"/", nil)
	res, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(res.Body, make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	eventually.True(t, "the server saw the connection closed", firstClosed.Load)
	if _, err := res.Body.Read(make([]byte, 1)); err == nil {
		t.Error("a read after Close succeeded")
	}
	req, _ = http.NewRequest(http.MethodGet, "http://"+srv.addr+"/", nil)
	res, err = tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if n := srv.conns.Load(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
}

// closeOnSecond answers the first request of each connection, then reads
// the second and closes the connection without answering: a server that
// hung up just as a pooled connection was reused.
func closeOnSecond(_ int, c net.Conn, br *bufio.Reader) {
	for i := 0; ; i++ {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, req.Body)
		if i == 1 {
			return
		}
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	}
}

// TestDirectRetriesReplayableRequests checks net/http's retry rules on a
// reused connection the server closed without answering: a GET is sent
// again on a new connection and succeeds; a POST is not (it may have been
// processed) and fails with the read's error, as it does through net/http.
func TestDirectRetriesReplayableRequests(t *testing.T) {
	for _, via := range []string{"direct", "net/http"} {
		t.Run(via, func(t *testing.T) {
			srv := newRawServer(t, closeOnSecond)
			var rt http.RoundTripper = newTestTransport(t, false)
			if via == "net/http" {
				rt = rt.(*directTransport).fallback
			}
			url := "http://" + srv.addr + "/"
			if o := roundTrip(context.Background(), rt, http.MethodGet, url, nil); o.err != nil {
				t.Fatal(o.err)
			}
			if o := roundTrip(context.Background(), rt, http.MethodGet, url, nil); o.err != nil || o.body != "ok" {
				t.Fatalf("GET on a connection the server closed: %+v, want it retried", o)
			}
			if n := srv.conns.Load(); n != 2 {
				t.Fatalf("%d connections, want 2", n)
			}
			// Without GetBody and with it: neither POST is sent twice.
			noGetBody := func(r *http.Request) { r.GetBody = nil }
			for _, adjust := range []func(*http.Request){noGetBody, func(*http.Request) {}} {
				o := roundTrip(context.Background(), rt, http.MethodPost, url, strings.NewReader("data"), adjust)
				if !errors.Is(o.err, io.EOF) {
					t.Errorf("POST on a connection the server closed: %+v, want EOF", o)
				}
				if o := roundTrip(context.Background(), rt, http.MethodGet, url, nil); o.err != nil {
					t.Fatal(o.err)
				}
			}
		})
	}
}

// TestDirectConnectionClosedWhileIdle checks that a request on a pooled
// connection the server closed while it was idle succeeds on a new one:
// a POST without GetBody, which is never sent twice, because the idle
// connection is checked before it is used; a GET, not checked after a
// short idle time, because it is sent again.
func TestDirectConnectionClosedWhileIdle(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the idle check peeks at the socket on Linux only")
	}
	cases := []struct {
		name, method string
		adjust       func(*http.Request)
	}{
		{"POST without GetBody", http.MethodPost, func(r *http.Request) { r.GetBody = nil }},
		{"GET", http.MethodGet, func(*http.Request) {}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			closed := make(chan struct{}, 1)
			srv := newRawServer(t, func(n int, conn net.Conn, br *bufio.Reader) {
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, req.Body)
					_, _ = io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
					if n == 1 {
						_ = conn.Close()
						closed <- struct{}{}
						return
					}
				}
			})
			tr := newTestTransport(t, false)
			url := "http://" + srv.addr + "/"
			if o := roundTrip(context.Background(), tr, http.MethodGet, url, nil); o.err != nil {
				t.Fatal(o.err)
			}
			<-closed
			var body io.Reader
			if c.method == http.MethodPost {
				body = strings.NewReader("data")
			}
			o := roundTrip(context.Background(), tr, c.method, url, body, c.adjust)
			if o.err != nil || o.body != "ok" || o.reused {
				t.Fatalf("%s after the server closed the idle connection: %+v, want it sent on a new one", c.method, o)
			}
			if n := srv.conns.Load(); n != 2 {
				t.Errorf("%d connections, want 2", n)
			}
		})
	}
}

// TestDirectContextInterrupts checks that the request's context ends an
// exchange blocked waiting for the response's head, and one blocked in
// its body, promptly and with the context's cause.
func TestDirectContextInterrupts(t *testing.T) {
	srv := newRawServer(t, func(n int, c net.Conn, br *bufio.Reader) {
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		if n == 2 {
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf")
		}
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, _ = br.ReadByte() // stalls until the client closes, or 5 s
	})
	tr := newTestTransport(t, false)
	cause := errors.New("the iteration ended")
	for _, phase := range []string{"head", "body"} {
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(50*time.Millisecond, func() { cancel(cause) })
		start := time.Now()
		o := roundTrip(ctx, tr, http.MethodGet, "http://"+srv.addr+"/", nil)
		if took := time.Since(start); !errors.Is(o.err, cause) || took > 3*time.Second {
			t.Errorf("%s: error %v after %v, want the cause soon after 50ms", phase, o.err, took)
		}
	}
	if tr.idle.n != 0 {
		t.Errorf("%d interrupted connections kept", tr.idle.n)
	}
}

// TestDirectIdleTimeout checks that an idle connection is closed after
// the idle timeout.
func TestDirectIdleTimeout(t *testing.T) {
	var closed atomic.Bool
	srv := newRawServer(t, func(n int, c net.Conn, br *bufio.Reader) {
		answerAll("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")(n, c, br)
		closed.Store(true)
	})
	tr := newTestTransport(t, false)
	tr.idle.timeout = 20 * time.Millisecond
	if o := roundTrip(context.Background(), tr, http.MethodGet, "http://"+srv.addr+"/", nil); o.err != nil {
		t.Fatal(o.err)
	}
	eventually.True(t, "the idle connection closed", closed.Load)
	if tr.idle.get(srv.addr) != nil {
		t.Error("the expired connection is still in the pool")
	}
}

// TestDirectCarries checks which requests the direct transport carries
// and which it leaves to net/http.
func TestDirectCarries(t *testing.T) {
	tr := newTestTransport(t, false)
	proxied := newTestTransport(t, false)
	proxied.fallback.Proxy = func(*http.Request) (*url.URL, error) { return url.Parse("http://proxy.invalid:3128") }
	cases := []struct {
		name   string
		tr     *directTransport
		method string
		url    string
		body   io.Reader
		header map[string]string
		want   bool
	}{
		{"plain GET", tr, "GET", "http://example.com/a?b=c", nil, nil, true},
		{"POST with a small body", tr, "POST", "http://example.com:8080/", strings.NewReader("x"), nil, true},
		{"IPv6 literal", tr, "GET", "http://[::1]:8080/", nil, nil, true},
		{"https", tr, "GET", "https://example.com/", nil, nil, false},
		{"proxy", proxied, "GET", "http://example.com/", nil, nil, false},
		{"expect", tr, "POST", "http://example.com/", strings.NewReader("x"), map[string]string{"Expect": "100-continue"}, false},
		{"upgrade", tr, "GET", "http://example.com/", nil, map[string]string{"Upgrade": "websocket", "Connection": "Upgrade"}, false},
		{"large body", tr, "POST", "http://example.com/", strings.NewReader(strings.Repeat("x", maxDirectBody+1)), nil, false},
		{"unknown length", tr, "POST", "http://example.com/", io.MultiReader(strings.NewReader("x")), nil, false},
		{"invalid header value", tr, "GET", "http://example.com/", nil, map[string]string{"X-A": "a\nb"}, false},
		{"non-ASCII host", tr, "GET", "http://bücher.example/", nil, nil, false},
		{"IPv6 zone", tr, "GET", "http://[fe80::1%25eth0]:80/", nil, nil, false},
		{"CONNECT", tr, "CONNECT", "http://example.com/", nil, nil, false},
	}
	for _, c := range cases {
		req, err := http.NewRequest(c.method, c.url, c.body)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		if got := c.tr.carries(req); got != c.want {
			t.Errorf("%s: carries = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDirectErrorsAsNetHTTP checks that each way an exchange fails gives
// the same k6 error code and message through the direct transport as
// through net/http's.
func TestDirectErrorsAsNetHTTP(t *testing.T) {
	afterRequest := func(then func(c net.Conn)) func(int, net.Conn, *bufio.Reader) {
		return func(_ int, c net.Conn, br *bufio.Reader) {
			if _, err := http.ReadRequest(br); err == nil {
				then(c)
			}
		}
	}
	write := func(s string) func(net.Conn) { return func(c net.Conn) { _, _ = io.WriteString(c, s) } }
	cases := []struct {
		name  string
		serve func(int, net.Conn, *bufio.Reader)
		want  int
	}{
		{"closed unanswered", afterRequest(func(net.Conn) {}), codeGeneric},
		{"reset", afterRequest(func(c net.Conn) { _ = c.(*net.TCPConn).SetLinger(0) }), codeReset},
		{"malformed", afterRequest(write("garbage\r\n\r\n")), codeGeneric},
		{"truncated head", afterRequest(write("HTTP/1.1 200 OK\r\nContent-")), codeGeneric},
		{"truncated body", afterRequest(write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")), codeGeneric},
		{"bad chunk", afterRequest(write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")), codeGeneric},
	}
	ports := regexp.MustCompile(`127\.0\.0\.1:\d+`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newRawServer(t, c.serve)
			var msgs [2]string
			for i := range msgs {
				var rt http.RoundTripper = newTestTransport(t, false)
				if i == 1 {
					rt = rt.(*directTransport).fallback
				}
				o := roundTrip(context.Background(), rt, http.MethodGet, "http://"+srv.addr+"/", nil)
				if o.err == nil {
					t.Fatalf("no error: %+v", o)
				}
				code, msg := classify(context.Background(), o.err)
				if code != c.want {
					t.Errorf("code %d (%s), want %d", code, msg, c.want)
				}
				msgs[i] = ports.ReplaceAllString(msg, "127.0.0.1:N")
			}
			if msgs[0] != msgs[1] {
				t.Errorf("direct: %q, net/http: %q", msgs[0], msgs[1])
			}
		})
	}
	tr := newTestTransport(t, false)
	code, msg := classify(context.Background(), roundTrip(context.Background(), tr, http.MethodGet, closedAddr(t), nil).err)
	if code != codeRefused || !strings.Contains(msg, "connection refused") {
		t.Errorf("refused: %d %s", code, msg)
	}
}

// closedAddr returns the URL of a port nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr + "/"
}

// TestDirectDeadlineOnTheConnection checks an exchange sent as do sends
// it, with the request's deadline in its context and the context whose
// cancellation interrupts it named apart (withInterrupt): the deadline
// ends a stalled exchange with the timeout's cause, in the head and in
// the body; a canceled parent with the parent's cause; neither keeps the
// connection.
func TestDirectDeadlineOnTheConnection(t *testing.T) {
	srv := newRawServer(t, func(n int, c net.Conn, br *bufio.Reader) {
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		if n%2 == 0 {
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf")
		}
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, _ = br.ReadByte() // stalls until the client closes, or 5 s
	})
	tr := newTestTransport(t, false)
	canceled := errors.New("the iteration ended")
	for _, c := range []struct {
		name string
		// cancel ends the parent early; false lets the deadline end it.
		cancel bool
		want   error
	}{
		{"deadline, head", false, errRequestTimeout},
		{"deadline, body", false, errRequestTimeout},
		{"canceled, head", true, canceled},
		{"canceled, body", true, canceled},
	} {
		parent, cancelParent := context.WithCancelCause(context.Background())
		timeout := 100 * time.Millisecond
		if c.cancel {
			timeout = time.Minute
			time.AfterFunc(50*time.Millisecond, func() { cancelParent(canceled) })
		}
		ctx, cancel := context.WithTimeoutCause(parent, timeout, errRequestTimeout)
		start := time.Now()
		o := roundTrip(withInterrupt(ctx, parent), tr, http.MethodGet, "http://"+srv.addr+"/", nil)
		if took := time.Since(start); !errors.Is(o.err, c.want) || took > 3*time.Second {
			t.Errorf("%s: error %v after %v, want %v soon", c.name, o.err, took, c.want)
		}
		cancel()
		cancelParent(nil)
	}
	if tr.idle.n != 0 {
		t.Errorf("%d ended connections kept", tr.idle.n)
	}
}

// TestDirectPooledConnectionOutlivesItsDeadline checks that a connection
// whose last exchange's deadline passed while it was idle is reused, its
// idle check passing: the next exchange's deadline replaces the past one
// before the check.
func TestDirectPooledConnectionOutlivesItsDeadline(t *testing.T) {
	srv := newRawServer(t, answerAll("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	tr := newTestTransport(t, false)
	url := "http://" + srv.addr + "/"
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	o := roundTrip(ctx, tr, http.MethodGet, url, nil)
	if o.err != nil {
		t.Fatal(o.err)
	}
	<-ctx.Done() // the deadline, which the connection carries too, has passed
	// A POST without GetBody is not replayable: its connection is checked.
	o = roundTrip(context.Background(), tr, http.MethodPost, url, strings.NewReader("data"), func(r *http.Request) { r.GetBody = nil })
	if o.err != nil || o.body != "ok" || !o.reused || srv.conns.Load() != 1 {
		t.Errorf("after the deadline passed: %+v, %d connections; want the pooled one reused", o, srv.conns.Load())
	}
}
