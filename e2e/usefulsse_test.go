package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sseServer serves raw SSE bytes with controlled gaps, one handler per
// dialect and failure, for the scripts in testdata/usefulsse.
func sseServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(sseMux())
	t.Cleanup(srv.Close)
	return srv
}

// sseTLSServer is sseServer over TLS, with a certificate of its own.
func sseTLSServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewTLSServer(sseMux())
	t.Cleanup(srv.Close)
	return srv
}

// sseMux holds sseServer's handlers.
func sseMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/business", streamHandler([]step{
		{0, `data: {"delta": "", "business_state": {"queue_ms": 12}}` + "\n\n"},
		{10 * time.Millisecond, `data: {"delta": "  "}` + "\n\n"},
		{40 * time.Millisecond, ": ping\n\n"},
		{100 * time.Millisecond, `data: {"delta": "Checking your order "}` + "\n\n"},
		{50 * time.Millisecond, ": ping\n\n"},
		{150 * time.Millisecond, `data: {"delta": "- refundable.", "business_state": {"decision": "refund", "reason": "within 30 days"}}` + "\n\n"},
		{50 * time.Millisecond, `data: {"business_state": {"next_step": "click refund"}}` + "\n\n"},
		{20 * time.Millisecond, "event: done\ndata: {}\n\n"},
	}))
	mux.HandleFunc("/openai", streamHandler([]step{
		{0, `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}` + "\n\n"},
		{30 * time.Millisecond, `data: {"choices":[{"index":0,"delta":{"reasoning_content":"thinking..."}}]}` + "\n\n"},
		{30 * time.Millisecond, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\"id\""}}]}}]}` + "\n\n"},
		{10 * time.Millisecond, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":42}"}}]}}]}` + "\n\n"},
		{30 * time.Millisecond, `data: {"choices":[{"index":0,"delta":{"content":"Hello"}}]}` + "\n\n"},
		{10 * time.Millisecond, `data: {"choices":[{"index":0,"delta":{"content":" world"}}]}` + "\n\n"},
		{10 * time.Millisecond, `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"},
		{0, `data: {"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}` + "\n\n"},
		{0, "data: [DONE]\n\n"},
	}))
	mux.HandleFunc("/anthropic", streamHandler([]step{
		{0, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":7,\"output_tokens\":1}}}\n\n"},
		{10 * time.Millisecond, "event: ping\ndata: {\"type\": \"ping\"}\n\n"},
		{10 * time.Millisecond, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n"},
		{10 * time.Millisecond, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"hmm\"}}\n\n"},
		{10 * time.Millisecond, "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"},
		{10 * time.Millisecond, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"},
		{10 * time.Millisecond, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n"},
		{10 * time.Millisecond, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\" there\"}}\n\n"},
		{0, "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n"},
		{0, "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":3}}\n\n"},
		{0, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"},
	}))
	mux.HandleFunc("/status500", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"error": "overloaded"}`)
	})
	mux.HandleFunc("/wrongtype", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html></html>")
	})
	return mux
}

// step is a chunk of raw bytes written after a pause.
type step struct {
	after time.Duration
	raw   string
}

// streamHandler writes the steps as text/event-stream, flushing each.
func streamHandler(steps []step) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		fl := w.(http.Flusher)
		fl.Flush()
		for _, s := range steps {
			select {
			case <-time.After(s.after):
			case <-r.Context().Done():
				return
			}
			fmt.Fprint(w, s.raw)
			fl.Flush()
		}
	}
}

func TestUsefulSSEProbe(t *testing.T) {
	t.Parallel()
	srv := sseServer(t)
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{args: []string{"run", "-q", "--summary-export", out, script("usefulsse/probe.js")},
		env: []string{"SSE_URL=" + srv.URL}}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)
	useful := number(t, exp, "metrics", "usefulsse_useful{bucket:qa}", "avg")
	if useful < 330 || useful > 600 {
		t.Errorf("useful avg = %.1f ms, want about 350 ms (the server sends the next step at 400 ms minus the first event)", useful)
	}
	firstText := number(t, exp, "metrics", "usefulsse_first_text{bucket:qa}", "avg")
	if firstText < 140 || firstText > 300 {
		t.Errorf("first_text avg = %.1f ms, want about 150 ms", firstText)
	}
	if n := number(t, exp, "metrics", "http_reqs", "count"); n != 3+2*2+5 {
		t.Errorf("http_reqs = %v, want 12", n)
	}
	if f := number(t, exp, "metrics", "usefulsse_failed", "passes"); f != 5 {
		t.Errorf("usefulsse_failed passes = %v, want the 5 failing requests", f)
	}
	if !strings.Contains(r.stdout, "STREAMING") || !strings.Contains(r.stdout, "usefulsse_useful") {
		t.Errorf("the summary lacks the streaming block:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "WHERE THE TIME GOES") || !strings.Contains(r.stdout, "qa: 3 requests, useful reached 100.00%, failed 0.00%") {
		t.Errorf("the summary lacks the per-bucket table:\n%s", r.stdout)
	}
	if p95 := number(t, exp, "usefulsse_buckets", "qa", "useful", "p95"); p95 < 380 || p95 > 600 {
		t.Errorf("usefulsse_buckets.qa.useful.p95 = %v, want about 400", p95)
	}
	if f := number(t, exp, "usefulsse_buckets", "fail", "failed"); f != 1 {
		t.Errorf("usefulsse_buckets.fail.failed = %v, want 1", f)
	}
}

func TestXK6SSECompat(t *testing.T) {
	t.Parallel()
	srv := sseServer(t)
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{args: []string{"run", "-q", "--summary-trend-stats", "avg,p(95),count", "--summary-export", out, script("usefulsse/compat.js")},
		env: []string{"SSE_URL=" + srv.URL}}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)
	if n := number(t, exp, "metrics", "usefulsse_events", "count"); n == 0 {
		t.Error("xk6-sse scripts must feed the usefulsse metrics")
	}
	if got, want := number(t, exp, "metrics", "sse_event", "count"), number(t, exp, "metrics", "script_events", "count"); got != want || got == 0 {
		t.Errorf("sse_event count = %v, want the %v events the script saw", got, want)
	}
	if n := number(t, exp, "metrics", "http_req_duration", "count"); n != 2 {
		t.Errorf("http_req_duration count = %v, want one per sse.open (2)", n)
	}
}

// TestXK6SSEHandlerError checks that an exception thrown by a k6/x/sse
// handler reaches the script as itself, with the script's line, and never
// in the words of the probe's own onEvent param.
func TestXK6SSEHandlerError(t *testing.T) {
	t.Parallel()
	srv := sseServer(t)
	r := invocation{args: []string{"run", "-q", "--no-summary", script("usefulsse/compat_throw.js")},
		env: []string{"SSE_URL=" + srv.URL}}.run(t)
	r.wantCode(t, 0)
	if !strings.Contains(r.stderr, "Error: boom in the event handler") || !strings.Contains(r.stderr, "compat_throw.js:10") {
		t.Errorf("stderr lacks the handler's exception at its line:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "onEvent") || strings.Contains(r.stderr, "GoError") {
		t.Errorf("stderr names the probe's internals:\n%s", r.stderr)
	}
}

// TestXK6SSEMetricsAsXK6SSE checks that k6/x/sse emits k6's HTTP metrics as
// xk6-sse does, so a script's thresholds give the verdict they give under
// k6 and xk6-sse: http_req_duration runs until the stream ended (300 ms
// of events) or client.close() (at the first event), one http_reqs and two
// http_req_sending per sse.open (the script's thresholds check them), and
// no http_req_failed or http_req_waiting at all.
func TestXK6SSEMetricsAsXK6SSE(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 3 {
			if i > 0 {
				time.Sleep(150 * time.Millisecond) // the pace of the stream under test, not synchronisation
			}
			fmt.Fprintf(w, "data: %d\n\n", i)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{args: []string{"run", "-q", "--summary-trend-stats", "min,max,count", "--summary-export", out, script("usefulsse/compat_timing.js")},
		env: []string{"SSE_URL=" + srv.URL}}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)
	for _, name := range []string{"http_req_failed", "http_req_waiting"} {
		if _, ok := lookup(exp, "metrics", name); ok {
			t.Errorf("%s was emitted; xk6-sse emits none", name)
		}
	}
	if n := number(t, exp, "metrics", "http_req_sending", "count"); n != 4 {
		t.Errorf("http_req_sending count = %v, want 2 per sse.open", n)
	}
	if n := number(t, exp, "metrics", "usefulsse_events", "count"); n == 0 {
		t.Error("the probe's own metrics are still emitted")
	}
}
