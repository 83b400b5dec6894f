package k6http_test

import (
	"context"
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
	"github.com/usefullatency/usefullatency/internal/spin"
	"github.com/usefullatency/usefullatency/js/modules"
)

// serverConn is a test server's connection read and written with the
// kernel's stamps: the receive time of its latest read and the send time
// of its latest write, the server's ground truth of when a request
// arrived and its response left.
type serverConn struct {
	*sockstamp.Conn
	mu         sync.Mutex
	read, sent time.Time // zero until a read, or a stamped write
}

// Read implements net.Conn, keeping the read's kernel stamp.
func (c *serverConn) Read(p []byte) (int, error) {
	n, rx, err := c.ReadStamped(p)
	if n > 0 {
		c.mu.Lock()
		c.read = sockstamp.At(time.Now(), rx)
		c.mu.Unlock()
	}
	return n, err
}

// Write implements net.Conn, keeping the kernel's send time of the write's
// last byte (zero when the kernel did not stamp it).
func (c *serverConn) Write(p []byte) (int, error) {
	off := c.Mark()
	n, err := c.Conn.Write(p)
	var at time.Time
	if n > 0 {
		at, _ = c.SentAt(off + uint64(n) - 1)
	}
	c.mu.Lock()
	c.sent = at
	c.mu.Unlock()
	return n, err
}

// stamps returns the latest read's and write's stamps.
func (c *serverConn) stamps() (read, sent time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.read, c.sent
}

// stampListener hands out serverConns.
type stampListener struct{ net.Listener }

// Accept implements net.Listener.
func (l stampListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	sc, ok := sockstamp.NewConn(c)
	if !ok || !sc.EnableTX() {
		return c, nil
	}
	return &serverConn{Conn: sc}, nil
}

// serverConnKey carries a test server's connection to its handler.
type serverConnKey struct{}

// serverTimes is what a stamping server saw of one exchange: when the
// kernel received the request, sent the response's first part and its
// last part.
type serverTimes struct{ received, first, last time.Time }

// stampServer starts a server whose handler answers after delay with a
// body written in two parts gap apart (one write after the other when gap
// is 0), and reports each exchange's kernel times on the channel it
// returns.
func stampServer(t *testing.T, useTLS bool, delay, gap time.Duration) (*httptest.Server, <-chan serverTimes) {
	t.Helper()
	sockstamp.KeepOn()
	times := make(chan serverTimes, 100)
	half := []byte("0123456789abcdef")
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sc := serverConnOf(r.Context())
		if sc == nil {
			t.Error("the server's connection is not stamped")
			times <- serverTimes{}
			return
		}
		received, _ := sc.stamps()
		time.Sleep(delay) // the server's delay under test, not synchronisation
		w.Header().Set("Content-Length", strconv.Itoa(2*len(half)))
		_, _ = w.Write(half)
		w.(http.Flusher).Flush()
		_, first := sc.stamps()
		time.Sleep(gap) // the pace under test: the body's second half later
		_, _ = w.Write(half)
		w.(http.Flusher).Flush()
		_, last := sc.stamps()
		times <- serverTimes{received, first, last}
	}))
	srv.Listener = stampListener{srv.Listener}
	srv.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		return context.WithValue(ctx, serverConnKey{}, c)
	}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if useTLS {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, times
}

// serverConnOf finds the serverConn of a handler's context, under TLS or
// not; nil if the connection is not stamped.
func serverConnOf(ctx context.Context) *serverConn {
	c, _ := ctx.Value(serverConnKey{}).(net.Conn)
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	sc, _ := c.(*serverConn)
	return sc
}

// p95 returns the 95th percentile of ds.
func p95(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)*95/100]
}

