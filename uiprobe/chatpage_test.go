package uiprobe

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/mock"
	"github.com/usefullatency/usefullatency/sse"
)

// chatQuestion is the question the mock's chat page asks by default.
const chatQuestion = "Can I get a refund for my order?"

// socketUseful sends the chat page's request body for faults to the mock
// through the stream probe and returns its result: the socket's view.
func socketUseful(t *testing.T, base, faults string) *sse.Result {
	t.Helper()
	body := map[string]any{"bucket": "qa", "mock_seed": 7, "question": chatQuestion}
	if faults != "" {
		body["faults"] = faults
	}
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := sse.NewClient(sse.ClientOptions{}).Do(ctx, &sse.Request{Method: http.MethodPost, URL: base + "/chat", Body: data,
		Header: http.Header{"Content-Type": {"application/json"}}, Dialect: sse.DialectBusiness})
	if res.Failed() || res.Timings.Useful == nil {
		t.Fatalf("the stream probe: %s %s, useful %v", res.ErrorCode, res.Error, res.Timings.Useful)
	}
	return res
}

// chatUseful asks the question on the mock's chat page with faults and
// returns the UI probe's result: the screen's view.
func chatUseful(t *testing.T, base, faults string) Result {
	t.Helper()
	page := newPage(t)
	url := fmt.Sprintf("%s/chat?bucket=qa&mock_seed=7&faults=%s", base, faults)
	if err := page.Goto(context.Background(), url); err != nil {
		t.Fatal(err)
	}
	res := watch(t, page, Spec{Done: "[data-done]", State: `script[type="application/json"]`,
		Useful: mustPredicate(t, map[string]any{"fields": []any{"decision", "reason", "next_step"}})})
	if res.Failed() || res.End != endDone || res.Timings.FirstText == nil || res.Timings.Useful == nil || res.Timings.Complete == nil {
		t.Fatalf("the UI probe on the chat page: %+v", res)
	}
	return res
}

// TestMockChatPage drives the mock's chat page in Chromium: the answer the
// screen shows is the stream's, its useful moment follows the socket's
// closely, and under render_delay it comes later by the delay.
func TestMockChatPage(t *testing.T) {
	cfg := mock.DefaultConfig()
	srv := mock.New(cfg)
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	delay := cfg.RenderDelayMS

	socket := socketUseful(t, base, "")
	screen := chatUseful(t, base, "")
	if strings.TrimSpace(screen.Text) != strings.TrimSpace(socket.Text) || screen.State["decision"] != socket.State["decision"] {
		t.Errorf("the screen shows %q (%v), the stream said %q (%v)", screen.Text, screen.State["decision"], socket.Text, socket.State["decision"])
	}
	lag := *screen.Timings.Useful - *socket.Timings.Useful
	t.Logf("useful: socket %.1f ms, screen %.1f ms (lag %.1f ms)", *socket.Timings.Useful, *screen.Timings.Useful, lag)
	if lag < -50 || lag > 500 {
		t.Errorf("the screen's useful is %.1f ms after the socket's: want about the same", lag)
	}

	socket = socketUseful(t, base, mock.FaultRenderDelay)
	screen = chatUseful(t, base, mock.FaultRenderDelay)
	lag = *screen.Timings.Useful - *socket.Timings.Useful
	t.Logf("render_delay: useful: socket %.1f ms, screen %.1f ms (lag %.1f ms, delay %.0f ms)", *socket.Timings.Useful, *screen.Timings.Useful, lag, delay)
	// The two requests replay one seeded plan: their events leave the
	// server within a few ms of the same offsets (jitter).
	const jitter = 10
	if lag < delay-jitter || lag > delay+500 {
		t.Errorf("under render_delay the screen's useful is %.1f ms after the socket's: want the delay, %.0f ms, and a little more", lag, delay)
	}
	if ft := *screen.Timings.FirstText - *socket.Timings.FirstText; ft < delay-jitter {
		t.Errorf("under render_delay the first text shows %.1f ms after it arrived, want at least %.0f ms", ft, delay)
	}
}
