package mock

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestOpenAIStream checks the chat.completion.chunk sequence against the
// reference: role-only first chunk, reasoning_content, tool_calls with
// streamed arguments, content, a final empty delta with finish_reason, the
// usage chunk with choices [] and [DONE].
func TestOpenAIStream(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	body := `{"model":"gpt-x","stream":true,"stream_options":{"include_usage":true},"reasoning_effort":"low",
		"messages":[{"role":"user","content":"My parcel is lost, refund?"}],"metadata":{"bucket":"multi_tool","tenant":"a","seed":"11"}}`
	x := postT(t, url+"/v1/chat/completions", body)
	if x.err != nil || x.status != 200 {
		t.Fatalf("status %d, err %v, body %s", x.status, x.err, x.body)
	}
	evs := x.dataEvents()
	if evs[len(evs)-1].data != "[DONE]" {
		t.Fatalf("last event %q, want [DONE]", evs[len(evs)-1].data)
	}
	chunks := evs[:len(evs)-1]
	first := chunks[0].obj()
	if d := mustJSON(path(first, "choices")); d != `[{"delta":{"content":"","role":"assistant"},"finish_reason":null,"index":0}]` {
		t.Errorf("first chunk choices %s", d)
	}
	if first["queue_ms"] == nil {
		t.Errorf("first chunk lacks top-level queue_ms: %s", chunks[0].data)
	}
	usage := chunks[len(chunks)-1].obj()
	if c, _ := usage["choices"].([]any); c == nil || len(c) != 0 || path(usage, "usage.total_tokens") == nil {
		t.Errorf("usage chunk %s", chunks[len(chunks)-1].data)
	}
	fin := chunks[len(chunks)-2].obj()
	if mustJSON(path(fin, "choices")) != `[{"delta":{},"finish_reason":"stop","index":0}]` {
		t.Errorf("final chunk %s", chunks[len(chunks)-2].data)
	}
	var text, reasoning strings.Builder
	args := map[float64]*strings.Builder{}
	names := map[float64]string{}
	phase := 0 // 0 reasoning, 1 tools, 2 content
	for i, e := range chunks[:len(chunks)-1] {
		m := e.obj()
		if m == nil || m["object"] != "chat.completion.chunk" || m["model"] != "gpt-x" || m["id"] != first["id"] {
			t.Fatalf("chunk %d: %s", i, e.data)
		}
		if _, ok := m["server_ms"].(float64); !ok {
			t.Errorf("chunk %d without server_ms", i)
		}
		delta, _ := path(m, "choices").([]any)[0].(map[string]any)["delta"].(map[string]any)
		if s, ok := delta["reasoning_content"].(string); ok {
			reasoning.WriteString(s)
			if phase > 0 {
				t.Errorf("reasoning after tools or content")
			}
		}
		if tcs, ok := delta["tool_calls"].([]any); ok {
			phase = max(phase, 1)
			tc := tcs[0].(map[string]any)
			idx := tc["index"].(float64)
			if n, ok := path(tc, "function.name").(string); ok {
				names[idx] = n
				args[idx] = &strings.Builder{}
				if !strings.HasPrefix(tc["id"].(string), "call_") || tc["type"] != "function" {
					t.Errorf("tool call start %s", e.data)
				}
			}
			args[idx].WriteString(path(tc, "function.arguments").(string))
		}
		if s, ok := delta["content"].(string); ok && i > 0 {
			text.WriteString(s)
			phase = 2
		}
	}
	if reasoning.Len() == 0 || text.Len() == 0 || len(names) < 2 {
		t.Fatalf("reasoning %q, text %q, tools %v", reasoning.String(), text.String(), names)
	}
	for i, a := range args {
		if !json.Valid([]byte(a.String())) {
			t.Errorf("tool %d (%s) arguments %q are not JSON", int(i), names[i], a.String())
		}
	}
	if names[0] != toolRefundRules || names[1] != toolShippingStatus {
		t.Errorf("tools %v", names)
	}
	if !strings.Contains(text.String(), "Next step:") {
		t.Errorf("text %q", text.String())
	}
	if n := path(usage, "usage.completion_tokens_details.reasoning_tokens").(float64); n < 5 {
		t.Errorf("reasoning tokens %v", n)
	}
}

// TestOpenAINoUsage checks that without include_usage no usage chunk is sent
// and that no reasoning is streamed unless asked for.
func TestOpenAINoUsage(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	x := postT(t, url+"/v1/chat/completions", `{"messages":[{"role":"user","content":"hi"}],"bucket":"qa","seed":2,"stream":true}`)
	for _, e := range x.dataEvents() {
		if strings.Contains(e.data, `"usage"`) || strings.Contains(e.data, "reasoning_content") {
			t.Errorf("unexpected chunk %s", e.data)
		}
	}
}
