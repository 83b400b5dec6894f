package sse

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// setupServer starts a server that answers every request with a short
// event stream, plain or over TLS (offering HTTP/2 when h2); conns counts
// the connections it accepted. A request to /hold waits after its first
// event until hold is closed, and signals held first.
func setupServer(t *testing.T, tlsOn, h2 bool) (srv *httptest.Server, conns *atomic.Int32, held, hold chan struct{}) {
	t.Helper()
	conns = new(atomic.Int32)
	held, hold = make(chan struct{}, 1), make(chan struct{})
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: hi\n\n")
		w.(http.Flusher).Flush()
		if r.URL.Path == "/hold" {
			held <- struct{}{}
			<-hold
		}
		_, _ = io.WriteString(w, "event: done\ndata: x\n\n")
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.EnableHTTP2 = h2
	if tlsOn {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, conns, held, hold
}

// setupPaths are the transports a connection's set-up is measured on.
var setupPaths = []struct {
	name      string
	tls, h2   bool
	opts      ClientOptions
	wantProto string
}{
	{"reactor", false, false, ClientOptions{}, "HTTP/1.1"},
	{"plain-nethttp", false, false, ClientOptions{NetHTTPOnly: true}, "HTTP/1.1"},
	{"tls-http1", true, false, ClientOptions{InsecureSkipTLSVerify: true, DisableHTTP2: true}, "HTTP/1.1"},
	{"h2", true, true, ClientOptions{InsecureSkipTLSVerify: true}, "HTTP/2.0"},
}

// TestConnectionSetup checks the set-up a request reports on every
// transport: the first request opens the connection and reports its TCP
// connect (on loopback, above zero and under 5 ms) and, over TLS, its
// handshake; its times count from the set-up's start, so its headers come
// no sooner than the set-up ended; the next request reuses the connection
// and reports neither.
func TestConnectionSetup(t *testing.T) {
	for _, p := range setupPaths {
		t.Run(p.name, func(t *testing.T) {
			if p.name == "reactor" {
				needReactor(t)
			}
			srv, conns, _, _ := setupServer(t, p.tls, p.h2)
			client := NewClient(p.opts)
			defer client.CloseIdleConnections()
			do := func() *Result {
				res := client.Do(context.Background(), &Request{URL: srv.URL, Dialect: DialectRaw})
				if res.Failed() || res.Proto != p.wantProto {
					t.Fatalf("%s %s: %s", res.Proto, res.ErrorCode, res.Error)
				}
				return res
			}
			first := do()
			tm := first.Timings
			t.Logf("connecting %s, tls_handshaking %s, headers %s", fmtMS(tm.Connecting), fmtMS(tm.TLSHandshaking), fmtMS(tm.Headers))
			if c := tm.Connecting; c == nil || *c <= 0 || *c >= 5 {
				t.Errorf("connecting = %s on a new loopback connection, want above 0 and under 5 ms", fmtMS(c))
			}
			setup := 0.0
			if tm.Connecting != nil {
				setup = *tm.Connecting
			}
			switch hs := tm.TLSHandshaking; {
			case !p.tls:
				null(t, "tls_handshaking on plain HTTP", hs)
			case hs == nil || *hs <= 0 || *hs >= 1000:
				t.Errorf("tls_handshaking = %s on a new TLS connection, want above 0 and under 1 s", fmtMS(hs))
			default:
				setup += *hs
			}
			if tm.Headers == nil || *tm.Headers < setup {
				t.Errorf("headers = %s, want at least the set-up's %.3f ms: the times count from the set-up's start", fmtMS(tm.Headers), setup)
			}
			second := do()
			null(t, "connecting on a reused connection", second.Timings.Connecting)
			null(t, "tls_handshaking on a reused connection", second.Timings.TLSHandshaking)
			if n := conns.Load(); n != 1 {
				t.Errorf("the server accepted %d connections, want 1", n)
			}
		})
	}
}

// TestHTTP2SetupOnFirstStream checks that on HTTP/2 only the stream that
// opened the connection reports its set-up: a stream sent on it while the
// first one is still open reports none.
func TestHTTP2SetupOnFirstStream(t *testing.T) {
	srv, conns, held, hold := setupServer(t, true, true)
	client := NewClient(ClientOptions{InsecureSkipTLSVerify: true})
	defer client.CloseIdleConnections()
	firstDone := make(chan *Result, 1)
	go func() {
		firstDone <- client.Do(context.Background(), &Request{URL: srv.URL + "/hold", Dialect: DialectRaw})
	}()
	<-held
	second := client.Do(context.Background(), &Request{URL: srv.URL, Dialect: DialectRaw})
	close(hold)
	first := <-firstDone
	for _, r := range []*Result{first, second} {
		if r.Failed() || r.Proto != "HTTP/2.0" {
			t.Fatalf("%s %s: %s", r.Proto, r.ErrorCode, r.Error)
		}
	}
	if first.Timings.Connecting == nil || first.Timings.TLSHandshaking == nil {
		t.Errorf("the first stream reports connecting %s, tls_handshaking %s; want both",
			fmtMS(first.Timings.Connecting), fmtMS(first.Timings.TLSHandshaking))
	}
	null(t, "connecting of the second stream", second.Timings.Connecting)
	null(t, "tls_handshaking of the second stream", second.Timings.TLSHandshaking)
	if n := conns.Load(); n != 1 {
		t.Errorf("the server accepted %d connections, want 1 carrying both streams", n)
	}
}

// TestTLSHandshakeLeavesOutBusyClient checks the kernel's measure of the
// handshake against a client that takes 200 ms to check the server's
// certificate (a busy runner, deterministically): tls_handshaking is the
// ClientHello's flight to the server's last flight on the network, under
// 100 ms on loopback, and the request's times count from the set-up's
// start on the network, so the client's 200 ms are not in its headers.
func TestTLSHandshakeLeavesOutBusyClient(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kernel transmit and receive stamps are read on Linux")
	}
	const delay = 200 * time.Millisecond
	for _, h2 := range []bool{false, true} {
		t.Run(map[bool]string{false: "http1", true: "h2"}[h2], func(t *testing.T) {
			srv, _, _, _ := setupServer(t, true, h2)
			slow := &tls.Config{VerifyConnection: func(tls.ConnectionState) error {
				time.Sleep(delay) // the client's own delay, inside the handshake
				return nil
			}}
			client := NewClient(ClientOptions{InsecureSkipTLSVerify: true, DisableHTTP2: !h2, TLSConfig: slow})
			defer client.CloseIdleConnections()
			began := time.Now()
			res := client.Do(context.Background(), &Request{URL: srv.URL, Dialect: DialectRaw})
			took := time.Since(began)
			if res.Failed() {
				t.Fatalf("%s: %s", res.ErrorCode, res.Error)
			}
			tm := res.Timings
			t.Logf("request took %v: tls_handshaking %s, headers %s", took, fmtMS(tm.TLSHandshaking), fmtMS(tm.Headers))
			if took < delay {
				t.Fatalf("the request took %v, under the client's delay of %v", took, delay)
			}
			if hs := tm.TLSHandshaking; hs == nil || *hs >= 100 {
				t.Errorf("tls_handshaking = %s, want under 100 ms: the client's %v are its own", fmtMS(hs), delay)
			}
			if tm.Headers == nil || *tm.Headers >= 100 {
				t.Errorf("headers = %s, want under 100 ms: the client's %v are not the server's latency", fmtMS(tm.Headers), delay)
			}
		})
	}
}

