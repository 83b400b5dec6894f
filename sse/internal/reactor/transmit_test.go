//go:build linux && !noreactor

package reactor

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"
)

// recorder is an Exchange that reads the body and records what the
// reactor told it.
type recorder struct {
	ctx context.Context

	mu       sync.Mutex
	sends    int
	at       time.Time
	setup    time.Duration
	connects []time.Duration
	body     string
	attached *Conn
}

func (r *recorder) Context() context.Context { return r.ctx }
func (r *recorder) HeaderLimit() int         { return 1 << 20 }
func (r *recorder) Handoff() bool            { return false }
func (r *recorder) Attach(c *Conn)           { r.attached = c }
func (r *recorder) NoteLag(time.Duration)    {}

func (r *recorder) Connected(connect time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.connects = append(r.connects, connect)
}

func (r *recorder) Transmitted(at time.Time, setup time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sends++
	r.at, r.setup = at, setup
}

func (r *recorder) Respond(resp *http.Response) Sink {
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	r.body = string(b)
	return nil
}

// echoServer answers every request on a kept-alive connection with a
// small event stream and reports, per request, the time it had read it.
func echoServer(t *testing.T) (string, <-chan time.Time) {
	t.Helper()
	seen := make(chan time.Time, 100)
	addr := serveEach(t, func(c net.Conn) {
		eachRequest(c, func() bool {
			seen <- time.Now()
			body := "data: hi\n\n"
			_, err := fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
			return err == nil
		})
	})
	return "http://" + addr + "/chat", seen
}

// TestTransmitStamps checks that the reactor reports each request's kernel
// transmit time: once per request, after the request was handed over and
// before the server had read it, with the connection's set-up on a new
// connection and none on a reused one; and the new connection's TCP
// connect, once, within that set-up.
func TestTransmitStamps(t *testing.T) {
	if !Available() {
		t.Skip("no reactor in this build")
	}
	url, seen := echoServer(t)
	d := &net.Dialer{}
	p := NewPool(d.DialContext, 2, time.Minute)
	for i := range 5 {
		x := &recorder{ctx: context.Background()}
		hreq, err := http.NewRequest(http.MethodPost, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		before := time.Now()
		if err := p.Do(x, hreq, time.Now().Add(10*time.Second)); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		saw := <-seen
		if x.body != "data: hi\n\n" {
			t.Fatalf("request %d: body %q", i, x.body)
		}
		x.mu.Lock()
		sends, at, setup, connects := x.sends, x.at, x.setup, x.connects
		x.mu.Unlock()
		if sends != 1 {
			t.Fatalf("request %d: %d transmissions reported, want 1", i, sends)
		}
		// The kernel's wall-clock stamp is placed on the monotonic clock:
		// 1 ms for the difference between the two clocks' readings.
		if at.Before(before.Add(-time.Millisecond)) || at.After(saw.Add(time.Millisecond)) {
			t.Errorf("request %d: transmitted %v after the handover, %v before the server read it; want within [handover, read]",
				i, at.Sub(before), saw.Sub(at))
		}
		if fresh := i == 0; fresh != (setup > 0) {
			t.Errorf("request %d: set-up %v on a %s connection", i, setup, map[bool]string{true: "new", false: "reused"}[fresh])
		}
		switch {
		case i > 0 && len(connects) > 0:
			t.Errorf("request %d: connect %v reported on a reused connection", i, connects)
		case i == 0 && (len(connects) != 1 || connects[0] <= 0 || connects[0] > setup):
			t.Errorf("request 0: connects %v reported, want one in (0, set-up %v]", connects, setup)
		}
	}
	p.CloseIdle()
}

// TestTransmitStampsDoNotSpin checks that transmit stamps never stay in a
// connection's error queue: epoll reports a non-empty queue at every wait,
// so one left behind would keep the reactor busy. Idle connections that
// carried requests leave the process's CPU idle.
func TestTransmitStampsDoNotSpin(t *testing.T) {
	if !Available() {
		t.Skip("no reactor in this build")
	}
	url, seen := echoServer(t)
	d := &net.Dialer{}
	p := NewPool(d.DialContext, 4, time.Minute)
	defer p.CloseIdle()
	for range 20 {
		hreq, _ := http.NewRequest(http.MethodGet, url, nil)
		if err := p.Do(&recorder{ctx: context.Background()}, hreq, time.Now().Add(10*time.Second)); err != nil {
			t.Fatal(err)
		}
		<-seen
	}
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	before := cpu()
	time.Sleep(300 * time.Millisecond) // the idle window under test, not synchronisation
	if used := cpu() - before; used > 150*time.Millisecond {
		t.Errorf("the process used %v of CPU in 300 ms with idle connections, want < 150 ms (a spinning reactor uses ~300 ms)", used)
	}
}
