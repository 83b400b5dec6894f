package sse

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/sse/internal/reactor"
)

// idleWire returns how many kept-alive reactor connections c holds.
func idleWire(c *Client) int {
	if c.wire == nil {
		return -1
	}
	return len(c.wire.IdleStates())
}

// TestReactorReadsPlainHTTP checks which requests the reactor reads:
// plain-HTTP ones without callbacks; NetHTTPOnly turns it off.
func TestReactorReadsPlainHTTP(t *testing.T) {
	needReactor(t)
	srv, _ := serve(t, script{steps: now(textChunk("a"), doneChunk)})
	c := NewClient(ClientOptions{})
	if res := c.Do(context.Background(), &Request{URL: srv.URL}); res.Failed() || res.Text != "a" {
		t.Fatalf("%s %s text %q", res.ErrorCode, res.Error, res.Text)
	}
	if n := idleWire(c); n != 1 {
		t.Errorf("reactor connections after a plain request: %d, want 1", n)
	}
	c.CloseIdleConnections()
	if n := idleWire(c); n != 0 {
		t.Errorf("after CloseIdleConnections: %d", n)
	}
	// A stream with a callback is read by the reactor too, and parsed by
	// the caller, where the callback runs.
	events := 0
	res := c.Do(context.Background(), &Request{URL: srv.URL, OnEvent: func(*Event) error { events++; return nil }})
	if res.Failed() || events != 2 || idleWire(c) != 1 {
		t.Errorf("with onEvent: %s, %d events, reactor connections %d", res.Error, events, idleWire(c))
	}
	if n := idleWire(NewClient(ClientOptions{NetHTTPOnly: true})); n != -1 {
		t.Errorf("NetHTTPOnly has a reactor pool")
	}
}

// TestPathsAgree reads the same responses through the reactor and through
// net/http and compares every outcome.
func TestPathsAgree(t *testing.T) {
	scripts := map[string]script{
		"openai":    {steps: []step{{0, roleChunk}, {20 * time.Millisecond, ": ping\n"}, {20 * time.Millisecond, textChunk("Hi")}, {0, doneChunk}}},
		"bytewise":  {steps: bytewise(": hi\n\n" + textChunk("one") + textChunk(" two") + doneChunk)},
		"clean end": {steps: now(textChunk("a"), textChunk("b"))},
		"status":    {status: 503, steps: now("overloaded")},
		"type":      {header: map[string]string{"Content-Type": "application/json"}, steps: now(`{"a":1}`)},
		"gzip":      {gzip: true, steps: now(textChunk("zipped"), doneChunk)},
		"reset":     {reset: true, steps: now(textChunk("a"))},
	}
	for name, sc := range scripts {
		t.Run(name, func(t *testing.T) {
			srv, _ := serve(t, sc)
			// The reactor in its two modes (coroutine; handed off to the
			// caller for a callback), then net/http with the callback.
			var got [3]*Result
			var seen [3][]Kind
			for i, only := range []bool{false, false, true} {
				req := &Request{URL: srv.URL, Dialect: DialectOpenAI}
				if i > 0 {
					req.OnEvent = func(ev *Event) error { seen[i] = append(seen[i], ev.Kind); return nil }
				}
				got[i] = NewClient(ClientOptions{NetHTTPOnly: only}).Do(context.Background(), req)
			}
			if fmt.Sprint(seen[1]) != fmt.Sprint(seen[2]) {
				t.Errorf("onEvent saw %v on the reactor, %v through net/http", seen[1], seen[2])
			}
			for _, b := range got[1:] {
				agree(t, got[0], b)
			}
		})
	}
}

// agree fails unless two results of the same response agree.
func agree(t *testing.T, a, b *Result) {
	t.Helper()
	if a.ErrorCode != b.ErrorCode || a.Status != b.Status || a.Text != b.Text || a.Events != b.Events ||
		a.Heartbeats != b.Heartbeats || a.EventsByKind != b.EventsByKind || a.BytesReceived != b.BytesReceived ||
		a.Proto != b.Proto || (a.Timings.FirstText == nil) != (b.Timings.FirstText == nil) ||
		(a.Timings.Complete == nil) != (b.Timings.Complete == nil) {
		t.Errorf("results differ:\n%+v\n%+v", *a, *b)
	}
}

