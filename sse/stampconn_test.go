package sse

import (
	"bufio"
	"context"
	"fmt"
	"io"
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
)

// stampServerEnv makes the test binary a stamp server (TestStampServer).
const stampServerEnv = "USEFULSSE_STAMP_SERVER"

// TestStampServer is not a test: run by stampServer in a process of its
// own, so the client's busy CPU does not delay it, it serves events that
// carry the wall-clock time they were written, in Unix nanoseconds,
// until its standard input closes. USEFULSSE_STAMP_SERVER is "plain",
// "tls" or "h2".
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
		for range events {
			time.Sleep(100 * time.Millisecond)
			fmt.Fprintf(w, "data: %d;\n\n", time.Now().UnixNano())
			w.(http.Flusher).Flush()
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

// stampedEvent is an event's stamp and its server's send time.
type stampedEvent struct {
	at, sent  time.Duration
	coalesced bool // the next event came in the same read
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// busy keeps every core busy with spinning goroutines until stop closes.
func busy(stop <-chan struct{}) {
	for range 2 * runtime.GOMAXPROCS(0) {
		go func() {
			x := 0
			for {
				select {
				case <-stop:
					return
				default:
				}
				for i := range 100000 {
					x += i
				}
			}
		}()
	}
}

// p95 returns the 95th percentile of ds.
func p95(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[(len(ds)*95)/100]
}

// TestKernelStampsOnEveryTransport checks that events are stamped with the
// kernel's receive time on every transport while the client's CPU is
// busy: the error of each event's stamp against the server's own send
// time stays small at p95, with and without an onEvent callback, although
// the program reads the events late.
func TestKernelStampsOnEveryTransport(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kernel receive stamps are read on Linux")
	}
	cases := []struct {
		name, mode string
		opts       ClientOptions
		proto      string
	}{
		{"reactor", "plain", ClientOptions{}, "HTTP/1.1"},
		{"plain-nethttp", "plain", ClientOptions{NetHTTPOnly: true}, "HTTP/1.1"},
		{"tls-http1", "tls", ClientOptions{InsecureSkipTLSVerify: true, DisableHTTP2: true}, "HTTP/1.1"},
		{"h2", "h2", ClientOptions{InsecureSkipTLSVerify: true}, "HTTP/2.0"},
	}
	const streams, events = 2, 10
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := stampServer(t, tc.mode, events)
			client := NewClient(tc.opts)
			stop := make(chan struct{})
			if os.Getenv("NOBUSY") == "" {
				busy(stop)
			}
			var mu sync.Mutex
			var stamped, read []time.Duration
			var proto atomic.Value
			var wg sync.WaitGroup
			for i := range streams {
				wg.Add(1)
				go func() {
					defer wg.Done()
					time.Sleep(time.Duration(i) * 50 * time.Millisecond) // out of phase
					var got []stampedEvent
					req := &Request{URL: url}
					shared := 0
					if i%2 == 0 { // half the streams run a callback
						req.OnEvent = func(ev *Event) error {
							if ns, err := strconv.ParseInt(strings.TrimSuffix(ev.Data, ";"), 10, 64); err == nil {
								got = append(got, stampedEvent{ev.At, time.Duration(ns), false})
								shared += boolInt(ev.SharedRead)
								if ev.SharedRead {
									got[len(got)-2].coalesced = true
								}
								mu.Lock()
								read = append(read, time.Since(time.Unix(0, ns)))
								mu.Unlock()
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
					first, _ := strconv.ParseInt(strings.Split(res.Text, ";")[0], 10, 64)
					firstText := time.Duration(*res.Timings.FirstText * float64(time.Millisecond))
					mu.Lock()
					defer mu.Unlock()
					if res.CoalescedEvents == 0 { // else the first event may carry a later read's stamp
						stamped = append(stamped, res.Sent.Add(firstText).Round(0).Sub(time.Unix(0, first)))
					}
					if i%2 == 0 && res.CoalescedEvents != shared {
						t.Errorf("coalesced_events %d, %d events shared a read", res.CoalescedEvents, shared)
					}
					if res.ReadLag == nil {
						t.Errorf("no read lag")
					}
					for _, g := range got {
						if g.coalesced {
							continue // stamped with a later read: marked as such
						}
						stamped = append(stamped, res.Sent.Add(g.at).Round(0).Sub(time.Unix(0, int64(g.sent))))
					}
				}()
			}
			wg.Wait()
			close(stop)
			if len(stamped) < streams*events/2 {
				t.Fatalf("%d stamps", len(stamped))
			}
			pe, pr := p95(stamped), p95(read)
			t.Logf("%s: stamp error p95 %v max %v; read-time error p95 %v (n=%d)", tc.name, pe, slices.Max(stamped), pr, len(stamped))
			// The bound leaves room for the server, in a process of its own
			// on the same 2 loaded cores, being late to write after taking
			// its send time; read-time stamps are 60-170 ms late here.
			if pe > 40*time.Millisecond {
				t.Errorf("stamp error p95 %v, want < 40ms (read-time error p95 %v)", pe, pr)
			}
			if slices.Min(stamped) < -time.Millisecond {
				t.Errorf("an event stamped %v before it was sent", slices.Min(stamped))
			}
			if p := proto.Load(); p != tc.proto {
				t.Errorf("proto %v, want %s", p, tc.proto)
			}
		})
	}
}
