package sse

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// step is one write of a scripted server: wait, then write and flush data.
type step struct {
	wait time.Duration
	data string
}

// script is what a test server sends.
type script struct {
	status int               // default 200
	header map[string]string // Content-Type defaults to text/event-stream
	steps  []step
	gzip   bool // gzip the body, flushing the compressor at every step
	reset  bool // hijack and close the connection after the steps
	onConn func(http.ConnState)
	delay  time.Duration // wait before the headers
	// gates holds steps back, after their pause, until a channel closes.
	gates map[int]<-chan struct{}
}

// sent records when a scripted server began to write each step, since the
// request arrived: the ground truth client timings are checked against. A
// client, whose clock starts before the request arrives, cannot see a step
// earlier than recorded.
type sent struct {
	mu  sync.Mutex
	at  []time.Duration
	req int
}

// add records a write.
func (s *sent) add(d time.Duration) {
	s.mu.Lock()
	s.at = append(s.at, d)
	s.mu.Unlock()
}

// times returns the recorded writes.
func (s *sent) times() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.at...)
}

// serve starts a server that plays sc for every request.
func serve(t testing.TB, sc script) (*httptest.Server, *sent) {
	t.Helper()
	rec := &sent{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.req++
		rec.mu.Unlock()
		if sc.reset {
			playHijacked(t, w, sc, rec)
			return
		}
		play(w, r, sc, rec)
	}))
	if sc.onConn != nil {
		srv.Config.ConnState = func(_ net.Conn, s http.ConnState) { sc.onConn(s) }
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, rec
}

// play writes the script through the ResponseWriter.
func play(w http.ResponseWriter, r *http.Request, sc script, rec *sent) {
	start := time.Now()
	if !sleepCtx(r, sc.delay) {
		return
	}
	setHeaders(w.Header(), sc)
	if sc.gzip {
		w.Header().Set("Content-Encoding", "gzip")
	}
	status := sc.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	w.(http.Flusher).Flush()
	var zw *gzip.Writer
	if sc.gzip {
		zw = gzip.NewWriter(w)
		defer zw.Close()
	}
	for i, s := range sc.steps {
		if !sleepCtx(r, s.wait) {
			return
		}
		if g := sc.gates[i]; g != nil {
			select {
			case <-g:
			case <-r.Context().Done():
				return
			}
		}
		rec.add(time.Since(start))
		if zw != nil {
			_, _ = zw.Write([]byte(s.data))
			_ = zw.Flush()
		} else {
			_, _ = w.Write([]byte(s.data))
		}
		w.(http.Flusher).Flush()
	}
}

// sleepCtx waits d unless the client went away.
func sleepCtx(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	select {
	case <-time.After(d):
		return true
	case <-r.Context().Done():
		return false
	}
}

// setHeaders applies the script's headers.
func setHeaders(h http.Header, sc script) {
	h.Set("Content-Type", "text/event-stream")
	for k, v := range sc.header {
		if v == "" {
			h.Del(k)
		} else {
			h.Set(k, v)
		}
	}
}

// playHijacked writes a chunked HTTP/1.1 response by hand and then closes
// the connection without the final chunk: a reset mid-stream.
func playHijacked(t testing.TB, w http.ResponseWriter, sc script, rec *sent) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	defer conn.Close()
	start := time.Now()
	fmt.Fprint(buf, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
	_ = buf.Flush()
	for _, s := range sc.steps {
		time.Sleep(s.wait) // the script's pause: part of the stream under test
		rec.add(time.Since(start))
		fmt.Fprintf(buf, "%x\r\n%s\r\n", len(s.data), s.data)
		_ = buf.Flush()
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0) // RST instead of FIN
	}
}

// now returns steps that send data at once.
func now(data ...string) []step {
	out := make([]step, len(data))
	for i, d := range data {
		out[i] = step{data: d}
	}
	return out
}

// bytewise splits data into one-byte steps.
func bytewise(data string) []step {
	out := make([]step, len(data))
	for i := range len(data) {
		out[i] = step{data: data[i : i+1]}
	}
	return out
}

// lines converts LF line ends of s to eol.
func lines(s, eol string) string { return strings.ReplaceAll(s, "\n", eol) }

// rawServer accepts one connection and hands it to fn (for malformed
// responses).
func rawServer(t testing.TB, fn func(c net.Conn, r *bufio.Reader)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		fn(c, bufio.NewReader(c))
	}()
	return "http://" + ln.Addr().String()
}

// near fails unless got is within tol of want (milliseconds).
func near(t testing.TB, name string, got *float64, want, tol float64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s is null, want %.0f±%.0f ms", name, want, tol)
		return
	}
	if *got < want-tol || *got > want+tol {
		t.Errorf("%s = %.1f ms, want %.0f±%.0f ms", name, *got, want, tol)
	}
}

// loadSlack is how much later than scripted, in milliseconds, a timing may
// be: on a loaded 2-core machine a test server's goroutine can be kept off
// the CPU for a good part of this. No timing can be early — a scripted pause
// is never shorter than scripted, and the client's clock starts before the
// request reaches the server — so lower bounds stay exact.
const loadSlack = 250

// late fails unless a timing is want ms or at most loadSlack ms more: an
// event the server wrote want ms after the request arrived (or later).
func late(t testing.TB, name string, got *float64, want float64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s is null, want %.1f ms (+%d)", name, want, loadSlack)
		return
	}
	if *got < want || *got > want+loadSlack {
		t.Errorf("%s = %.1f ms, want %.1f ms (+%d)", name, *got, want, loadSlack)
	}
}

// same fails unless a timing is the stamp of the event it must come from.
func same(t testing.TB, name string, got *float64, at time.Duration) {
	t.Helper()
	if got == nil || math.Abs(*got-ms(at)) > 1e-6 {
		t.Errorf("%s = %v, want the stamp %.3f ms of its event", name, fmtMS(got), ms(at))
	}
}

// fmtMS formats a timing, "null" for nil.
func fmtMS(v *float64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%.3f ms", *v)
}

// null fails unless a timing is null.
func null(t testing.TB, name string, got *float64) {
	t.Helper()
	if got != nil {
		t.Errorf("%s = %.1f ms, want null", name, *got)
	}
}