// rawServerConns serves every accepted connection with fn, given its
// number from 1; it returns the URL and the count of connections.
func rawServerConns(t *testing.T, fn func(n int, c net.Conn, r *bufio.Reader)) (string, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			k := int(n.Add(1))
			go func() {
				defer c.Close()
				fn(k, c, bufio.NewReader(c))
			}()
		}
	}()
	return "http://" + ln.Addr().String(), &n
}

// answer reads one request and writes a complete event-stream response.
func answer(c net.Conn, r *bufio.Reader, data string) error {
	req, err := http.ReadRequest(r)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, req.Body)
	body := "data: " + data + "\n\n"
	_, err = fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	return err
}

// TestReactorRetriesClosedConnection checks what happens when the server
// closes a kept-alive connection on the next request without answering:
// like net/http, a request that may be sent twice (GET, or one with an
// Idempotency-Key) goes again, once, on a new connection; a plain POST — a
// chat request the server may have started generating — fails instead.
func TestReactorRetriesClosedConnection(t *testing.T) {
	cases := []struct {
		name   string
		method string
		header http.Header
		second string // the second request's text, "" when it fails
		conns  int32
	}{
		{"GET", "GET", nil, "conn2", 2},
		{"POST with Idempotency-Key", "POST", http.Header{"Idempotency-Key": {"k1"}}, "conn2", 2},
		{"POST", "POST", nil, "", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, conns := rawServerConns(t, func(n int, c net.Conn, r *bufio.Reader) {
				_ = answer(c, r, fmt.Sprintf("conn%d", n))
				if n == 1 {
					_, _ = http.ReadRequest(r) // the second request: no answer
				}
			})
			c := NewClient(ClientOptions{})
			do := func() *Result {
				return c.Do(context.Background(), &Request{URL: url, Dialect: DialectRaw, Method: tc.method, Header: tc.header, Body: []byte(`{"q":1}`)})
			}
			if res := do(); res.Failed() || res.Text != "conn1" {
				t.Fatalf("first request: %s %s text %q", res.ErrorCode, res.Error, res.Text)
			}
			res := do()
			switch {
			case tc.second != "" && (res.Failed() || res.Text != tc.second):
				t.Errorf("second request: %s %s text %q, want %q", res.ErrorCode, res.Error, res.Text, tc.second)
			case tc.second == "" && res.ErrorCode != CodeReset:
				t.Errorf("second request: %q %s, want a reset", res.ErrorCode, res.Error)
			}
			if n := conns.Load(); n != tc.conns {
				t.Errorf("%d connections, want %d", n, tc.conns)
			}
		})
	}
}

// TestReactorRedirect checks that a redirect is followed as net/http's
// client follows it.
func TestReactorRedirect(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/new", http.StatusFound) })
	mux.HandleFunc("/new", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, textChunk("moved")+doneChunk)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	res := NewClient(ClientOptions{}).Do(context.Background(), &Request{URL: srv.URL + "/old", Dialect: DialectOpenAI})
	if res.Failed() || res.Text != "moved" || !strings.HasSuffix(res.URL, "/new") {
		t.Errorf("%s %s text %q url %s", res.ErrorCode, res.Error, res.Text, res.URL)
	}
}

