package aggregate

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// TestAggregatorStalledPosts: 4,000 connections each send the headers of
// a 1 MiB post with the token and the first bytes of a real result, then
// stall (a third stall inside their headers). The server holds at most
// MaxConns of them (the others are closed at once), reads at most
// PostsInFlight bodies (the others get 503 with Retry-After), and ends
// every one within its read timeout; meanwhile its heap grows by a bounded
// amount, and afterwards a runner's post is taken. Before the limits, each
// stalled post held a 256 KiB decoder buffer, forever (1.1 GB for 4,000).
func TestAggregatorStalledPosts(t *testing.T) {
	// Not parallel: the heap of the process is measured.
	const swarm = 4000
	a := New(Config{Interval: time.Hour, Token: testToken, ReadTimeout: 3 * time.Second})
	url := serve(t, a)
	addr := strings.TrimPrefix(url, "http://")
	start := encoded(shareFile(0, 1, 1, 5000, ""))[:1000]
	heap0 := heapInuse()

	var answered, ended atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var held []string
	began := time.Now()
	for i := range swarm {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n", Path, addr, testToken, 1<<20)
		if i%3 == 0 {
			head = head[:len(head)/2] // stalled inside the headers
		}
		_, _ = c.Write([]byte(head))
		if i%3 != 0 {
			_, _ = c.Write(start)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
			var first [1]byte
			if n, _ := c.Read(first[:]); n == 1 {
				answered.Add(1)
			}
			_, err := io.Copy(io.Discard, c)
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				mu.Lock()
				held = append(held, c.LocalAddr().String())
				mu.Unlock()
				return
			}
			ended.Add(1)
		}()
	}
	eventually.True(t, "the excess posts answered or closed", func() bool { return answered.Load()+ended.Load() >= swarm-DefaultMaxConns })
	grown := int64(heapInuse()) - int64(heap0)
	wg.Wait()
	if len(held) > 0 {
		t.Errorf("%d connections still open after 20 s (the read timeout is 3 s), e.g. %s", len(held), held[0])
	}
	if d := time.Since(began); d > 15*time.Second {
		t.Errorf("the swarm took %s to end", d)
	}
	t.Logf("%d stalled connections: heap grew by %.1f MiB, %d answered, all ended in %s", swarm, float64(grown)/(1<<20), answered.Load(), time.Since(began).Round(time.Millisecond))
	if grown > 64<<20 {
		t.Errorf("the heap grew by %d MiB with %d stalled posts, want under 64 MiB", grown>>20, swarm)
	}
	if code := runnerN(0).postTo(t, url, encoded(shareFile(0, 1, 1, 0, ""))); code != http.StatusNoContent {
		t.Errorf("a runner's post after the swarm: %d", code)
	}
}

// TestAggregatorBusy: beyond PostsInFlight posts being read, a post is
// answered 503 with Retry-After at once, and the aggregator keeps
// nothing of it.
func TestAggregatorBusy(t *testing.T) {
	t.Parallel()
	a := New(Config{Interval: time.Hour, Token: testToken, PostsInFlight: 1, ReadTimeout: 5 * time.Second})
	url := serve(t, a)
	body := encoded(shareFile(0, 2, 1, 0, ""))
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() { // a post that holds the only place
		req, _ := http.NewRequest(http.MethodPost, url+Path, pr)
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set(HeaderRunner, "slow")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	_, _ = pw.Write(body[:10])
	eventually.True(t, "the slow post holds the place", func() bool { return len(a.slots) == 1 })
	req, _ := http.NewRequest(http.MethodPost, url+Path, bytes.NewReader(encoded(shareFile(1, 2, 1, 0, ""))))
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("a post beyond the one in flight: %s, Retry-After %q", resp.Status, resp.Header.Get("Retry-After"))
	}
	_, _ = pw.Write(body[10:])
	pw.Close()
	eventually.True(t, "the slow post kept", func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		return len(a.runners) == 1
	})
}

// heapInuse is the heap in use after a collection.
func heapInuse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}
