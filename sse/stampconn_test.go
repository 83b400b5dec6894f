package sse

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/pktcap"
	"github.com/usefullatency/usefullatency/internal/spin"
)

// stampServerEnv makes the test binary a stamp server (TestStampServer).
const stampServerEnv = "USEFULSSE_STAMP_SERVER"

// TestStampServer is not a test: run by stampServer in a process of its
// own, it serves events that carry when they were written, until its
// standard input closes. USEFULSSE_STAMP_SERVER is "plain", "tls" or
// "h2". Each event's data is "B,A;": B is the time on CLOCK_MONOTONIC,
// in nanoseconds, just before the event was written, A the time the write
// of the event before it returned (0 for the first); a last event "0,A;"
// closes the stream. On loopback the bytes reach the client's socket
// during the write, so an event's kernel receive time lies between its B
// and the next event's A, however late the server itself ran.
func TestStampServer(t *testing.T) {
	mode := os.Getenv(stampServerEnv)
	if mode == "" {
		t.Skip("run by stampServer")
	}
	events, _ := strconv.Atoi(os.Getenv(stampServerEnv + "_EVENTS"))
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		var after int64
		for i := range events + 1 {
			before := int64(0)
			if i < events {
				time.Sleep(100 * time.Millisecond) // the gap between events under test, not synchronisation
				before = monoNow()
			}
			fmt.Fprintf(w, "data: %d,%d;\n\n", before, after)
			w.(http.Flusher).Flush()
			after = monoNow()
		}
	}))
	srv.EnableHTTP2 = mode == "h2"
	if mode == "plain" {
		srv.Start()
	} else {
		srv.StartTLS()
	}
	fmt.Println(srv.URL)
	_, _ = io.Copy(io.Discard, os.Stdin)
	srv.Close()
}

// stampServer starts TestStampServer in a process of its own and returns
// its URL.
func stampServer(t *testing.T, mode string, events int) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStampServer$", "-test.count=1")
	cmd.Env = append(os.Environ(), stampServerEnv+"="+mode, stampServerEnv+"_EVENTS="+strconv.Itoa(events))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("stamp server: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return strings.TrimSpace(line)
}

// stampedEvent is an event's stamp, when the program read it, and the
// server's times around its write (CLOCK_MONOTONIC nanoseconds).
type stampedEvent struct {
	at            time.Duration // since the request was sent
	read          time.Time
	before, after int64
	coalesced     bool // the next event came in the same read
}

// writeTimes parses a stamp server's event data "B,A;".
func writeTimes(data string) (before, prevAfter int64, ok bool) {
	b, a, ok := strings.Cut(strings.TrimSuffix(data, ";"), ",")
	if !ok {
		return 0, 0, false
	}
	before, err1 := strconv.ParseInt(b, 10, 64)
	prevAfter, err2 := strconv.ParseInt(a, 10, 64)
	return before, prevAfter, err1 == nil && err2 == nil
}

// lateness is how far t lies after the window [before, after] in which
// the kernel received the event: 0 inside it; negative when t is before
// the event was written at all.
func lateness(t time.Time, before, after int64) time.Duration {
	switch ns := monoAt(t); {
	case ns < before:
		return time.Duration(ns - before)
	case ns > after:
		return time.Duration(ns - after)
	}
	return 0
}

// monoAnchor pairs a time.Time with the CLOCK_MONOTONIC reading taken
// right after it, so that monoAt can place the probe's times on the
// server's clock through Go's monotonic readings alone.
var monoAnchor = struct {
	at   time.Time
	mono int64
}{time.Now(), monoNow()}

// monoAt is t on CLOCK_MONOTONIC, in nanoseconds; t must carry a
// monotonic reading (a time.Now, or one derived from it by Add).
func monoAt(t time.Time) int64 {
	return monoAnchor.mono + int64(t.Sub(monoAnchor.at))
}

