//go:build linux && !race

package usefulsse

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// openStreamBytes is the memory one more open usefulsse.post stream holds
// (live heap and goroutine stacks: its VU at work, the connection, the
// parser and the stream's state), measured by TestOpenStreamMemory on
// 2026-12-04: 33.0-36.9 KB in 5 runs, of which 16.5-17.6 KB are stacks,
// since the reactor pushes a stream's bytes to its parser (41.0-45.2 KB
// before, with a coroutine and a reader chain per stream). The test fails
// when a stream grows by more than 20 % over it; lower it when a change
// makes streams smaller. (Measured with settled collections, liveMemory,
// from the fourth session on: 31.3-32.3 KB in 5 runs.)
const openStreamBytes = 36_000

// openStreams is how many streams TestOpenStreamMemory holds open at once.
const openStreams = 400

// TestOpenStreamMemory opens openStreams usefulsse.post streams from as
// many VUs against a server in a child process (so that its memory is not
// counted), each held open after its first event, and checks the live
// heap and stacks they add against openStreamBytes + 20 %. The streams
// are measured once the server sent every first event and the runner's
// sockets hold no unread byte (/proc/net/tcp): each stream has read and
// parsed its event and waits for the next. make bench runs it first, with
// js's TestIdleVUMemory. With OPEN_STREAM_HEAP_PROFILE=file it writes a
// heap profile of the open streams, every allocation sampled (go tool
// pprof -sample_index=inuse_space file).
func TestOpenStreamMemory(t *testing.T) {
	if os.Getenv("OPEN_STREAM_SERVER") != "" {
		heldStreamServer()
		return
	}
	registerOnce.Do(func() { modules.Register(Name, New()) })
	srv := startHeldStreams(t)
	b := jstest.NewBundle(t, `import usefulsse from 'k6/x/usefulsse';
export default function () {
  usefulsse.post(__ENV.URL, { question: 'Can I return my order?' }, { dialect: 'business', tags: { bucket: 'qa' } });
}
`)
	run := jstest.NewRun(&bytes.Buffer{})
	run.Env["URL"] = srv.url
	run.Engine.Subscribe(func([]metrics.Sample) {})
	defer run.End()
	vus := make([]*js.VU, openStreams)
	for i := range vus {
		var err error
		if vus[i], err = b.NewVU(context.Background(), int64(i+1), run); err != nil {
			t.Fatal(err)
		}
	}
	// One stream first: what every stream shares (the client, its pools,
	// the reactor) is built before the measure starts.
	iterate := func(vu *js.VU, wg *sync.WaitGroup) {
		defer wg.Done()
		if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default", Tags: metrics.Tags{"scenario": "default"}}); err != nil {
			t.Error(err)
		}
	}
	var warm sync.WaitGroup
	warm.Add(1)
	go iterate(vus[0], &warm)
	srv.waitOpen(t, 1)
	profile := os.Getenv("OPEN_STREAM_HEAP_PROFILE")
	if profile != "" {
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 1
	}
	before, beforeStack := liveMemory()
	var wg sync.WaitGroup
	for _, vu := range vus[1:] {
		wg.Add(1)
		go iterate(vu, &wg)
	}
	srv.waitOpen(t, openStreams-1)
	eventually.True(t, "every stream read its first event", func() bool { return unreadSockets(t, srv.port) == 0 })
	after, afterStack := liveMemory()
	perStream := (float64(after) - float64(before)) / (openStreams - 1)
	stack := (float64(afterStack) - float64(beforeStack)) / (openStreams - 1)
	if profile != "" {
		jstest.WriteHeapProfile(t, profile)
	}
	srv.release()
	wg.Wait()
	warm.Wait()
	t.Logf("memory per open stream: %.0f bytes (%.1f KB; stacks %.1f KB), budget %.0f", perStream, perStream/1024, stack/1024, openStreamBytes*1.2)
	if perStream <= 0 {
		t.Errorf("memory per open stream %.0f bytes: the memory before the streams (%d bytes) held more than they added", perStream, before)
	}
	if perStream > openStreamBytes*1.2 {
		t.Errorf("an open stream holds %.0f bytes of heap and stack, more than %d + 20 %%: what does every stream keep now?", perStream, openStreamBytes)
	}
}