// TestReactorConcurrentStreams runs many streams at once on one client, as
// requestAsync does, and checks each outcome and the pool afterwards.
func TestReactorConcurrentStreams(t *testing.T) {
	needReactor(t)
	srv, _ := serve(t, script{steps: []step{{0, roleChunk}, {30 * time.Millisecond, textChunk("x")}, {30 * time.Millisecond, doneChunk}}})
	c := NewClient(ClientOptions{MaxIdleConnsPerHost: 8})
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range 3 {
		for range 40 {
			wg.Go(func() {
				res := c.Do(context.Background(), &Request{URL: srv.URL, Dialect: DialectOpenAI})
				if res.Failed() || res.Text != "x" || res.Timings.Complete == nil {
					failed.Add(1)
				}
			})
		}
		wg.Wait()
	}
	if n := failed.Load(); n != 0 {
		t.Errorf("%d of 120 streams failed", n)
	}
	if n := idleWire(c); n != 8 {
		t.Errorf("%d idle connections, want the pool's limit 8", n)
	}
}

// TestReactorStampsArrival checks that bytes are stamped when they reached
// the socket, not when the reactor got to read them: the reactor is held
// up while the first text arrives, and for hold after.
func TestReactorStampsArrival(t *testing.T) {
	const hold = 200 * time.Millisecond
	needReactor(t)
	ready, held, written := make(chan struct{}, 1), make(chan struct{}, 1), make(chan struct{}, 1)
	var arrived, writeStart, writeEnd time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(roleChunk))
		w.(http.Flusher).Flush()
		if req.Header.Get("X-Hold") == "" {
			return
		}
		arrived = time.Now()
		ready <- struct{}{}
		<-held
		writeStart = time.Now()
		_, _ = w.Write([]byte(textChunk("late read") + doneChunk))
		w.(http.Flusher).Flush()
		writeEnd = time.Now()
		written <- struct{}{}
	}))
	defer srv.Close()
	c := NewClient(ClientOptions{})
	if res := c.Do(context.Background(), &Request{URL: srv.URL}); res.Failed() { // connect first
		t.Fatal(res.Error)
	}
	go func() {
		<-ready
		release := reactor.Hold()
		held <- struct{}{}
		<-written
		time.Sleep(hold) // the reactor held up past the arrival: the delay under test
		release()
	}()
	sent := time.Now()
	res := c.Do(context.Background(), &Request{URL: srv.URL, Dialect: DialectOpenAI, Header: http.Header{"X-Hold": {"1"}}})
	if res.Failed() {
		t.Fatal(res.Error)
	}
	// The client's clock started after sent and before the request
	// arrived; the bytes reached the socket between writeStart and
	// writeEnd. A stamp taken when the reactor read them would come at
	// least hold after writeEnd. The kernel stamps on the wall clock, which
	// the client carries over to the monotonic one: 1 ms for the difference.
	lo, hi := ms(writeStart.Sub(arrived))-1, ms(writeEnd.Sub(sent))+1
	for _, c := range []struct {
		name string
		got  *float64
	}{{"first_text", res.Timings.FirstText}, {"complete", res.Timings.Complete}} {
		if c.got == nil || *c.got < lo || *c.got > hi {
			t.Errorf("%s = %s, want within %.3f … %.3f ms (the write)", c.name, fmtMS(c.got), lo, hi)
		}
	}
}

// TestReactorReleasesEverything runs streams of every outcome on one client
// at once and checks that each ended once, with its own outcome, and that
// nothing is left behind: no coroutine, and after CloseIdleConnections no
// connection of the client in the reactor.
func TestReactorReleasesEverything(t *testing.T) {
	needReactor(t)
	kinds := []struct {
		sc   script
		req  Request
		code string
	}{
		{script{steps: now(textChunk("a"), doneChunk)}, Request{}, ""},
		{script{steps: now(textChunk("a"))}, Request{}, ""},
		{script{status: 503, steps: now("busy")}, Request{}, CodeHTTPStatus},
		{script{reset: true, steps: now(textChunk("a"))}, Request{}, CodeReset},
		{script{steps: []step{{0, textChunk("a")}, {2 * time.Second, textChunk("b")}}}, Request{IdleTimeout: 100 * time.Millisecond}, CodeIdleTimeout},
		{script{delay: 2 * time.Second}, Request{Timeout: 100 * time.Millisecond}, CodeTimeout},
	}
	before := runtime.NumGoroutine()
	c := NewClient(ClientOptions{MaxIdleConnsPerHost: 4})
	var wg sync.WaitGroup
	var wrong atomic.Int32
	for _, k := range kinds {
		srv, _ := serve(t, k.sc)
		for range 10 {
			wg.Go(func() {
				req := k.req
				req.URL, req.Dialect = srv.URL, DialectOpenAI
				if res := c.Do(context.Background(), &req); res.ErrorCode != k.code {
					wrong.Add(1)
					t.Logf("want %q, got %q %s", k.code, res.ErrorCode, res.Error)
				}
			})
		}
	}
	wg.Wait()
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d of %d streams ended with another outcome", n, 10*len(kinds))
	}
	c.CloseIdleConnections()
	if left := c.wire.Open(); left != 0 {
		t.Errorf("%d connections of the client still in the reactor", left)
	}
	// Servers wind down their handlers.
	eventually.True(t, "no coroutine is left", func() bool { return runtime.NumGoroutine() <= before+len(kinds)*2 })
}

