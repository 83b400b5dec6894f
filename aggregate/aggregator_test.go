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

// testToken is the shared token of the tests' aggregators.
const testToken = "t0ken-of-the-tests"

// poster is a runner as the aggregator sees its posts: its id, the
// address its posts come from, its token and REST API header.
type poster struct {
	id     string
	remote string // "10.0.0.7:40000" when empty
	token  string // testToken when empty; "-" sends none
	api    string // HeaderAPI, none when empty
}

// post sends body to the aggregator's handler as p would and returns the
// answer's status.
func (p poster) post(h http.Handler, body []byte, final bool) int {
	return p.send(h, body, final).Code
}

func (p poster) send(h http.Handler, body []byte, final bool) *httptest.ResponseRecorder {
	return serveOne(h, p.request(body, final))
}

// serveOne serves one request with h.
func serveOne(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// request is p's post of body.
func (p poster) request(body []byte, final bool) *http.Request {
	req := httptest.NewRequest(http.MethodPost, Path, bytes.NewReader(body))
	req.RemoteAddr = p.remote
	if req.RemoteAddr == "" {
		req.RemoteAddr = "10.0.0.7:40000"
	}
	switch p.token {
	case "":
		req.Header.Set("Authorization", "Bearer "+testToken)
	case "-":
	default:
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	if p.id != "" {
		req.Header.Set(HeaderRunner, p.id)
	}
	if p.api != "" {
		req.Header.Set(HeaderAPI, p.api)
	}
	if final {
		req.Header.Set(HeaderFinal, "true")
	}
	return req
}

// runnerN is the i-th runner of a test, posting from 10.0.0.7.
func runnerN(i int) poster { return poster{id: "runner-" + string(rune('a'+i))} }

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
		s.bodies = append(s.bodies, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization")+" "+string(b))
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

// port is the recorder's port, as a runner announces it.
func (s *stopRecorder) port() string { return ":" + s.srv.URL[strings.LastIndex(s.srv.URL, ":")+1:] }

// TestAggregatorStopsOnGlobalGate: three runners of 4 iterations each
// pass count<10 alone; their merge (12) crosses it, so every runner's REST
// API — the port it announced, at the address its posts came from — gets
// one PATCH /v1/status stopped:true with the runners' API token, and the
// run is done once all three sent their final result.
func TestAggregatorStopsOnGlobalGate(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	a := New(Config{Interval: 10 * time.Millisecond, Log: &syncWriter{w: &log}, Token: testToken, RunnerAPIToken: "api-t0ken"})
	h := a.Handler()
	var apis []*stopRecorder
	for i := range 3 {
		api := newStopRecorder(t)
		apis = append(apis, api)
		p := poster{id: runnerN(i).id, remote: "127.0.0.1:4000" + string(rune('0'+i)), api: api.port()}
		if code := p.post(h, encoded(shareFile(i, 3, 4, 0, "count<10")), false); code != http.StatusNoContent {
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
		if got := api.got()[0]; got != "PATCH /v1/status Bearer api-t0ken "+stopBody {
			t.Errorf("runner %d got %q", i, got)
		}
	}
	for i := range 3 {
		p := poster{id: runnerN(i).id, remote: "127.0.0.1:5000" + string(rune('0'+i))}
		if code := p.post(h, encoded(shareFile(i, 3, 4, 0, "count<10")), true); code != http.StatusNoContent {
			t.Errorf("final post %d: %d", i, code)
		}
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
	var log syncWriter
	log.w = &bytes.Buffer{}
	a := New(Config{Interval: time.Hour, Token: testToken, Log: &log})
	h := a.Handler()
	runnerN(0).post(h, encoded(shareFile(0, 3, 1, 0, "")), true)
	runnerN(2).post(h, encoded(shareFile(2, 3, 1, 0, "")), true)
	if a.closed {
		t.Fatal("done with segment 1/3:2/3 missing")
	}
	other := shareFile(1, 3, 1, 0, "")
	other.TestID = "another"
	if code := runnerN(1).post(h, encoded(other), true); code != http.StatusConflict {
		t.Errorf("another test's result: %d, want 409", code)
	}
	if code := runnerN(1).post(h, []byte("not a result"), true); code != http.StatusBadRequest {
		t.Errorf("garbage: %d, want 400", code)
	}
	ping := httptest.NewRecorder()
	h.ServeHTTP(ping, httptest.NewRequest(http.MethodGet, "/ping", nil))
	if ping.Code != http.StatusOK || ping.Body.String() != "ok" {
		t.Errorf("GET /ping: %d %q", ping.Code, ping.Body)
	}
	runnerN(1).post(h, encoded(shareFile(1, 3, 1, 0, "")), false)
	if a.closed {
		t.Fatal("done before the last runner's final result")
	}
	runnerN(1).post(h, encoded(shareFile(1, 3, 1, 0, "")), true)
	merged, aborted, err := a.Run(context.Background())
	if err != nil || aborted || len(merged.Segments) != 3 || merged.Metrics[0].Sink.Sum != 3 {
		t.Errorf("merged %+v aborted %v err %v", merged, aborted, err)
	}
	if !strings.Contains(log.String(), "2 posts were refused") {
		t.Errorf("no count of the refused posts:\n%s", log.String())
	}

	b := New(Config{Interval: time.Hour, Runners: 2, Token: testToken})
	runnerN(0).post(b.Handler(), encoded(shareFile(0, 3, 1, 0, "")), true)
	runnerN(1).post(b.Handler(), encoded(shareFile(1, 3, 1, 0, "")), true)
	if !b.closed {
		t.Error("--runners 2: not done after two final results")
	}
}

// TestAggregatorSaysWhatIsMissing: with --runners 2, two runners of three
// segments end the aggregation; the verdict names the segment no runner
// posted, and a runner that never sent its final result.
func TestAggregatorSaysWhatIsMissing(t *testing.T) {
	t.Parallel()
	var log syncWriter
	log.w = &bytes.Buffer{}
	a := New(Config{Interval: time.Hour, Runners: 2, Token: testToken, Log: &log})
	h := a.Handler()
	runnerN(0).post(h, encoded(shareFile(0, 3, 1, 0, "")), true)
	runnerN(2).post(h, encoded(shareFile(2, 3, 1, 0, "")), true)
	merged, _, err := a.Run(context.Background())
	if err != nil || len(merged.Segments) != 2 || !strings.Contains(log.String(), "missing 1/3:2/3") {
		t.Errorf("merged %v, err %v, log:\n%s", merged, err, log.String())
	}

	log.w.Reset()
	b := New(Config{Interval: time.Hour, Token: testToken, Log: &log})
	runnerN(0).post(b.Handler(), encoded(shareFile(0, 2, 1, 0, "")), true)
	runnerN(1).post(b.Handler(), encoded(shareFile(1, 2, 1, 0, "")), false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // SIGINT
	if _, _, err := b.Run(ctx); err != nil || !strings.Contains(log.String(), "no final result for segments 1/2:1") {
		t.Errorf("err %v, log:\n%s", err, log.String())
	}
}

func TestAPIPort(t *testing.T) {
	for _, tc := range []struct{ header, want string }{
		{":6565", "6565"},
		{"0.0.0.0:6565", "6565"},
		{"[::]:6565", "6565"},
		{"169.254.169.254:80", "80"}, // the host is never used
		{"runner-0:6565", "6565"},
		{"", ""},
		{"no port", ""},
		{":0", ""},
		{":70000", ""},
		{":http", ""},
	} {
		if got := apiPort(tc.header); got != tc.want {
			t.Errorf("apiPort(%q) = %q, want %q", tc.header, got, tc.want)
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

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.String()
}
