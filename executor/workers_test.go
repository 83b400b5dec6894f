package executor

import (
	"bytes"
	"runtime"
	"testing"
	"testing/synctest"
	"time"
)

// goroutineID returns the id of the calling goroutine, from its stack
// trace's first line.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	return string(bytes.Fields(buf)[1])
}

// bubbleGoroutines counts the goroutines in the calling goroutine's
// synctest bubble, from a trace of all goroutines; unlike
// runtime.NumGoroutine it does not count the test runner's or the race
// detector's goroutines, which come and go on their own.
func bubbleGoroutines(t *testing.T) int {
	buf := make([]byte, 1<<20)
	self := buf[:runtime.Stack(buf, false)]
	start, end := bytes.Index(self, []byte("synctest bubble ")), bytes.IndexByte(self, ']')
	if start < 0 || end < start {
		t.Fatalf("not in a synctest bubble: %q", bytes.SplitN(self, []byte("\n"), 2)[0])
	}
	bubble := append(bytes.Clone(self[start:end]), ']') // "synctest bubble N]"
	all := buf[:runtime.Stack(buf, true)]
	n := 0
	for _, line := range bytes.Split(all, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("goroutine ")) && bytes.Contains(line, bubble) {
			n++
		}
	}
	return n
}

// Iterations run one after the other reuse one worker goroutine (and its
// grown stack); an idle worker ends after workerIdle, and stop ends the
// rest at once.
func TestWorkersReuseGoroutines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorkers()
		ids := map[string]bool{}
		for range 20 {
			done := make(chan string)
			w.run(func() { done <- goroutineID() })
			ids[<-done] = true
			synctest.Wait() // the worker is back waiting for a job
		}
		if len(ids) != 1 {
			t.Fatalf("20 sequential iterations ran on %d goroutines, want 1", len(ids))
		}
		base := bubbleGoroutines(t)
		time.Sleep(workerIdle + time.Millisecond) // the fake clock passes the idle limit
		synctest.Wait()
		if n := bubbleGoroutines(t); n != base-1 {
			t.Fatalf("%d goroutines after the idle limit, want %d", n, base-1)
		}

		release := make(chan struct{})
		for range 3 { // three at once need three workers
			w.run(func() { <-release })
		}
		synctest.Wait()
		if n := bubbleGoroutines(t); n != base+2 {
			t.Fatalf("%d goroutines with three iterations running, want %d", n, base+2)
		}
		close(release)
		synctest.Wait()
		w.stop()
		synctest.Wait()
		if n := bubbleGoroutines(t); n != base-1 {
			t.Fatalf("%d goroutines after stop, want %d", n, base-1)
		}
	})
}