// TestReactorResponseShapes reads responses net/http's parser must take
// apart on the reactor: an interim 103 before the answer, an HTTP/1.0
// body ended by closing, "Connection: close", and a request body larger
// than the socket buffers (the write waits for room).
func TestReactorResponseShapes(t *testing.T) {
	event := "data: ok\n\n"
	cases := []struct {
		name   string
		answer string // the response after the request was read
		body   int    // request body size
		conns  int32  // connections for two requests
	}{
		{"early hints", "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n" +
			"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 10\r\n\r\n" + event, 10, 1},
		{"HTTP/1.0 until close", "HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" + event, 10, 2},
		{"connection close", "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\nContent-Length: 10\r\n\r\n" + event, 10, 2},
		{"large body", "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 10\r\n\r\n" + event, 8 << 20, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, conns := rawServerConns(t, func(_ int, c net.Conn, r *bufio.Reader) {
				for {
					req, err := http.ReadRequest(r)
					if err != nil {
						return
					}
					n, _ := io.Copy(io.Discard, req.Body)
					if n != int64(tc.body) {
						return
					}
					if _, err := io.WriteString(c, tc.answer); err != nil || !strings.Contains(tc.answer, "Content-Length") {
						return // close-delimited: the close ends the body
					}
					if strings.Contains(tc.answer, "Connection: close") {
						return
					}
				}
			})
			c := NewClient(ClientOptions{})
			for i := range 2 {
				res := c.Do(context.Background(), &Request{URL: url, Dialect: DialectRaw, Method: "POST", Body: make([]byte, tc.body)})
				if res.Failed() || res.Text != "ok" || res.Status != 200 || res.Timings.Complete == nil {
					t.Fatalf("request %d: %s %s status %d text %q", i+1, res.ErrorCode, res.Error, res.Status, res.Text)
				}
			}
			if n := conns.Load(); n != tc.conns {
				t.Errorf("%d connections for two requests, want %d", n, tc.conns)
			}
		})
	}
}

// TestHandoffSlowReader sends 4 MiB of events at once to a stream whose
// onEvent callback is slow at first: the reactor gets far ahead of the
// reader, stops reading the connection past its limit and resumes once the
// reader caught up; every event arrives, in order, with stamps that never
// go back and that do not wait for the callbacks.
func TestHandoffSlowReader(t *testing.T) {
	const events, slow = 4096, 20
	pad := strings.Repeat("x", 1000)
	var body strings.Builder
	for i := range events {
		fmt.Fprintf(&body, "data: %d %s\n\n", i, pad)
	}
	srv, _ := serve(t, script{steps: now(body.String())})
	next, disorder := 0, 0
	var first, last, slowLast time.Duration
	res := NewClient(ClientOptions{}).Do(context.Background(), &Request{URL: srv.URL, Dialect: DialectRaw, OnEvent: func(ev *Event) error {
		if !strings.HasPrefix(ev.Data, fmt.Sprintf("%d ", next)) || ev.At < last {
			disorder++
		}
		if next == 0 {
			first = ev.At
		}
		next, last = next+1, ev.At
		if next <= slow {
			slowLast = ev.At
			time.Sleep(5 * time.Millisecond) // the slow callback under test: the reactor runs ahead meanwhile
		}
		return nil
	}})
	if res.Failed() || res.Events != events || next != events || disorder != 0 {
		t.Errorf("%s %s: %d events, %d seen, %d out of order", res.ErrorCode, res.Error, res.Events, next, disorder)
	}
	// The first events came in the first reads, long before the slow
	// callbacks were done with them: stamps that followed the callbacks
	// would put event slow at least (slow−1) × 5 ms after the first.
	if d := slowLast - first; d >= (slow-1)*5*time.Millisecond {
		t.Errorf("event %d stamped %v after the first: stamps follow the callbacks", slow, d)
	}
}

