package sse

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/spin"
)

// TestTransmittedMovesTheStart checks what a transmit stamp does to an
// exchange's times: they count from the kernel's send time less the
// connection's set-up, the schedule lag grows by as much, only the first
// report counts, and a stamp before the handover is ignored.
func TestTransmittedMovesTheStart(t *testing.T) {
	const ms = time.Millisecond
	x := newExchange(NewClient(ClientOptions{}), &Request{URL: "http://127.0.0.1:1/", ScheduledAt: time.Now().Add(-2 * ms)})
	x.markSent()
	x.Transmitted(x.sent.Add(-ms), 0) // before the handover: a clock's quirk, ignored
	if x.start() != x.sent {
		t.Fatalf("a stamp before the handover moved the start by %v", x.start().Sub(x.sent))
	}
	x = newExchange(NewClient(ClientOptions{}), &Request{URL: "http://127.0.0.1:1/", ScheduledAt: time.Now().Add(-2 * ms)})
	x.markSent()
	lag := x.tl.scheduleLag.at
	x.Transmitted(x.sent.Add(35*ms), 5*ms)
	x.Transmitted(x.sent.Add(90*ms), 0) // a retry's or a redirect's: the first counts
	x.now = func() time.Time { return x.sent.Add(100 * ms) }
	x.tl.headers.set(x.clock())
	r := x.result()
	if got := *r.Timings.Headers; got != 70 {
		t.Errorf("headers = %v ms, want 70 (100 ms after the handover, the request left 30 ms after it)", got)
	}
	if got, want := *r.Timings.ScheduleLag, float64(lag+30*ms)/float64(ms); got != want {
		t.Errorf("schedule_lag = %v ms, want %v (the handover's lag and the 30 ms before the send)", got, want)
	}
	if got := r.Sent.Sub(x.sent); got != 30*ms {
		t.Errorf("Sent moved by %v, want 30ms", got)
	}
}

// TestSendTimeUnderBusyClient checks the request's start on the reactor
// against the kernel's receive time of the request at the server, while
// goroutines keep the client's CPU busy: on a reused connection the start
// is the kernel's send time, so it lies just before the server's receive
// time however late the busy client got to write the request.
func TestSendTimeUnderBusyClient(t *testing.T) {
	needReactor(t)
	if runtime.GOOS != "linux" {
		t.Skip("kernel stamps are read on Linux")
	}
	received := make(chan time.Time, 1)
	url, _ := rawServerConns(t, func(_ int, c net.Conn, _ *bufio.Reader) {
		sc, ok := newStampConn(c)
		if !ok {
			t.Error("the server's connection is not stamped")
			return
		}
		r := bufio.NewReader(sc)
		for {
			req, err := http.ReadRequest(r)
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, req.Body)
			received <- sc.(*stampConn).at()
			body := "data: hi\n\n"
			if _, err := fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(body), body); err != nil {
				return
			}
		}
	})
	client := NewClient(ClientOptions{})
	do := func() (*Result, time.Time) {
		res := client.Do(context.Background(), &Request{URL: url, Dialect: DialectRaw, Method: http.MethodPost, Body: []byte(`{"q":"hi"}`)})
		rx := <-received
		if res.Failed() {
			t.Fatalf("%s: %s", res.ErrorCode, res.Error)
		}
		return res, rx
	}
	do() // connects: the requests below reuse the connection
	stop := make(chan struct{})
	spin.Until(stop)
	early := steadySamples(t, 30, func() time.Duration { // how long before the server received it the request's start lies
		res, rx := do()
		return rx.Sub(res.Sent)
	})
	close(stop)
	slices.Sort(early)
	t.Logf("start before the server's receive time: min %v p95 %v max %v", early[0], p95(early), early[len(early)-1])
	// The kernel's wall-clock stamps are placed on the monotonic clock on
	// both sides: 0.2 ms for that.
	if early[0] < -200*time.Microsecond {
		t.Errorf("a request started %v after the server received it", -early[0])
	}
	if p := p95(early); p > time.Millisecond {
		t.Errorf("start p95 %v before the server received the request, want < 1 ms (loopback's transit)", p)
	}
}