// wallSteps starts watching the wall clock against CLOCK_MONOTONIC; the
// function it returns tells how far the wall clock has been stepped since.
func wallSteps() func() time.Duration {
	offset := func() int64 { return time.Now().UnixNano() - monoNow() }
	start := offset()
	return func() time.Duration {
		return time.Duration(offset() - start).Abs()
	}
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// p95 returns the 95th percentile of ds.
func p95(ds []time.Duration) time.Duration { return quantile(ds, 95) }

// quantile sorts ds and returns its p-th percentile (nearest rank).
func quantile(ds []time.Duration, p int) time.Duration {
	slices.Sort(ds)
	return ds[(len(ds)*p)/100]
}

// TestKernelStampsOnEveryTransport checks that events are stamped with the
// kernel's receive time on every transport while the client's CPU is
// busy: the error of each event's stamp against the server's own send
// time stays small (at the median without a packet capture, at p95 and at
// worst with one), with and without an onEvent callback, although the
// program reads the events late.
func TestKernelStampsOnEveryTransport(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kernel receive stamps are read on Linux")
	}
	cases := []struct {
		name, mode string
		opts       ClientOptions
		proto      string
		capture    bool // read by segment arrival from a packet capture
	}{
		{"reactor", "plain", ClientOptions{}, "HTTP/1.1", false},
		{"plain-nethttp", "plain", ClientOptions{NetHTTPOnly: true}, "HTTP/1.1", false},
		{"tls-http1", "tls", ClientOptions{InsecureSkipTLSVerify: true, DisableHTTP2: true}, "HTTP/1.1", false},
		{"h2", "h2", ClientOptions{InsecureSkipTLSVerify: true}, "HTTP/2.0", false},
		{"reactor-capture", "plain", ClientOptions{}, "HTTP/1.1", true},
		{"plain-nethttp-capture", "plain", ClientOptions{NetHTTPOnly: true}, "HTTP/1.1", true},
		{"tls-http1-capture", "tls", ClientOptions{InsecureSkipTLSVerify: true, DisableHTTP2: true}, "HTTP/1.1", true},
		{"h2-capture", "h2", ClientOptions{InsecureSkipTLSVerify: true}, "HTTP/2.0", true},
	}
	const streams, events = 2, 10
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := stampServer(t, tc.mode, events)
			if tc.capture {
				tc.opts.Capture = openCapture(t)
			}
			client := NewClient(tc.opts)
			var coalesced atomic.Int64
			stepped := wallSteps()
			stop := make(chan struct{})
			spin.Until(stop)
			var mu sync.Mutex
			var stamped, read []time.Duration
			var proto atomic.Value
			var wg sync.WaitGroup
			for i := range streams {
				wg.Add(1)
				go func() {
					defer wg.Done()
					time.Sleep(time.Duration(i) * 50 * time.Millisecond) // streams start 50 ms apart, so their events interleave on the wire
					var got []stampedEvent
					req := &Request{URL: url}
					shared := 0
					if i%2 == 0 { // half the streams run a callback
						req.OnEvent = func(ev *Event) error {
							before, prevAfter, ok := writeTimes(ev.Data)
							if !ok {
								return nil
							}
							if n := len(got); n > 0 {
								got[n-1].after = prevAfter
								got[n-1].coalesced = ev.SharedRead
							}
							shared += boolInt(ev.SharedRead)
							if before != 0 {
								got = append(got, stampedEvent{at: ev.At, read: time.Now(), before: before})
							}
							return nil
						}
					}
					res := client.Do(context.Background(), req)
					if res.Failed() || res.Timings.FirstText == nil {
						t.Errorf("%s: %s", res.ErrorCode, res.Error)
						return
					}
					proto.Store(res.Proto)
					if i%2 == 0 && res.CoalescedEvents != shared {
						t.Errorf("coalesced_events %d, %d events shared a read", res.CoalescedEvents, shared)
					}
					if res.ReadLag == nil {
						t.Errorf("no read lag")
					}
					if i%2 == 1 && res.CoalescedEvents == 0 { // else the first event may carry a later read's stamp
						parts := strings.Split(res.Text, ";")
						before, _, _ := writeTimes(parts[0])
						_, after, _ := writeTimes(parts[1])
						got = append(got, stampedEvent{at: time.Duration(*res.Timings.FirstText * float64(time.Millisecond)),
							before: before, after: after})
					}
					mu.Lock()
					defer mu.Unlock()
					for _, g := range got {
						if g.coalesced {
							coalesced.Add(1)
						}
						if g.coalesced || g.after == 0 {
							continue // stamped with a later read: marked as such
						}
						stamped = append(stamped, lateness(res.Sent.Add(g.at), g.before, g.after))
						if !g.read.IsZero() {
							read = append(read, lateness(g.read, g.before, g.after))
						}
					}
				}()
			}
			wg.Wait()
			close(stop)
			if len(stamped) < events/2 {
				t.Fatalf("%d stamps", len(stamped))
			}
			// Read-time stamps are 40-170 ms late here. Without a capture
			// a read that holds a record and the start of the next stamps
			// the first with the later segment, unmarked, as late as the
			// next event (50 ms): with a dozen stamps two such reads make
			// the p95, so without a capture the median is compared (a
			// probe stamping at read time moves it by tens of ms), with a
			// capture the p95 (and the worst, below). The bound is what
			// the socket's stamps must beat: 20 ms, or half the read-time
			// error when the run is that slow.
			q, what := 95, "p95"
			if !tc.capture {
				q, what = 50, "median"
			}
			pe, pr := quantile(stamped, q), quantile(read, q)
			t.Logf("%s: stamp error %s %v max %v; read-time error %s %v (n=%d)", tc.name, what, pe, slices.Max(stamped), what, pr, len(stamped))
			if pe > 20*time.Millisecond && pe > pr/2 {
				t.Errorf("stamp error %s %v, want < 20ms or half the read-time error %s %v", what, pe, what, pr)
			}
			// The kernel stamps on the wall clock and the probe places the
			// stamp on the monotonic clock when it reads: a wall-clock step
			// in between moves the stamp by the step.
			if step := stepped(); slices.Min(stamped) < -time.Millisecond-step {
				t.Errorf("an event stamped %v before it was sent (the wall clock stepped %v)", slices.Min(stamped), step)
			}
			if p := proto.Load(); p != tc.proto {
				t.Errorf("proto %v, want %s", p, tc.proto)
			}
			if tc.capture {
				// Each event has its own segment's arrival: none shares a
				// stamp, and even the worst is close to its send. (An HTTP/2
				// server's writer may put two events' frames in one segment:
				// those did arrive together.)
				if n := coalesced.Load(); n > 0 && tc.mode != "h2" {
					t.Errorf("%d events shared a stamp with the next under the capture", n)
				}
				if m := slices.Max(stamped); m > 5*time.Millisecond {
					t.Errorf("stamp error max %v under the capture, want < 5ms", m)
				}
			}
		})
	}
}

