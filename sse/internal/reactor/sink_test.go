//go:build linux && !noreactor

package reactor

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// pushRecorder is an Exchange that takes its body pushed, as a Sink, and
// records what it was given.
type pushRecorder struct {
	recorder
	panicOn string        // Body panics on bytes holding it
	arrived chan struct{} // if set, told of each Body

	pmu   sync.Mutex
	got   strings.Builder
	ends  int
	err   error
	stamp []time.Time
}

func (r *pushRecorder) Respond(*http.Response) Sink { return r }

func (r *pushRecorder) Body(b []byte) error {
	if r.panicOn != "" && strings.Contains(string(b), r.panicOn) {
		panic("sink bug")
	}
	r.pmu.Lock()
	defer r.pmu.Unlock()
	r.got.Write(b)
	r.stamp = append(r.stamp, r.attached.Arrival())
	if r.arrived != nil {
		select {
		case r.arrived <- struct{}{}:
		default:
		}
	}
	return nil
}

// outcome returns the body pushed so far, the Ends and the last End's
// error.
func (r *pushRecorder) outcome() (body string, ends int, err error) {
	r.pmu.Lock()
	defer r.pmu.Unlock()
	return r.got.String(), r.ends, r.err
}

func (r *pushRecorder) End(err error) {
	r.pmu.Lock()
	defer r.pmu.Unlock()
	r.ends++
	r.err = err
}

// serveEach serves every connection accepted on a loopback listener with
// fn, on a goroutine of its own that closes it after, until the test
// ends; it returns the listener's address.
func serveEach(t *testing.T, fn func(c net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				fn(c)
			}()
		}
	}()
	return ln.Addr().String()
}

// eachRequest reads the requests on c, their bodies discarded, and calls
// answer after each until reading fails or answer returns false.
func eachRequest(c net.Conn, answer func() bool) {
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, req.Body)
		if !answer() {
			return
		}
	}
}

// rawServer answers each request on a kept-alive connection with the next
// of answers, written as it is, and counts connections.
func rawServer(t *testing.T, answers ...string) (url string, conns func() int) {
	t.Helper()
	var mu sync.Mutex
	n, next := 0, 0
	addr := serveEach(t, func(c net.Conn) {
		mu.Lock()
		n++
		mu.Unlock()
		eachRequest(c, func() bool {
			mu.Lock()
			a := answers[next%len(answers)]
			next++
			mu.Unlock()
			_, err := io.WriteString(c, a)
			return err == nil && !strings.Contains(a, "Connection: close")
		})
	})
	return "http://" + addr + "/", func() int { mu.Lock(); defer mu.Unlock(); return n }
}

// testPool returns a pool that the test's end empties.
func testPool(t *testing.T) *Pool {
	d := &net.Dialer{}
	p := NewPool(d.DialContext, 2, time.Minute)
	t.Cleanup(p.CloseIdle)
	return p
}

// get sends x's GET of url through p.
func get(p *Pool, x Exchange, url string) error {
	hreq, _ := http.NewRequest(http.MethodGet, url, nil)
	return p.Do(x, hreq, time.Now().Add(10*time.Second))
}

// pushedGet sends request i, a GET of url through p whose body is pushed
// to a pushRecorder, and returns the recorder's outcome. A request that
// has not ended in 10 s fails the test: a connection the reactor left
// readable waits for traffic that never comes.
func pushedGet(t *testing.T, p *Pool, url string, i int) (body string, ends int, err error) {
	t.Helper()
	x := &pushRecorder{recorder: recorder{ctx: context.Background()}}
	done := make(chan error, 1)
	go func() { done <- get(p, x, url) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("request %d: no end in 10 s: the reactor left the connection readable", i)
	}
	return x.outcome()
}

const streamHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"

