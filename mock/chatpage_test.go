package mock

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestChatPage checks that GET /chat serves the chat page, self-contained,
// while POST /chat still streams.
func TestChatPage(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	resp, err := http.Get(url + "/chat")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	page := string(body)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{`id="send"`, `bubble("answer"`, "data-done", RenderDelayHeader} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	for _, external := range []string{"src=", "href=", "http://", "https://"} {
		if strings.Contains(page, external) {
			t.Errorf("the page loads something from outside (%s)", external)
		}
	}
	if x := postT(t, url+"/chat", `{"bucket":"qa","seed":1}`); x.status != http.StatusOK || len(x.dataEvents()) == 0 {
		t.Errorf("POST /chat: status %d, %d events", x.status, len(x.dataEvents()))
	}
}

// TestFaultRenderDelay checks that render_delay only tells the page to
// hold its screen back: the header carries Config.RenderDelayMS and the
// stream is the same as without the fault.
func TestFaultRenderDelay(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	cfg.RenderDelayMS = 250
	_, url := start(t, cfg)
	texts := func(x *exchange) []string {
		var out []string
		for _, e := range x.dataEvents() {
			m := e.obj()
			delete(m, "server_ms")
			if state, ok := m["business_state"].(map[string]any); ok {
				delete(state, "queue_ms") // varies with the machine's load
			}
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
		}
		return out
	}
	plain := post(t, context.Background(), url+"/chat", `{"bucket":"single_tool","mock_seed":4}`)
	slow := post(t, context.Background(), url+"/chat", `{"bucket":"single_tool","mock_seed":4,"faults":"render_delay"}`)
	if got := slow.header.Get(RenderDelayHeader); got != "250" || plain.header.Get(RenderDelayHeader) != "" {
		t.Errorf("render delay header %q with the fault, %q without", got, plain.header.Get(RenderDelayHeader))
	}
	if a, b := texts(plain), texts(slow); len(a) == 0 || !slices.Equal(a, b) {
		t.Errorf("the fault changed the stream:\n%v\n%v", a, b)
	}
	bad := DefaultConfig()
	bad.RenderDelayMS = -1
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "render_delay_ms") {
		t.Errorf("a negative render delay: %v", err)
	}
}
