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
		if r.Header.Get(HeaderAPI) != ":6565" {
			t.Errorf("API address header %q, want the port alone", r.Header.Get(HeaderAPI))
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

// TestSenderToken: every post carries the token as a bearer credential,
// the same runner id and the REST API's port alone; a token that cannot
// be a header value is refused without being shown.
func TestSenderToken(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var auths, ids, apis []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		auths = append(auths, r.Header.Get("Authorization"))
		ids = append(ids, r.Header.Get(HeaderRunner))
		apis = append(apis, r.Header.Get(HeaderAPI))
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	s, err := NewSender(SenderConfig{URL: srv.URL, Interval: 5 * time.Millisecond, Token: testToken, APIAddress: "0.0.0.0:6565",
		Snapshot: func() *result.File { return shareFile(0, 1, 1, 0, "") }})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	eventually.True(t, "two posts", func() bool { return s.Posted.Load() >= 2 })
	s.Stop()
	mu.Lock()
	defer mu.Unlock()
	for i := range auths {
		if auths[i] != "Bearer "+testToken || ids[i] == "" || ids[i] != ids[0] || apis[i] != ":6565" {
			t.Errorf("post %d: Authorization %q, runner %q (first %q), API %q", i, auths[i], ids[i], ids[0], apis[i])
		}
	}
	for _, bad := range []string{"two words here", "tab\there-and-more", "accentué-token", "short"} {
		_, err := NewSender(SenderConfig{URL: srv.URL, Token: bad})
		if err == nil || strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), TokenEnv) {
			t.Errorf("token %q: %v", bad, err)
		}
	}
}

// TestSenderNoRedirect: an aggregator that answers 307 to another server
// gets the result nowhere else — the other server sees no request, so
// neither the result nor the token — and the runner says so in its one
// warning line, without the token.
func TestSenderNoRedirect(t *testing.T) {
	t.Parallel()
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer other.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		var posts atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			posts.Add(1)
			http.Redirect(w, r, other.URL+Path+"?echo="+r.Header.Get("Authorization"), code)
		}))
		var log syncWriter
		log.w = &bytes.Buffer{}
		s, err := NewSender(SenderConfig{URL: srv.URL, Interval: 5 * time.Millisecond, Token: testToken, Log: &log,
			Snapshot: func() *result.File { return shareFile(0, 1, 1, 0, "") }})
		if err != nil {
			t.Fatal(err)
		}
		s.Start()
		eventually.True(t, "posts redirected", func() bool { return posts.Load() >= 3 })
		s.Stop()
		srv.Close()
		got := log.String()
		if n := strings.Count(got, "\n"); n != 1 || !strings.Contains(got, "redirects are not followed") || strings.Contains(got, testToken) {
			t.Errorf("%d: log:\n%s", code, got)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other server got %d requests", n)
	}
}

// TestSenderTokenNeverLogged: an aggregator (or what answers in its place)
// that echoes the request's Authorization header in its error does not
// put the token in the runner's log.
func TestSenderTokenNeverLogged(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "who is "+r.Header.Get("Authorization")+"?", http.StatusUnauthorized)
	}))
	defer srv.Close()
	var log bytes.Buffer
	s, err := NewSender(SenderConfig{URL: srv.URL, Token: testToken, Log: &log,
		Snapshot: func() *result.File { return shareFile(0, 1, 1, 0, "") }})
	if err != nil {
		t.Fatal(err)
	}
	s.Stop()
	if got := log.String(); strings.Contains(got, testToken) || !strings.Contains(got, "401 Unauthorized: who is Bearer REDACTED?") {
		t.Errorf("log:\n%s", got)
	}
}

// TestSenderFinalRetriedWhenBusy: an aggregator busy with other posts
// (503 with Retry-After) still gets the final result, within Stop's
// budget; busy answers to the periodic posts are no failure to report.
func TestSenderFinalRetriedWhenBusy(t *testing.T) {
	t.Parallel()
	var busy, finals atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if busy.Add(1) <= 3 {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		if r.Header.Get(HeaderFinal) == "true" {
			finals.Add(1)
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	var log bytes.Buffer
	s, err := NewSender(SenderConfig{URL: srv.URL, Log: &log, Snapshot: func() *result.File { return shareFile(0, 1, 1, 0, "") }})
	if err != nil {
		t.Fatal(err)
	}
	s.Stop()
	if finals.Load() != 1 || s.Busy.Load() != 3 || log.Len() != 0 {
		t.Errorf("%d final posts (want 1), %d busy answers (want 3), log %q", finals.Load(), s.Busy.Load(), log.String())
	}

	always := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "0")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer always.Close()
	log.Reset()
	s, err = NewSender(SenderConfig{URL: always.URL, Log: &log, StopTimeout: 500 * time.Millisecond,
		Snapshot: func() *result.File { return shareFile(0, 1, 1, 0, "") }})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s.Stop()
	if d := time.Since(start); d > 2*time.Second || !strings.Contains(log.String(), "busy (503) until the run's end: the last result was not sent") {
		t.Errorf("an aggregator busy to the end: Stop took %s, log %q", d, log.String())
	}
}
