package mock

import (
	"strings"
	"testing"
)

// TestCompletionsStream checks the legacy text_completion chunk sequence:
// a first chunk with empty text and queue_ms, text chunks, a final chunk
// with finish_reason, the usage chunk with choices [] and [DONE]; no
// reasoning or tool calls even when asked for.
func TestCompletionsStream(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	body := `{"model":"davinci-x","prompt":["My parcel is lost"],"stream":true,"stream_options":{"include_usage":true},
		"reasoning":true,"bucket":"multi_tool","mock_seed":5}`
	x := postT(t, url+"/v1/completions", body)
	if x.err != nil || x.status != 200 {
		t.Fatalf("status %d, err %v, body %s", x.status, x.err, x.body)
	}
	evs := x.dataEvents()
	if evs[len(evs)-1].data != "[DONE]" {
		t.Fatalf("last event %q, want [DONE]", evs[len(evs)-1].data)
	}
	chunks := evs[:len(evs)-1]
	first, usage, fin := chunks[0].obj(), chunks[len(chunks)-1].obj(), chunks[len(chunks)-2].obj()
	if mustJSON(first["choices"]) != `[{"finish_reason":null,"index":0,"logprobs":null,"text":""}]` || first["queue_ms"] == nil {
		t.Errorf("first chunk %s", chunks[0].data)
	}
	if mustJSON(fin["choices"]) != `[{"finish_reason":"stop","index":0,"logprobs":null,"text":""}]` {
		t.Errorf("final chunk %s", chunks[len(chunks)-2].data)
	}
	c, _ := usage["choices"].([]any)
	if c == nil || len(c) != 0 || path(usage, "usage.total_tokens") != path(usage, "usage.prompt_tokens").(float64)+path(usage, "usage.completion_tokens").(float64) {
		t.Errorf("usage chunk %s", chunks[len(chunks)-1].data)
	}
	var text strings.Builder
	for i, e := range chunks {
		m := e.obj()
		id, _ := m["id"].(string)
		if m["object"] != "text_completion" || m["model"] != "davinci-x" || id != first["id"] || !strings.HasPrefix(id, "cmpl-") {
			t.Fatalf("chunk %d: %s", i, e.data)
		}
		if _, ok := m["created"].(float64); !ok {
			t.Errorf("chunk %d without created", i)
		}
		if _, ok := m["server_ms"].(float64); !ok {
			t.Errorf("chunk %d without server_ms", i)
		}
		if strings.Contains(e.data, "tool_calls") || strings.Contains(e.data, "reasoning") || strings.Contains(e.data, "delta") {
			t.Errorf("chunk %d is not a text completion: %s", i, e.data)
		}
		if i > 0 && i < len(chunks)-2 {
			if path(m, "choices") == nil || m["choices"].([]any)[0].(map[string]any)["finish_reason"] != nil {
				t.Errorf("chunk %d: %s", i, e.data)
			}
			text.WriteString(m["choices"].([]any)[0].(map[string]any)["text"].(string))
		}
	}
	if !strings.Contains(text.String(), "Next step:") || !strings.HasPrefix(text.String(), "Your refund") {
		t.Errorf("text %q", text.String())
	}
	if n := path(usage, "usage.prompt_tokens").(float64); n <= float64(promptTokens[BucketMultiTool]) {
		t.Errorf("prompt_tokens %v: the prompt is not counted", n)
	}
}