// stampCtxKey carries a test server's connection to its handler.
type stampCtxKey struct{}

// stampListener stamps the reads of every connection it accepts.
type stampListener struct{ net.Listener }

// Accept implements net.Listener.
func (l stampListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	sc, _ := newStampConn(c)
	return sc, nil
}

// TestSendTimeOverTLS is TestSendTimeUnderBusyClient on net/http's
// transports, TLS with HTTP/1.1 and HTTP/2: on a reused connection the
// request's start is the kernel's send time of its first TLS record (of its
// HEADERS frame on HTTP/2), not the moment a busy client handed it over.
func TestSendTimeOverTLS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kernel stamps are read on Linux")
	}
	for _, h2 := range []bool{false, true} {
		name := map[bool]string{false: "http1", true: "h2"}[h2]
		t.Run(name, func(t *testing.T) {
			received := make(chan time.Time, 1)
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				received <- stampOf(r.Context().Value(stampCtxKey{}).(net.Conn)).at()
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, "data: hi\n\n")
			}))
			srv.Listener = stampListener{srv.Listener}
			srv.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
				return context.WithValue(ctx, stampCtxKey{}, c)
			}
			srv.EnableHTTP2 = h2
			srv.StartTLS()
			defer srv.Close()
			client := NewClient(ClientOptions{InsecureSkipTLSVerify: true, DisableHTTP2: !h2})
			do := func() (*Result, time.Time) {
				res := client.Do(context.Background(), &Request{URL: srv.URL, Dialect: DialectRaw, Method: http.MethodGet})
				rx := <-received
				if res.Failed() {
					t.Fatalf("%s: %s", res.ErrorCode, res.Error)
				}
				return res, rx
			}
			if res, _ := do(); (res.Proto == "HTTP/2.0") != h2 { // connects: the requests below reuse the connection
				t.Fatalf("protocol %s", res.Proto)
			}
			// One scheduler slot shared with spinning goroutines: net/http's
			// writer waits its turn after the handover (milliseconds).
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			stop := make(chan struct{})
			spin.Until(stop)
			early := steadySamples(t, 30, func() time.Duration {
				res, rx := do()
				return rx.Sub(res.Sent)
			})
			close(stop)
			slices.Sort(early)
			t.Logf("start before the server's receive time: min %v p95 %v max %v", early[0], p95(early), early[len(early)-1])
			if early[0] < -200*time.Microsecond {
				t.Errorf("a request started %v after the server received it", -early[0])
			}
			// Kernel stamps on both ends leave loopback's transit (µs); the
			// handover's time lies 0.1–0.3 ms before at p95 here, 20 ms at most.
			if p := p95(early); p > 100*time.Microsecond {
				t.Errorf("start p95 %v before the server received the request, want < 100 µs (loopback's transit)", p)
			}
			if m := early[len(early)-1]; m > 5*time.Millisecond {
				t.Errorf("a request started %v before the server received it, want < 5 ms", m)
			}
		})
	}
}

// steadySamples takes n samples of measure, each a difference between
// two kernel stamps that were placed on the monotonic clock at different
// moments, and leaves out (and takes again) those during which the wall
// clock was adjusted: the kernel stamps in wall-clock time, so a step
// between the two placements moves one stamp by the step. It fails the
// test when the clock kept being adjusted.
func steadySamples(t *testing.T, n int, measure func() time.Duration) []time.Duration {
	t.Helper()
	var out []time.Duration
	for tries := 0; len(out) < n; tries++ {
		if tries == 3*n {
			t.Fatalf("the wall clock was adjusted during %d of %d samples", tries-len(out), tries)
		}
		stepped := wallSteps()
		d := measure()
		if step := stepped(); step > 20*time.Microsecond {
			t.Logf("a sample left out: the wall clock moved %v against the monotonic clock during it", step)
			continue
		}
		out = append(out, d)
	}
	return out
}