// ms turns a sample's value in milliseconds into a duration.
func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// TestTimingsFromKernelStamps checks http_req_waiting and
// http_req_receiving against the server's own kernel times of the same
// exchanges: waiting against the time from the server receiving the
// request to sending the response's first part, receiving against the
// time between sending its first and last parts. Under a busy runner (one
// scheduler slot shared with spinning goroutines) net/http's goroutines
// get to the response milliseconds after it arrived, and times taken when
// they do would count that backlog as the server's; the kernel's receive
// and send stamps leave it out, so the two agree to loopback's transit.
// The new connection's connecting is the kernel's handshake round trip.
func TestTimingsFromKernelStamps(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kernel stamps are read on Linux")
	}
	cases := []struct {
		name string
		tls  bool
		busy bool
		gap  time.Duration
	}{
		{name: "busy plain", busy: true},
		{name: "busy TLS", tls: true, busy: true},
		// Not busy: a busy runner reading both parts at once would get one
		// stamp for both, the later part's.
		{name: "body in two parts", gap: 10 * time.Millisecond},
	}
	const requests, delay = 30, 20 * time.Millisecond
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, times := stampServer(t, tc.tls, delay, tc.gap)
			if tc.busy {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
				stop := make(chan struct{})
				defer close(stop)
				spin.Until(stop)
			}
			r := mustRun(t, `export default function () {
  for (let i = 0; i < `+strconv.Itoa(requests)+`; i++) {
    const r = http.get(__ENV.BASE);
    eq(r.status, 200, 'status');
    const t = r.timings;
    if (Math.abs(t.duration - (t.sending + t.waiting + t.receiving)) > 1e-6) throw new Error('duration is not the sum: ' + JSON.stringify(t));
  }
}`, map[string]string{"BASE": srv.URL}, func(run *modules.Run) { run.InsecureSkipTLSVerify = true })
			waiting, receiving := r.of("http_req_waiting"), r.of("http_req_receiving")
			if len(waiting) != requests || len(receiving) != requests {
				t.Fatalf("%d waiting and %d receiving samples, want %d", len(waiting), len(receiving), requests)
			}
			var waitErr, recvErr []time.Duration
			for i := range requests {
				st := <-times
				if st.received.IsZero() || st.first.IsZero() || st.last.IsZero() {
					continue // a write the server's kernel did not stamp
				}
				waitErr = append(waitErr, (ms(waiting[i].Value) - st.first.Sub(st.received)).Abs())
				recvErr = append(recvErr, (ms(receiving[i].Value) - st.last.Sub(st.first)).Abs())
			}
			if len(waitErr) < requests*2/3 {
				t.Fatalf("only %d of %d exchanges stamped by the server", len(waitErr), requests)
			}
			t.Logf("|waiting - server's time| p95 %v max %v; |receiving - server's| p95 %v max %v (n=%d)",
				p95(waitErr), slices.Max(waitErr), p95(recvErr), slices.Max(recvErr), len(waitErr))
			// Two loopback transits (µs) and the stamps' placement on the
			// monotonic clock; the runner's backlog is milliseconds.
			if p := p95(waitErr); p > time.Millisecond {
				t.Errorf("|waiting - server's time| p95 %v, want < 1ms", p)
			}
			if p := p95(recvErr); p > time.Millisecond {
				t.Errorf("|receiving - server's time| p95 %v, want < 1ms", p)
			}
			// The first request connects: the kernel's round trip of the
			// handshake on loopback, not when the busy dialer noticed.
			c := r.of("http_req_connecting")
			if len(c) != requests {
				t.Fatalf("%d connecting samples, want %d", len(c), requests)
			}
			t.Logf("connecting of the new connection: %v ms", c[0].Value)
			if v := c[0].Value; v <= 0 || v >= 2 {
				t.Errorf("http_req_connecting of the new connection: %v ms, want (0, 2 ms)", v)
			}
		})
	}
}

// TestTimingsOnNewAndReusedConnections checks the timings over plain HTTP,
// TLS with HTTP/1.1 and TLS with HTTP/2 (stamped or not): a new connection
// connects (and shakes hands), a reused one does neither, waiting covers
// the server's delay, and duration is the sum of sending, waiting and
// receiving.
func TestTimingsOnNewAndReusedConnections(t *testing.T) {
	const delay = 20 * time.Millisecond
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(delay) // the server's delay under test, not synchronisation
		_, _ = io.WriteString(w, "ok")
	})
	cases := []struct {
		name, proto string
		start       func(*httptest.Server)
	}{
		{"plain", "HTTP/1.1", (*httptest.Server).Start},
		{"TLS", "HTTP/1.1", (*httptest.Server).StartTLS},
		{"TLS HTTP/2", "HTTP/2.0", func(s *httptest.Server) { s.EnableHTTP2 = true; s.StartTLS() }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewUnstartedServer(handler)
			tc.start(srv)
			defer srv.Close()
			tlsUsed := strconv.FormatBool(srv.TLS != nil)
			mustRun(t, `export default function () {
  const tlsUsed = `+tlsUsed+`;
  for (let i = 0; i < 3; i++) {
    const r = http.get(__ENV.BASE);
    eq([r.status, r.proto], [200, '`+tc.proto+`'], 'response');
    const t = r.timings;
    const what = 'request ' + i + ': ' + JSON.stringify(t);
    if (Math.abs(t.duration - (t.sending + t.waiting + t.receiving)) > 1e-6) throw new Error('duration is not the sum, ' + what);
    if (i === 0 && t.connecting <= 0) throw new Error('a new connection connects, ' + what);
    if (i === 0 && tlsUsed && t.tls_handshaking <= 0) throw new Error('a new TLS connection shakes hands, ' + what);
    if (i > 0 && (t.connecting !== 0 || t.tls_handshaking !== 0)) throw new Error('a reused connection neither connects nor shakes hands, ' + what);
    // The request left before the server received it and the response
    // after the server's delay: 0.1 ms for placing stamps on the clock.
    if (t.waiting < 19.9 || t.waiting > 1000) throw new Error('waiting is not the server\'s 20 ms, ' + what);
    if (t.sending < 0 || t.receiving < 0) throw new Error('a negative phase, ' + what);
  }
}`, map[string]string{"BASE": srv.URL}, func(run *modules.Run) { run.InsecureSkipTLSVerify = true })
		})
	}
}
