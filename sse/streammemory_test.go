package sse

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// streamMemoryFactor is the documented bound of a stream's peak memory
// (resident, garbage included) relative to its maxResponseSize: the text
// is held once while it streams, and twice for a moment when it is joined
// into Result.Text, and Go's collector lets the heap grow past what is
// live (docs/probe.md, "Limits and redirects": about 2.5×, at most 3×).
const streamMemoryFactor = 3.0

// TestEndlessStreamPeakMemory streams 1 and 4 endless event streams at
// once, each cut at a 32 MiB maxResponseSize, in a child process, and
// checks that its peak resident memory grew by at most
// streamMemoryFactor × maxResponseSize per stream (measured 2.3–2.6×; a
// growing strings.Builder for the text took 2.9–4.3×).
func TestEndlessStreamPeakMemory(t *testing.T) {
	if os.Getenv("SSE_MEMORY_CHILD") != "" {
		endlessStreamsChild()
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("peak memory is read from /proc/self/status")
	}
	if raceEnabled {
		t.Skip("the race detector multiplies memory; make test measures this bound without it")
	}
	const limit = 32 << 20
	url := endlessServer(t)
	for _, n := range []int{1, 4} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", "^TestEndlessStreamPeakMemory$")
			cmd.Env = append(os.Environ(), "SSE_MEMORY_CHILD="+url, "SSE_MEMORY_STREAMS="+strconv.Itoa(n), "SSE_MEMORY_LIMIT="+strconv.Itoa(limit))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			var before, peak int64
			if _, err := fmt.Sscanf(lastLine(string(out), "peak "), "peak %d %d", &before, &peak); err != nil {
				t.Fatalf("child output: %v\n%s", err, out)
			}
			per := float64(peak-before) / float64(n) / limit
			t.Logf("%d streams at maxResponseSize 32 MiB: peak RSS %d MiB → %d MiB, %.2f× maxResponseSize per stream", n, before>>20, peak>>20, per)
			if per > streamMemoryFactor {
				t.Errorf("a stream's peak memory is %.2f× its maxResponseSize, above the documented %.1f×", per, streamMemoryFactor)
			}
		})
	}
}

// endlessStreamsChild runs the streams of the parent test and prints its
// peak resident memory before and after them.
func endlessStreamsChild() {
	n, _ := strconv.Atoi(os.Getenv("SSE_MEMORY_STREAMS"))
	limit, _ := strconv.Atoi(os.Getenv("SSE_MEMORY_LIMIT"))
	c := NewClient(ClientOptions{})
	before := peakRSS()
	var wg sync.WaitGroup
	results := make([]*Result, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = c.Do(context.Background(), &Request{URL: os.Getenv("SSE_MEMORY_CHILD"), Dialect: DialectRaw, MaxResponseSize: int64(limit)})
		}()
	}
	wg.Wait()
	for _, r := range results {
		if r.ErrorCode != CodeTooLarge || r.Text == "" {
			fmt.Printf("a stream ended with %s %q\n", r.ErrorCode, r.Error)
			os.Exit(1)
		}
	}
	fmt.Printf("peak %d %d\n", before, peakRSS())
	runtime.KeepAlive(results)
}

// peakRSS returns the process's peak resident memory (VmHWM), in bytes.
func peakRSS() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(lastLine(string(b), "VmHWM:")[len("VmHWM:"):]), "kB")), 10, 64)
	return kb << 10
}

// lastLine returns the last line of s that starts with prefix, or "".
func lastLine(s, prefix string) string {
	found := ""
	for line := range strings.SplitSeq(s, "\n") {
		if strings.HasPrefix(line, prefix) {
			found = line
		}
	}
	return found
}

// endlessServer serves an endless event stream of 1 KiB events to every
// request, until the client goes away.
func endlessServer(t *testing.T) string {
	chunk := []byte(strings.Repeat("data: "+strings.Repeat("x", 1016)+"\n\n", 64))
	url, _ := rawServerConns(t, func(_ int, c net.Conn, r *bufio.Reader) {
		if _, err := http.ReadRequest(r); err != nil {
			return
		}
		if _, err := c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")); err != nil {
			return
		}
		for {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	})
	return url + "/"
}
