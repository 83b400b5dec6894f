// Command sseserver is the SSE server of the streaming load benchmark
// (bench/streams.js, bench/run.sh): every request gets a business-dialect
// stream of about 20 events over about 1 s plus a heartbeat comment, and
// every event carries the server's own send time, so a script can compare
// the probe's timings with the server's ground truth.
//
//	go run ./bench/sseserver -addr 127.0.0.1:0
//
// prints the server's URL on the first line of stdout and serves until
// SIGINT or SIGTERM; then it prints its counters on stderr.
//
// The stream of one request (any method, any path; times from the moment
// the handler started, i.e. the request arrived):
//
//	0 ms            headers and ": ping" (a heartbeat comment)
//	1 × interval    {"delta": " ", "server_ms": …, "business_state": {"status": "thinking"}}
//	2 × interval    {"delta": "Sure, ", "server_ms": …}            first visible text
//	…               {"delta": "word ", "server_ms": …} with decision, reason and
//	                next_step appearing in business_state along the way
//	events×interval {"delta": "", "server_ms": …, "business_state": {"first_text_ms": …, "useful_ms": …, "headers_ms": …, "kernel_headers_ms": …}, "done": true}
//
// server_ms is float milliseconds since the request arrived, on the
// monotonic clock, read just before the event is written (one write
// system call per event: the event is flushed at once). first_text_ms is
// the server_ms of the first event with non-whitespace text, useful_ms
// that of the event that completes decision, reason and next_step (the
// business dialect's default useful predicate). The probe's
// first_text minus first_text_ms is therefore the probe's error: request
// transit plus response transit and parsing, on loopback. headers_ms is
// when the headers and the heartbeat were flushed: the probe's (first_text
// − headers) minus (first_text_ms − headers_ms) leaves the request's way
// in, and the server's delay in starting the handler, out of the error.
//
// request_lag_ms (Linux; absent when the kernel gave no stamp) is how late
// the handler started after the kernel received the request (the read
// that completed its head, on TLS the record that did): a busy server's
// own delay, which adds to every time it reports. Add it to server_ms,
// headers_ms, first_text_ms and useful_ms to count them from the request's
// arrival.
//
// kernel_headers_ms (plain HTTP on Linux only; absent when the kernel gave
// no stamp) is the kernel's send time of the write that flushed the
// headers and the heartbeat minus the kernel's receive time of the read
// that completed the request head (SO_TIMESTAMPING transmit stamp and
// SO_TIMESTAMPNS receive stamp, stampconn.go): the server's whole turn,
// its scheduling delays included. The probe's headers (from its t0 to the
// kernel receive time of the headers) minus kernel_headers_ms is then how
// long before the request left the client the probe's t0 lies, plus two
// loopback transits: the send-side error of t0 (bench/busy.js, t0_error).
//
// Efficiency: the streams' events are sent by scheduler goroutines (one by
// default), each sleeping on one timer until its earliest due event
// and then writing every event that is due — not by one goroutine and one
// timer wake-up per event. An event is formatted into the stream's own
// buffer with strconv (no allocation per event) and written with one
// write system call. No busy loop. Handlers only write the headers and
// the heartbeat and wait for their stream's end. The server runs on one
// CPU (GOMAXPROCS 1, -procs): on a 2-vCPU VM, where every thread wake-up is
// an expensive context switch, that took its CPU per 1,000 streams from
// ~0.7 to ~0.43 CPU-seconds at 500 streams/s (mostly kernel time of the
// loopback TCP writes, which also do the receiving side's TCP work).
package main

import (
	"container/heap"
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	events := flag.Int("events", 20, "data events per stream (the last one ends it)")
	interval := flag.Duration("interval", 50*time.Millisecond, "time between events")
	procs := flag.Int("procs", 1, "GOMAXPROCS of the server: 1 costs it ~40 % less CPU on a 2-core VM than 2 (fewer thread wake-ups)")
	shards := flag.Int("shards", 1, "scheduler goroutines sending the events")
	gcPercent := flag.Int("gc", 400, "GOGC of the server (it allocates little; a high value keeps GC off the CPU)")
	tlsMode := flag.String("tls", "", "serve TLS with a self-signed certificate: h1 (HTTP/1.1 only) or h2 (HTTP/2 through ALPN); plain HTTP when empty")
	flag.Parse()
	if *events < 5 || *interval <= 0 || *shards < 1 || *procs < 1 {
		fmt.Fprintln(os.Stderr, "sseserver: want -events >= 5, -interval > 0, -shards >= 1, -procs >= 1")
		os.Exit(2)
	}
	runtime.GOMAXPROCS(*procs)
	debug.SetGCPercent(*gcPercent)

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sseserver:", err)
		os.Exit(1)
	}
	s := newServer(*events, *interval, *shards)
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	scheme := "http"
	if *tlsMode != "" {
		if err := serveTLS(srv, *tlsMode); err != nil {
			fmt.Fprintln(os.Stderr, "sseserver:", err)
			os.Exit(2)
		}
		scheme, ln = "https", tls.NewListener(listenStamped(ln), srv.TLSConfig)
		srv.ConnContext = connContext
	}
	if *tlsMode == "" {
		ln, srv.ConnContext = listenStamped(ln), connContext
	}
	fmt.Printf("%s://%s\n", scheme, ln.Addr())
	_ = os.Stdout.Sync()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-sig
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "sseserver:", err)
		os.Exit(1)
	}
	s.report(os.Stderr)
}