// TestTLSHandshakeThroughProxy checks that through an HTTP proxy the
// handshake counts from the ClientHello, not from the CONNECT request
// before it: a proxy that takes 200 ms to open the tunnel adds nothing to
// tls_handshaking.
func TestTLSHandshakeThroughProxy(t *testing.T) {
	const delay = 200 * time.Millisecond
	srv, _, _, _ := setupServer(t, true, false)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		time.Sleep(delay) // the proxy's slowness, before the tunnel opens
		tunnel(t, w, r.Host)
	}))
	defer proxy.Close()
	client := NewClient(ClientOptions{InsecureSkipTLSVerify: true, DisableHTTP2: true})
	defer client.CloseIdleConnections()
	pu, _ := url.Parse(proxy.URL)
	client.transport.Proxy = http.ProxyURL(pu)
	res := client.Do(context.Background(), &Request{URL: srv.URL, Dialect: DialectRaw})
	if res.Failed() {
		t.Fatalf("%s: %s", res.ErrorCode, res.Error)
	}
	t.Logf("connecting %s, tls_handshaking %s", fmtMS(res.Timings.Connecting), fmtMS(res.Timings.TLSHandshaking))
	if hs := res.Timings.TLSHandshaking; hs == nil || *hs >= 100 {
		t.Errorf("tls_handshaking = %s, want under 100 ms: the proxy's %v before the ClientHello are not the handshake's", fmtMS(hs), delay)
	}
}

// tunnel answers a CONNECT request and relays bytes between the client and
// addr until either side closes.
func tunnel(t *testing.T, w http.ResponseWriter, addr string) {
	up, err := net.Dial("tcp", addr)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer up.Close()
	c, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	defer c.Close()
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	go func() {
		_, _ = io.Copy(up, brw.Reader)
		up.Close()
	}()
	_, _ = io.Copy(c, up)
}

// TestSetupOfFallsBackToTheProgram checks the set-up of a connection the
// kernel does not stamp: the program's measures of the connect and the
// handshake, the handshake only over TLS.
func TestSetupOfFallsBackToTheProgram(t *testing.T) {
	const ms = time.Millisecond
	d := &dialTrace{connect: point{at: 2 * ms, ok: true}, handshake: point{at: 7 * ms, ok: true}}
	if s := d.setupOf(nil, true); s.connect.at != 2*ms || s.handshake.at != 7*ms || s.total() != 9*ms {
		t.Errorf("over TLS: connect %v, handshake %v, total %v; want 2ms, 7ms, 9ms", s.connect, s.handshake, s.total())
	}
	if s := d.setupOf(nil, false); s.handshake.ok || s.total() != 2*ms {
		t.Errorf("plain: handshake %v, total %v; want none and 2ms", s.handshake, s.total())
	}
	if s := new(dialTrace).setupOf(nil, true); s.connect.ok || s.handshake.ok {
		t.Errorf("nothing measured: %+v, want no points", s)
	}
}
