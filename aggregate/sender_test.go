package aggregate

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/result"
)

// TestSenderOneInFlight: while the aggregator holds a post, the ticks are
// skipped, never queued; once it answers, posts go on, and Stop sends a
// final one.
func TestSenderOneInFlight(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var inFlight, most, finals atomic.Int64
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		if _, err := result.Read(r.Body); err != nil {
			t.Errorf("post body: %v", err)
		}
		if r.Header.Get(HeaderFinal) == "true" {
			finals.Add(1)
		}
		if r.Header.Get(HeaderAPI) != "127.0.0.1:6565" {
			t.Errorf("API address header %q", r.Header.Get(HeaderAPI))
		}
		<-release
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	var log bytes.Buffer
	s, err := NewSender(SenderConfig{URL: srv.URL, Interval: 5 * time.Millisecond, APIAddress: "127.0.0.1:6565",
		Snapshot: func() *result.File { return shareFile(0, 1, 3, 10, "") }, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	eventually.True(t, "ticks skipped while a post is held", func() bool { return s.Skipped.Load() >= 5 })
	once.Do(func() { close(release) })
	eventually.True(t, "posts go on", func() bool { return s.Posted.Load() >= 2 })
	s.Stop()
	if most.Load() != 1 || finals.Load() != 1 || log.Len() != 0 {
		t.Errorf("at most %d posts in flight (want 1), %d final posts (want 1), log %q", most.Load(), finals.Load(), log.String())
	}
}

// TestSenderStopBounded: an aggregator that never answers costs Stop at
// most its budget (1 s when no post ever reached it) and one warning line.
func TestSenderStopBounded(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hold)
	var log syncWriter
	log.w = &bytes.Buffer{}
	s, err := NewSender(SenderConfig{URL: srv.URL, Interval: 10 * time.Millisecond,
		Snapshot: func() *result.File { return shareFile(0, 1, 1, 0, "") }, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	eventually.True(t, "a post was tried", s.tried.Load)
	start := time.Now()
	s.Stop()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Stop took %s, want about 1 s", d)
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	if n := strings.Count(log.w.String(), "\n"); n != 1 || !strings.Contains(log.w.String(), "WARN aggregator http://127.0.0.1:") {
		t.Errorf("log:\n%s", log.w.String())
	}
}

func TestNewSenderRefusesBadURL(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "http://", "127.0.0.1:6566", "http://u:secret@%zz"} {
		_, err := NewSender(SenderConfig{URL: u})
		if err == nil || strings.Contains(err.Error(), "secret") {
			t.Errorf("NewSender(%q): %v", u, err)
		}
	}
}

// TestSenderPacedByAggregator: a runner waits the time the aggregator's
// answer asks for before its next post.
func TestSenderPacedByAggregator(t *testing.T) {
	t.Parallel()
	var posts atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		w.Header().Set(HeaderNextPost, "1h")
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	s, err := NewSender(SenderConfig{URL: srv.URL, Interval: 5 * time.Millisecond,
		Snapshot: func() *result.File { return shareFile(0, 1, 1, 0, "") }})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	eventually.True(t, "ticks skipped after the first post", func() bool { return s.Posted.Load() == 1 && s.Skipped.Load() >= 20 })
	s.Stop()
	if n := posts.Load(); n != 2 {
		t.Errorf("%d posts, want the first and the final one", n)
	}
}

// TestSenderStopWithoutStart: a run that ends before its outputs started
// still sends its final result, and Stop returns. The post goes to the
// URL's path plus Path, its query kept.
func TestSenderStopWithoutStart(t *testing.T) {
	t.Parallel()
	var finals atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(HeaderFinal) == "true" && r.URL.Path == "/base"+Path && r.URL.Query().Get("token") == "t" {
			finals.Add(1)
		}
	}))
	defer srv.Close()
	s, err := NewSender(SenderConfig{URL: srv.URL + "/base/?token=t", Snapshot: func() *result.File { return shareFile(0, 1, 1, 0, "") }})
	if err != nil {
		t.Fatal(err)
	}
	s.Stop()
	if finals.Load() != 1 || s.Posted.Load() != 1 {
		t.Errorf("final posts %d, posted %d; want 1 and 1", finals.Load(), s.Posted.Load())
	}
}