// server hands every stream to a scheduler shard and counts what it did.
type server struct {
	events   int
	interval time.Duration
	base     time.Time // zero of the shards' clock (monotonic)
	shards   []*shard
	next     atomic.Uint64 // round-robin over the shards

	streams, completed, aborted atomic.Int64
	sent                        atomic.Int64
	kernelStamped               atomic.Int64 // streams with kernel_headers_ms
	late1ms, late10ms           atomic.Int64 // events written later than due by > 1 ms, > 10 ms
	maxLateUS                   atomic.Int64
}

func newServer(events int, interval time.Duration, shards int) *server {
	s := &server{events: events, interval: interval, base: time.Now()}
	for range shards {
		sh := &shard{s: s, wake: make(chan struct{}, 1)}
		s.shards = append(s.shards, sh)
		go sh.run()
	}
	return s
}

// report prints the counters: late events mean the server itself could not
// keep its schedule (then it, not the probe, may be the bottleneck; the
// probe's error is still measured against the real send times).
func (s *server) report(w io.Writer) {
	fmt.Fprintf(w, "sseserver: streams %d (completed %d, aborted %d, kernel-stamped %d), events %d, late >1ms %d, >10ms %d, max late %.3f ms\n",
		s.streams.Load(), s.completed.Load(), s.aborted.Load(), s.kernelStamped.Load(), s.sent.Load(),
		s.late1ms.Load(), s.late10ms.Load(), float64(s.maxLateUS.Load())/1000)
}

// stream is one response in progress.
type stream struct {
	w    http.ResponseWriter
	fl   interface{ FlushError() error }
	gone <-chan struct{} // the request's context: the client went away
	done chan struct{}   // closed by the shard when the stream ended

	t0        time.Time     // request arrival
	start     time.Duration // t0 on the shards' clock (since server.base)
	due       time.Duration // due time of event i, since t0
	i         int           // next event, 1-based
	firstText float64       // server_ms of the first visible text
	useful    float64       // server_ms of the event completing decision, reason and next_step
	headers   float64       // server_ms of the flush of the headers and heartbeat
	kernel    float64       // kernel_headers_ms; negative when unknown
	lag       float64       // request_lag_ms; negative when unknown
	buf       []byte
}

// dueAt is the stream's next due time on the shards' clock.
func (st *stream) dueAt() time.Duration { return st.start + st.due }

// ServeHTTP writes the headers and the heartbeat, then lets a shard send
// the events and waits for the end of the stream.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t0 := time.Now()
	s.streams.Add(1)
	sc := requestConn(r.Context())
	var rx int64
	if sc != nil {
		rx = sc.requestRX() // the read that completed the request head
	}
	fl, ok := w.(interface{ FlushError() error })
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	// The request body is tiny; read it so the connection stays reusable.
	_, _ = io.Copy(io.Discard, r.Body)

	lag := -1.0 // request_lag_ms: the handler's start after the request's arrival
	if rx != 0 {
		lag = float64(t0.Sub(sockstamp.At(time.Now(), rx))) / float64(time.Millisecond)
	}
	stampTX := rx != 0 && r.TLS == nil && sc.beginTX()
	h := w.Header()
	h["Content-Type"] = []string{"text/event-stream"}
	h["Cache-Control"] = []string{"no-cache"}
	w.WriteHeader(http.StatusOK)
	_, err := io.WriteString(w, ": ping\n\n")
	if err == nil {
		err = fl.FlushError()
	}
	kernel := -1.0
	if stampTX {
		if tx := sc.endTX(); tx != 0 && err == nil {
			kernel = float64(tx-rx) / float64(time.Millisecond)
			s.kernelStamped.Add(1)
		}
	}
	if err != nil {
		s.aborted.Add(1)
		return
	}
	headers := float64(time.Since(t0)) / float64(time.Millisecond)
	bp := bufPool.Get().(*[]byte)
	st := &stream{
		w: w, fl: fl, gone: r.Context().Done(), done: make(chan struct{}),
		t0: t0, start: t0.Sub(s.base), due: s.interval, i: 1, buf: *bp, headers: headers, kernel: kernel, lag: lag,
	}
	s.shards[s.next.Add(1)%uint64(len(s.shards))].add(st)
	<-st.done // the shard no longer touches w
	*bp = st.buf
	bufPool.Put(bp)
}

// bufPool holds the per-stream event buffers.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// words are the visible text of the events after the first text.
var words = []string{"your ", "order ", "can ", "be ", "returned ", "within ", "thirty ", "days ", "of ", "delivery; "}