// openCapture opens a packet capture for a test; without CAP_NET_RAW (not
// root) the test is skipped with the reason, as root it must open.
func openCapture(t *testing.T) *pktcap.Capture {
	t.Helper()
	c, err := pktcap.Open()
	if errors.Is(err, pktcap.ErrNotPermitted) && os.Geteuid() != 0 {
		t.Skip("a packet capture needs CAP_NET_RAW (run as root)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestStampConnSplitsLateReads: with a capture, a read that finds a
// response's headers and its first event waiting (sent 50 ms apart) hands
// them out in two Reads, each stamped with its own arrival, where the
// socket alone stamps both with the event's.
func TestStampConnSplitsLateReads(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("packet captures are Linux's")
	}
	capture := openCapture(t)
	parts := []string{"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n", "data: first\n\n"}
	writes := make(chan [][2]time.Time, 1) // before and after each part's write
	url, _ := rawServerConns(t, func(_ int, c net.Conn, r *bufio.Reader) {
		if _, err := r.ReadString('\n'); err != nil { // the request
			writes <- nil
			return
		}
		var at [][2]time.Time
		for i, p := range parts {
			if i > 0 {
				time.Sleep(50 * time.Millisecond) // the pace under test: the event 50 ms after the headers
			}
			before := time.Now()
			if _, err := io.WriteString(c, p); err != nil {
				break
			}
			at = append(at, [2]time.Time{before, time.Now()})
		}
		writes <- at
		_, _ = io.Copy(io.Discard, c)
	})
	nc, err := stampDialer{dial: (&net.Dialer{}).DialContext, capture: capture}.DialContext(context.Background(), "tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	sc := nc.(*stampConn)
	if _, err := io.WriteString(sc, "GET / HTTP/1.1\r\n"); err != nil {
		t.Fatal(err)
	}
	sent := <-writes // both were written: the reads below are late for the headers
	if len(sent) != 2 {
		t.Fatal("the server failed")
	}
	buf := make([]byte, 256)
	var stamps []time.Time
	for i, p := range parts {
		n, err := sc.Read(buf)
		if err != nil || string(buf[:n]) != p {
			t.Fatalf("read %d: %q, %v; want %q", i, buf[:n], err, p)
		}
		stamps = append(stamps, sc.at())
	}
	// A segment passes the device during its write or, when the kernel
	// defers it on a busy machine, later; never before (0.5 ms for placing
	// the kernel's wall-clock stamp on the monotonic clock). The headers'
	// stamp lies before the event was even written: the socket alone
	// would have given them the event's.
	for i, at := range stamps {
		if at.Before(sent[i][0].Add(-500 * time.Microsecond)) {
			t.Errorf("part %d stamped %v before its write began", i, sent[i][0].Sub(at))
		}
	}
	if !stamps[0].Before(sent[1][0]) {
		t.Errorf("the headers were stamped %v after the event's write began", stamps[0].Sub(sent[1][0]))
	}
}

// splitWriter writes each write in two halves, pause apart, recording
// when the second half began: a TLS record then spans two TCP segments.
type splitWriter struct {
	net.Conn
	pause  time.Duration
	halves []time.Time
}

// Write implements net.Conn.
func (w *splitWriter) Write(p []byte) (int, error) {
	if len(p) < 2 || w.pause == 0 {
		return w.Conn.Write(p)
	}
	n, err := w.Conn.Write(p[:len(p)/2])
	if err != nil {
		return n, err
	}
	time.Sleep(w.pause) // the pace under test: the record's second half later
	w.halves = append(w.halves, time.Now())
	m, err := w.Conn.Write(p[len(p)/2:])
	return n + m, err
}

// TestStampConnTLSRecordAcrossSegments: a TLS record whose halves left 20
// ms apart, followed 40 ms later by another record, all read late: the
// first record's bytes carry the arrival of its second half (the segment
// that completed it), not of its first half nor of the next record.
func TestStampConnTLSRecordAcrossSegments(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("packet captures are Linux's")
	}
	capture := openCapture(t)
	srv := httptest.NewUnstartedServer(nil) // only for its certificate
	srv.StartTLS()
	cert := srv.TLS.Certificates
	srv.Close()
	writes := make(chan []time.Time, 1)
	url, _ := rawServerConns(t, func(_ int, c net.Conn, _ *bufio.Reader) {
		sw := &splitWriter{Conn: c}
		tc := tls.Server(sw, &tls.Config{Certificates: cert})
		if err := tc.Handshake(); err != nil {
			writes <- nil
			return
		}
		sw.pause = 20 * time.Millisecond
		_, _ = io.WriteString(tc, "data: first\n\n")
		sw.pause = 0
		time.Sleep(40 * time.Millisecond) // the pace under test: the next record 40 ms later
		next := time.Now()
		_, _ = io.WriteString(tc, "data: second\n\n")
		writes <- append(sw.halves, next)
		_, _ = io.Copy(io.Discard, tc)
	})
	nc, err := stampDialer{dial: (&net.Dialer{}).DialContext, capture: capture}.DialContext(context.Background(), "tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	sc := nc.(*stampConn)
	tc := tls.Client(sc, &tls.Config{InsecureSkipVerify: true})
	if err := tc.Handshake(); err != nil {
		t.Fatal(err)
	}
	sent := <-writes // both records were written: the reads below are late
	if len(sent) != 2 {
		t.Fatal("the server failed")
	}
	buf := make([]byte, 256)
	for i, want := range []string{"data: first\n\n", "data: second\n\n"} {
		n, err := tc.Read(buf)
		if err != nil || string(buf[:n]) != want {
			t.Fatalf("read %d: %q, %v", i, buf[:n], err)
		}
		at := sc.at()
		// Its last segment passed during or after the write that sent it,
		// and the first record's before the second record was written.
		if at.Before(sent[i].Add(-500 * time.Microsecond)) {
			t.Errorf("record %d stamped %v before its last part was written", i, sent[i].Sub(at))
		}
		if i == 0 && !at.Before(sent[1]) {
			t.Errorf("the first record was stamped %v after the next one was written", at.Sub(sent[1]))
		}
	}
}
