package mock

import (
	"encoding/json"
	"testing"
)

// TestMaxTokensTruncates checks that OpenAI max_tokens and
// max_completion_tokens (chat and legacy completions) and Anthropic
// max_tokens end the stream after that
// many generated tokens (content, reasoning and tool-argument deltas), with
// finish_reason "length" / stop_reason "max_tokens" and the usage to match,
// and that a limit above the answer changes nothing.
func TestMaxTokensTruncates(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	for _, c := range []struct {
		name, path, body string
		tokens           int
		reason           string
	}{
		{"openai max_tokens", "/v1/chat/completions", `{"bucket":"single_tool","mock_seed":3,"stream":true,"max_tokens":12,"stream_options":{"include_usage":true}}`, 12, "length"},
		{"openai max_completion_tokens", "/v1/chat/completions", `{"bucket":"qa","mock_seed":3,"stream":true,"reasoning_effort":"high","max_completion_tokens":5,"stream_options":{"include_usage":true}}`, 5, "length"},
		{"openai both, the smaller wins", "/v1/chat/completions", `{"bucket":"qa","mock_seed":3,"stream":true,"max_tokens":9,"max_completion_tokens":30,"stream_options":{"include_usage":true}}`, 9, "length"},
		{"openai above the answer", "/v1/chat/completions", `{"bucket":"qa","mock_seed":3,"stream":true,"max_tokens":100000,"stream_options":{"include_usage":true}}`, -1, "stop"},
		{"completions max_tokens", "/v1/completions", `{"bucket":"qa","mock_seed":3,"prompt":"hi","max_tokens":7,"stream":true,"stream_options":{"include_usage":true}}`, 7, "length"},
		{"completions above the answer", "/v1/completions", `{"bucket":"qa","mock_seed":3,"prompt":"hi","max_tokens":500,"stream":true,"stream_options":{"include_usage":true}}`, -1, "stop"},
		{"anthropic max_tokens", "/v1/messages", `{"bucket":"multi_tool","mock_seed":3,"max_tokens":20}`, 20, "max_tokens"},
		{"anthropic above the answer", "/v1/messages", `{"bucket":"qa","mock_seed":3,"max_tokens":4096}`, -1, "end_turn"},
	} {
		x := postT(t, url+c.path, c.body)
		if x.err != nil || x.status != 200 {
			t.Fatalf("%s: status %d, err %v, body %s", c.name, x.status, x.err, x.body)
		}
		tokens, reason, usage := 0, "", -1
		for _, e := range x.dataEvents() {
			m := e.obj()
			switch {
			case path(m, "delta.type") == "text_delta" || path(m, "delta.type") == "thinking_delta" || path(m, "delta.type") == "input_json_delta":
				tokens++
			case path(m, "type") == "message_delta":
				reason, _ = path(m, "delta.stop_reason").(string)
				usage = int(path(m, "usage.output_tokens").(float64))
			case path(m, "usage.completion_tokens") != nil:
				usage = int(path(m, "usage.completion_tokens").(float64))
			}
			var ch struct {
				Choices []struct {
					Delta        map[string]json.RawMessage `json:"delta"`
					Text         string                     `json:"text"`
					FinishReason *string                    `json:"finish_reason"`
				} `json:"choices"`
			}
			if json.Unmarshal([]byte(e.data), &ch) == nil && len(ch.Choices) == 1 {
				d := ch.Choices[0].Delta
				if isTokenDelta(d) || ch.Choices[0].Text != "" {
					tokens++
				}
				if ch.Choices[0].FinishReason != nil {
					reason = *ch.Choices[0].FinishReason
				}
			}
		}
		if reason != c.reason {
			t.Errorf("%s: finish %q, want %q", c.name, reason, c.reason)
		}
		if c.tokens >= 0 && (tokens != c.tokens || usage != c.tokens) {
			t.Errorf("%s: %d token events, usage %d, want %d", c.name, tokens, usage, c.tokens)
		}
		if c.tokens < 0 && usage != tokens {
			t.Errorf("%s: %d token events, usage %d", c.name, tokens, usage)
		}
	}
	for _, body := range []string{`{"max_tokens":0}`, `{"max_completion_tokens":"x"}`, `{"max_tokens":-3}`} {
		if x := postT(t, url+"/v1/chat/completions", body); x.status != 400 {
			t.Errorf("%s: status %d, want 400", body, x.status)
		}
	}
}

// isTokenDelta reports whether an OpenAI delta carries one generated token:
// reasoning_content, non-empty content (not the role-only chunk) or a
// tool-argument fragment (not the chunk that starts the call).
func isTokenDelta(d map[string]json.RawMessage) bool {
	_, reasoning := d["reasoning_content"]
	content := len(d["content"]) > len(`""`) && d["role"] == nil
	args := d["tool_calls"] != nil && !hasToolID(d["tool_calls"])
	return reasoning || content || args
}

// hasToolID reports whether an OpenAI tool_calls delta starts a call (it
// carries the id and name, not an argument fragment).
func hasToolID(raw json.RawMessage) bool {
	var calls []struct {
		ID string `json:"id"`
	}
	return json.Unmarshal(raw, &calls) == nil && len(calls) > 0 && calls[0].ID != ""
}