// send writes the stream's next event; it reports whether more follow.
func (s *server) send(st *stream) bool {
	select {
	case <-st.gone:
		s.aborted.Add(1)
		return false
	default:
	}
	i := st.i
	at := time.Since(st.t0)
	s.late(at - st.due)
	ms := float64(at) / float64(time.Millisecond)
	b := st.buf[:0]
	b = append(b, `data: {"delta": "`...)
	switch {
	case i == 1:
		b = append(b, ` "`...)
	case i == 2:
		b = append(b, `Sure, "`...)
		st.firstText = ms
	case i < s.events:
		b = append(b, words[(i-3)%len(words)]...)
		b = append(b, '"')
	default:
		b = append(b, '"')
	}
	b = append(b, `, "server_ms": `...)
	b = strconv.AppendFloat(b, ms, 'f', 3, 64)
	switch {
	case i == 1:
		b = append(b, `, "business_state": {"status": "thinking"}`...)
	case i == s.events:
		b = append(b, `, "business_state": {"status": "done", "first_text_ms": `...)
		b = strconv.AppendFloat(b, st.firstText, 'f', 3, 64)
		b = append(b, `, "useful_ms": `...)
		b = strconv.AppendFloat(b, st.useful, 'f', 3, 64)
		b = append(b, `, "headers_ms": `...)
		b = strconv.AppendFloat(b, st.headers, 'f', 3, 64)
		if st.kernel >= 0 {
			b = append(b, `, "kernel_headers_ms": `...)
			b = strconv.AppendFloat(b, st.kernel, 'f', 3, 64)
		}
		if st.lag >= 0 {
			b = append(b, `, "request_lag_ms": `...)
			b = strconv.AppendFloat(b, st.lag, 'f', 3, 64)
		}
		b = append(b, `}, "done": true`...)
	case i == s.events*2/5:
		b = append(b, `, "business_state": {"decision": "refund"}`...)
	case i == s.events*3/5:
		b = append(b, `, "business_state": {"reason": "damaged on arrival"}`...)
	case i == s.events*4/5:
		b = append(b, `, "business_state": {"next_step": "print the return label"}`...)
		st.useful = ms
	}
	b = append(b, "}\n\n"...)
	st.buf = b
	if _, err := st.w.Write(b); err != nil || st.fl.FlushError() != nil {
		s.aborted.Add(1)
		return false
	}
	s.sent.Add(1)
	if i == s.events {
		s.completed.Add(1)
		return false
	}
	st.i++
	st.due = time.Duration(st.i) * s.interval
	return true
}

// late counts an event written after its due time.
func (s *server) late(d time.Duration) {
	if d <= time.Millisecond {
		return
	}
	s.late1ms.Add(1)
	if d > 10*time.Millisecond {
		s.late10ms.Add(1)
	}
	us := d.Microseconds()
	for {
		cur := s.maxLateUS.Load()
		if us <= cur || s.maxLateUS.CompareAndSwap(cur, us) {
			return
		}
	}
}

// shard sends the events of its streams in due order from one goroutine.
type shard struct {
	s    *server
	mu   sync.Mutex
	h    streamHeap
	wake chan struct{} // a stream became the earliest
}

// add schedules a new stream.
func (sh *shard) add(st *stream) {
	sh.mu.Lock()
	heap.Push(&sh.h, st)
	first := sh.h[0] == st
	sh.mu.Unlock()
	if first {
		select {
		case sh.wake <- struct{}{}:
		default:
		}
	}
}

// run sleeps until the earliest due event, then sends every due event.
func (sh *shard) run() {
	timer := time.NewTimer(time.Hour)
	var due []*stream
	for {
		sh.mu.Lock()
		now := time.Since(sh.s.base)
		for len(sh.h) > 0 && sh.h[0].dueAt() <= now {
			due = append(due, heap.Pop(&sh.h).(*stream))
		}
		sh.mu.Unlock()
		n := 0
		for _, st := range due {
			if sh.s.send(st) {
				due[n] = st
				n++
			} else {
				close(st.done)
			}
		}
		sh.mu.Lock()
		for _, st := range due[:n] {
			heap.Push(&sh.h, st)
		}
		clear(due)
		due = due[:0]
		wait := time.Hour
		if len(sh.h) > 0 {
			wait = sh.h[0].dueAt() - time.Since(sh.s.base)
		}
		sh.mu.Unlock()
		if wait <= 0 {
			continue
		}
		timer.Reset(wait)
		select {
		case <-timer.C:
		case <-sh.wake:
		}
	}
}

// streamHeap orders streams by the absolute time of their next event.
type streamHeap []*stream

func (h streamHeap) Len() int           { return len(h) }
func (h streamHeap) Less(i, j int) bool { return h[i].dueAt() < h[j].dueAt() }
func (h streamHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *streamHeap) Push(x any)        { *h = append(*h, x.(*stream)) }
func (h *streamHeap) Pop() any {
	old := *h
	st := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return st
}