// pathSeeds are responses to start the fuzzing of both paths from.
var pathSeeds = []string{
	"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: hi\n\n",
	"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n8\r\ndata: a\n\n\r\n0\r\n\r\n",
	"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 9\r\n\r\ndata: x\n\n",
	"HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: ping\n\ndata: [DONE]\n\n",
	"HTTP/1.1 500 Oops\r\nContent-Length: 4\r\n\r\nbusy",
	"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>",
	"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
	"HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: 0\r\n\r\n",
	"HTTP/1.0 200\r\n\r\n",
	"garbage\r\n\r\n",
	"",
}

// FuzzPathsAgree writes arbitrary bytes as a response and checks that the
// reactor (in its two modes) and net/http read them the same way: the same
// outcome, status, text and events.
func FuzzPathsAgree(f *testing.F) {
	for _, seed := range pathSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, resp []byte) {
		pathsAgree(t, resp, Request{Timeout: 5 * time.Second, IdleTimeout: time.Second, MaxRedirects: -1})
	})
}

// FuzzLimitsAgree is FuzzPathsAgree with limits in play: the response may
// get a header line of 8 KiB (past the request's 4 KiB maxHeaderSize) and
// up to 255 KiB of events after it (past its 16 KiB maxResponseSize); the
// limits cut every path alike.
func FuzzLimitsAgree(f *testing.F) {
	for i, seed := range pathSeeds {
		f.Add([]byte(seed), i%2 == 0, uint8(i*7))
	}
	f.Fuzz(func(t *testing.T, resp []byte, pad bool, events uint8) {
		if len(resp) > 2<<10 {
			t.Skip("the head must stay clear of the 4 KiB limit unless padded")
		}
		pathsAgree(t, hostileResponse(resp, pad, int(events)), Request{Timeout: 5 * time.Second, IdleTimeout: time.Second,
			MaxHeaderSize: 4 << 10, MaxResponseSize: 16 << 10, MaxRedirects: -1})
	})
}

// pathsAgree serves resp to req on every path and compares the outcomes.
// Where one path stops at the header limit, the others must fail too: a
// head past the limit may be malformed further on, which net/http finds
// before it can tell its size.
func pathsAgree(t *testing.T, resp []byte, req Request) {
	url, _ := rawServerConns(t, func(_ int, c net.Conn, r *bufio.Reader) {
		if req, err := http.ReadRequest(r); err == nil {
			_, _ = io.Copy(io.Discard, req.Body)
			_, _ = c.Write(resp)
		}
	})
	req.URL, req.Dialect = url+"/", DialectRaw
	var got [3]*Result
	for p := range paths {
		c, r := onPath(p, req)
		got[p] = c.Do(context.Background(), r)
	}
	for p := 1; p < len(paths); p++ {
		a, b := got[0], got[p]
		if headLimited(a, b) || headLimited(b, a) {
			continue
		}
		if a.ErrorCode != b.ErrorCode || a.Status != b.Status || a.Text != b.Text || a.Events != b.Events {
			t.Errorf("reactor %q %q status %d text %q events %d; %s %q %q status %d text %q events %d",
				a.ErrorCode, a.Error, a.Status, a.Text, a.Events, paths[p].name, b.ErrorCode, b.Error, b.Status, b.Text, b.Events)
		}
	}
}