// liveMemory returns the bytes of live heap objects and of goroutine
// stacks, and of the stacks alone, once collections stop lowering them.
// One collection is not enough: it halves at most a stack that outgrew
// its use (the test's own, after initialising the VUs), and an object
// with a finalizer or cleanup is freed only by the collection after the
// one that found it unreachable; what one collection leaves can exceed
// what the streams add. So it collects at least four times, yielding
// between them to let finalizers run, goes on while the total falls, and
// returns the least total seen.
func liveMemory() (total, stacks uint64) {
	for i := range 10 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t := ms.HeapAlloc + ms.StackInuse
		switch {
		case i == 0 || t < total:
			total, stacks = t, ms.StackInuse
		case i >= 3:
			return total, stacks
		}
		runtime.Gosched()
	}
	return total, stacks
}

// heldStreams is the child process serving held streams.
type heldStreams struct {
	url    string
	port   int
	opened chan struct{}
	stdin  io.Closer
	cmd    *exec.Cmd
}

// startHeldStreams starts the test binary as heldStreamServer and reads
// its address; every stream it opens is reported on opened.
func startHeldStreams(t *testing.T) *heldStreams {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOpenStreamMemory$")
	cmd.Env = append(os.Environ(), "OPEN_STREAM_SERVER=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &heldStreams{opened: make(chan struct{}, openStreams), stdin: stdin, cmd: cmd}
	t.Cleanup(func() {
		s.release()
		_ = cmd.Wait()
	})
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		t.Fatal("the stream server printed no address")
	}
	s.url = "http://" + lines.Text() + "/chat"
	_, port, _ := strings.Cut(lines.Text(), ":")
	if s.port, err = strconv.Atoi(port); err != nil {
		t.Fatalf("the stream server's address %q", lines.Text())
	}
	go func() {
		for lines.Scan() {
			s.opened <- struct{}{}
		}
	}()
	return s
}

// waitOpen waits until the server has sent the first event of n streams
// in all.
func (s *heldStreams) waitOpen(t *testing.T, n int) {
	t.Helper()
	for ; n > 0; n-- {
		select {
		case <-s.opened:
		case <-time.After(eventually.Deadline):
			t.Fatalf("the stream server opened %d streams too few", n)
		}
	}
}

// release ends every held stream: the server ends them when its stdin
// closes.
func (s *heldStreams) release() { _ = s.stdin.Close() }

// unreadSockets returns the bytes the runner's sockets to port have
// received and not read (/proc/net/tcp's rx_queue of each connection whose
// remote port is port).
func unreadSockets(t *testing.T, port int) int {
	t.Helper()
	total := 0
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fields := strings.Fields(line)
			if len(fields) < 5 {
				continue
			}
			_, rem, _ := strings.Cut(fields[2], ":")
			if p, err := strconv.ParseInt(rem, 16, 32); err != nil || int(p) != port {
				continue
			}
			_, rx, _ := strings.Cut(fields[4], ":")
			n, err := strconv.ParseInt(rx, 16, 64)
			if err != nil {
				t.Fatalf("%s: %q", f, line)
			}
			total += int(n)
		}
	}
	return total
}

// heldStreamServer serves streams that send a heartbeat and one business
// event, report it on stdout, and stay open until stdin closes.
func heldStreamServer() {
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": keep-alive\n\ndata: {\"text\": \"Your order can be returned\", \"business_state\": {\"status\": \"thinking\"}}\n\n")
		http.NewResponseController(w).Flush()
		mu.Lock()
		fmt.Println("open")
		mu.Unlock()
		select {
		case <-done:
		case <-r.Context().Done():
		}
	})
	srv := &http.Server{Handler: h}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	go func() { _ = srv.Serve(ln) }()
	<-done
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	os.Exit(0)
}
