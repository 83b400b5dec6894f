package aggregate

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// post sends body to the aggregator's handler as a runner would.
func post(t *testing.T, h http.Handler, body []byte, api string, final bool) int {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, Path, bytes.NewReader(body))
	req.RemoteAddr = "10.0.0.7:40000"
	if api != "" {
		req.Header.Set(HeaderAPI, api)
	}
	if final {
		req.Header.Set(HeaderFinal, "true")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

// stopRecorder is a runner's REST API that records the stops it gets.
type stopRecorder struct {
	mu     sync.Mutex
	bodies []string
	srv    *httptest.Server
}

func newStopRecorder(t *testing.T) *stopRecorder {
	s := &stopRecorder{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, r.Method+" "+r.URL.Path+" "+string(b))
		s.mu.Unlock()
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *stopRecorder) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// TestAggregatorStopsOnGlobalGate: three runners of 4 iterations each
// pass count<10 alone; their merge (12) crosses it, so every runner's REST
// API gets one PATCH /v1/status stopped:true, and the run is done once all
// three sent their final result.
func TestAggregatorStopsOnGlobalGate(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	a := New(Config{Interval: 10 * time.Millisecond, Log: &syncWriter{w: &log}})
	h := a.Handler()
	var apis []*stopRecorder
	for i := range 3 {
		api := newStopRecorder(t)
		apis = append(apis, api)
		if code := post(t, h, encoded(shareFile(i, 3, 4, 0, "count<10")), strings.TrimPrefix(api.srv.URL, "http://"), false); code != http.StatusNoContent {
			t.Fatalf("post %d: %d", i, code)
		}
	}
	done := make(chan struct{})
	var aborted bool
	go func() {
		defer close(done)
		_, aborted, _ = a.Run(context.Background())
	}()
	for i, api := range apis {
		eventually.True(t, "runner stopped", func() bool { return len(api.got()) == 1 })
		if got := api.got()[0]; got != "PATCH /v1/status "+stopBody {
			t.Errorf("runner %d got %q", i, got)
		}
	}
	for i := range 3 {
		post(t, h, encoded(shareFile(i, 3, 4, 0, "count<10")), "", true)
	}
	<-done
	if !aborted || !strings.Contains(log.String(), "thresholds on metrics 'iterations' crossed with abortOnFail") {
		t.Errorf("aborted %v, log:\n%s", aborted, log.String())
	}
	for i, api := range apis {
		if n := len(api.got()); n != 1 {
			t.Errorf("runner %d stopped %d times", i, n)
		}
	}
}

// TestAggregatorCompletion: without --runners, the aggregator is done when
// every runner that posted is final and their segments cover the test;
// with it, when that many are final. A result of another test is refused.
func TestAggregatorCompletion(t *testing.T) {
	t.Parallel()
	a := New(Config{Interval: time.Hour})
	h := a.Handler()
	post(t, h, encoded(shareFile(0, 3, 1, 0, "")), "", true)
	post(t, h, encoded(shareFile(2, 3, 1, 0, "")), "", true)
	if a.closed {
		t.Fatal("done with segment 1/3:2/3 missing")
	}
	other := shareFile(1, 3, 1, 0, "")
	other.TestID = "another"
	if code := post(t, h, encoded(other), "", true); code != http.StatusConflict {
		t.Errorf("another test's result: %d, want 409", code)
	}
	if code := post(t, h, []byte("not a result"), "", true); code != http.StatusBadRequest {
		t.Errorf("garbage: %d, want 400", code)
	}
	ping := httptest.NewRecorder()
	h.ServeHTTP(ping, httptest.NewRequest(http.MethodGet, "/ping", nil))
	if ping.Code != http.StatusOK || ping.Body.String() != "ok" {
		t.Errorf("GET /ping: %d %q", ping.Code, ping.Body)
	}
	post(t, h, encoded(shareFile(1, 3, 1, 0, "")), "", false)
	if a.closed {
		t.Fatal("done before the last runner's final result")
	}
	post(t, h, encoded(shareFile(1, 3, 1, 0, "")), "", true)
	merged, aborted, err := a.Run(context.Background())
	if err != nil || aborted || len(merged.Segments) != 3 || merged.Metrics[0].Sink.Sum != 3 {
		t.Errorf("merged %+v aborted %v err %v", merged, aborted, err)
	}

	b := New(Config{Interval: time.Hour, Runners: 2})
	post(t, b.Handler(), encoded(shareFile(0, 3, 1, 0, "")), "", true)
	post(t, b.Handler(), encoded(shareFile(1, 3, 1, 0, "")), "", true)
	if !b.closed {
		t.Error("--runners 2: not done after two final results")
	}
}

func TestAPIAddress(t *testing.T) {
	for _, tc := range []struct{ api, remote, want string }{
		{"127.0.0.1:6565", "10.0.0.7:4000", "127.0.0.1:6565"},
		{"0.0.0.0:6565", "10.0.0.7:4000", "10.0.0.7:6565"},
		{"[::]:6565", "[fd00::7]:4000", "[fd00::7]:6565"},
		{":6565", "10.0.0.7:4000", "10.0.0.7:6565"},
		{"runner-0:6565", "10.0.0.7:4000", "runner-0:6565"},
		{"", "10.0.0.7:4000", ""},
		{"no port", "10.0.0.7:4000", ""},
	} {
		if got := apiAddress(tc.api, tc.remote); got != tc.want {
			t.Errorf("apiAddress(%q, %q) = %q, want %q", tc.api, tc.remote, got, tc.want)
		}
	}
}

// syncWriter serialises writes to w and reads of it.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