// headLimited reports whether a stopped at the header limit and b failed
// too.
func headLimited(a, b *Result) bool {
	return a.ErrorCode == CodeTooLarge && strings.Contains(a.Error, "maxHeaderSize") && b.Failed()
}

// hostileResponse returns resp with an 8 KiB header line after its first
// line when pad is set, followed by events events of 1 KiB.
func hostileResponse(resp []byte, pad bool, events int) []byte {
	out := resp
	if i := bytes.Index(resp, []byte("\r\n")); pad && i >= 0 {
		out = slices.Concat(resp[:i+2], []byte("X-Pad: "+strings.Repeat("p", 8<<10)+"\r\n"), resp[i+2:])
	}
	event := "data: " + strings.Repeat("e", 1016) + "\n\n"
	return append(slices.Clone(out), strings.Repeat(event, events)...)
}

// needReactor skips a test of the reactor where there is none (not Linux,
// or built with the noreactor tag).
func needReactor(t *testing.T) {
	t.Helper()
	if !reactor.Available() {
		t.Skip("no reactor in this build")
	}
}

// TestReactorIdleTimeout checks that a kept-alive connection idle for
// IdleConnTimeout is closed — the server sees it go — and that the next
// request dials a new one.
func TestReactorIdleTimeout(t *testing.T) {
	needReactor(t)
	var opened, closed atomic.Int32
	srv, _ := serve(t, script{steps: now(textChunk("a"), doneChunk), onConn: func(s http.ConnState) {
		switch s {
		case http.StateNew:
			opened.Add(1)
		case http.StateClosed:
			closed.Add(1)
		}
	}})
	c := NewClient(ClientOptions{IdleConnTimeout: 50 * time.Millisecond})
	for i := range 2 {
		if res := c.Do(context.Background(), &Request{URL: srv.URL}); res.Failed() {
			t.Fatalf("request %d: %s %s", i, res.ErrorCode, res.Error)
		}
		eventually.True(t, "the idle connection is closed", func() bool { return idleWire(c) == 0 && closed.Load() == int32(i+1) })
	}
	if n := opened.Load(); n != 2 {
		t.Errorf("%d connections opened, want 2 (the first one expired)", n)
	}
}

// pooledStates returns the states of the connections c's pool keeps.
func pooledStates(c *Client) []reactor.State {
	return c.wire.IdleStates()
}

// TestReactorAnswerBeforeRequestWritten checks the parked path: the server
// answers as soon as it has the request's head and only then reads its
// large body, so the response ends while the request is still being
// written. The sender releases the connection after its write, the pool
// keeps it idle, and the next request reuses it.
func TestReactorAnswerBeforeRequestWritten(t *testing.T) {
	needReactor(t)
	url, conns := rawServerConns(t, func(_ int, c net.Conn, r *bufio.Reader) {
		for {
			req, err := http.ReadRequest(r)
			if err != nil {
				return
			}
			body := "data: early\n\n"
			if _, err := fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(body), body); err != nil {
				return
			}
			if _, err := io.Copy(io.Discard, req.Body); err != nil {
				return
			}
		}
	})
	c := NewClient(ClientOptions{})
	big := make([]byte, 16<<20) // more than loopback's socket buffers hold
	for i := range 2 {
		res := c.Do(context.Background(), &Request{URL: url, Dialect: DialectRaw, Method: http.MethodPost, Body: big})
		if res.Failed() || res.Text != "early" {
			t.Fatalf("request %d: %s %s text %q", i, res.ErrorCode, res.Error, res.Text)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections, want 1 (the first one reused)", n)
	}
	if got := pooledStates(c); len(got) != 1 || got[0] != reactor.Idle {
		t.Errorf("pooled connections in states %v, want one idle", got)
	}
}