// TestPushedBodies reads bodies of each framing through a sink: the body
// arrives whole, without its framing, End comes once with the body's
// outcome, and the connection serves the next request only after a clean
// end with nothing after it. The reactor must read each connection to its
// end on its own (pushedGet): a body several times its read buffer, an
// end of stream written right behind the bytes.
func TestPushedBodies(t *testing.T) {
	if !Available() {
		t.Skip("no reactor in this build")
	}
	big := strings.Repeat("data: x\n\n", 3*readBufSize/9+7) // every read but the last fills the buffer
	cases := []struct {
		name, answer, body string
		err                error // End's, nil for a clean end
		conns              int   // connections for two requests
	}{
		{"three buffers", streamHead + "Content-Length: " + strconv.Itoa(len(big)) + "\r\n\r\n" + big, big, nil, 1},
		{"three buffers until close", "HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n" + big, big, nil, 2},
		{"length", streamHead + "Content-Length: 9\r\n\r\ndata: a\n\n", "data: a\n\n", nil, 1},
		{"chunked with trailer", streamHead + "Transfer-Encoding: chunked\r\n\r\n5\r\ndata:\r\n4;x=y\r\n a\n\n\r\n0\r\nX-T: 1\r\n\r\n", "data: a\n\n", nil, 1},
		{"empty", streamHead + "Content-Length: 0\r\n\r\n", "", nil, 1},
		{"bytes after the body", streamHead + "Content-Length: 3\r\n\r\nabcdef", "abc", nil, 2},
		{"until close", "HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: b\n\n", "data: b\n\n", nil, 2},
		{"truncated", streamHead + "Content-Length: 50\r\nConnection: close\r\n\r\ndata: c\n\n", "data: c\n\n", io.ErrUnexpectedEOF, 2},
		{"malformed chunk", streamHead + "Transfer-Encoding: chunked\r\n\r\n3\r\nabcXY", "abc", errMalformed, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, conns := rawServer(t, tc.answer)
			p := testPool(t)
			for i := range 2 {
				got, ends, err := pushedGet(t, p, url, i)
				if got != tc.body || ends != 1 || !errors.Is(err, tc.err) {
					t.Fatalf("request %d: body %s, %d ends, end %v; want %s, 1 end, %v", i, short([]byte(got)), ends, err, short([]byte(tc.body)), tc.err)
				}
			}
			if n := conns(); n != tc.conns {
				t.Errorf("%d connections for two requests, want %d", n, tc.conns)
			}
		})
	}
}

// TestPushedBodyStampsEachRead checks that bytes pushed from separate
// reads carry their own arrivals, in order.
func TestPushedBodyStampsEachRead(t *testing.T) {
	if !Available() {
		t.Skip("no reactor in this build")
	}
	proceed := make(chan struct{})
	addr := serveEach(t, func(c net.Conn) {
		if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
			return
		}
		_, _ = io.WriteString(c, streamHead+"Transfer-Encoding: chunked\r\n\r\n9\r\ndata: a\n\n\r\n")
		<-proceed
		_, _ = io.WriteString(c, "9\r\ndata: b\n\n\r\n0\r\n\r\n")
	})
	p := testPool(t)
	x := &pushRecorder{recorder: recorder{ctx: context.Background()}, arrived: make(chan struct{}, 1)}
	done := make(chan error, 1)
	go func() { done <- get(p, x, "http://"+addr+"/") }()
	<-x.arrived
	close(proceed)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if x.got.String() != "data: a\n\ndata: b\n\n" || len(x.stamp) != 2 || !x.stamp[1].After(x.stamp[0]) {
		t.Fatalf("body %q, stamps %v: want two reads, the second stamped later", x.got.String(), x.stamp)
	}
}

// TestSinkPanic checks that a sink's panic ends its exchange with
// ErrInternal, once, and leaves the reactor serving other requests.
func TestSinkPanic(t *testing.T) {
	if !Available() {
		t.Skip("no reactor in this build")
	}
	url, _ := rawServer(t, streamHead+"Content-Length: 9\r\n\r\ndata: a\n\n")
	p := testPool(t)
	x := &pushRecorder{recorder: recorder{ctx: context.Background()}, panicOn: "data"}
	if err := get(p, x, url); err != nil {
		t.Fatal(err)
	}
	if x.ends != 1 || !errors.Is(x.err, ErrInternal) {
		t.Fatalf("%d ends, end %v; want one, with ErrInternal", x.ends, x.err)
	}
	y := &pushRecorder{recorder: recorder{ctx: context.Background()}}
	if err := get(p, y, url); err != nil || y.got.String() != "data: a\n\n" || y.err != nil {
		t.Fatalf("the next request: %v, body %q, end %v", err, y.got.String(), y.err)
	}
}

// TestPushedBodyInterrupted checks that ending the exchange's context
// ends a pushed body that is waiting for bytes, with the context's cause.
func TestPushedBodyInterrupted(t *testing.T) {
	if !Available() {
		t.Skip("no reactor in this build")
	}
	url, _ := rawServer(t, streamHead+"Transfer-Encoding: chunked\r\n\r\n9\r\ndata: a\n\n\r\n")
	p := testPool(t)
	cause := errors.New("gave up")
	ctx, cancel := context.WithCancelCause(context.Background())
	x := &pushRecorder{recorder: recorder{ctx: ctx}, arrived: make(chan struct{}, 1)}
	done := make(chan error, 1)
	go func() { done <- get(p, x, url) }()
	<-x.arrived
	cancel(cause)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	x.pmu.Lock()
	defer x.pmu.Unlock()
	if x.ends != 1 || !errors.Is(x.err, cause) {
		t.Fatalf("%d ends, end %v; want one, with the context's cause", x.ends, x.err)
	}
}
