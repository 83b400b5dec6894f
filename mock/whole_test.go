package mock

import (
	"encoding/json"
	"strings"
	"testing"
)

// streamed is what a client put together from an OpenAI-dialect stream.
type streamed struct {
	id, text, reasoning string
	tools               []string // tool names, in call order
	args                []string // their arguments
	usage               map[string]any
	finish              string
}

// readStream puts an OpenAI chat or legacy completions stream together.
func readStream(t *testing.T, x *exchange) streamed {
	t.Helper()
	if x.err != nil || x.status != 200 || !strings.HasPrefix(x.header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream: status %d, type %q, err %v, body %s", x.status, x.header.Get("Content-Type"), x.err, x.body)
	}
	var s streamed
	var text, reasoning strings.Builder
	for _, e := range x.dataEvents() {
		m := e.obj()
		if m == nil {
			continue
		}
		s.id, _ = m["id"].(string)
		if u, ok := m["usage"].(map[string]any); ok {
			s.usage = u
		}
		choices, _ := m["choices"].([]any)
		if len(choices) != 1 {
			continue
		}
		c := choices[0].(map[string]any)
		if f, ok := c["finish_reason"].(string); ok {
			s.finish = f
		}
		if v, ok := c["text"].(string); ok {
			text.WriteString(v)
		}
		d, _ := c["delta"].(map[string]any)
		if v, ok := d["content"].(string); ok {
			text.WriteString(v)
		}
		if v, ok := d["reasoning_content"].(string); ok {
			reasoning.WriteString(v)
		}
		if tcs, ok := d["tool_calls"].([]any); ok {
			tc := tcs[0].(map[string]any)
			if n, ok := path(tc, "function.name").(string); ok {
				s.tools, s.args = append(s.tools, n), append(s.args, "")
			}
			s.args[len(s.args)-1] += path(tc, "function.arguments").(string)
		}
	}
	s.text, s.reasoning = text.String(), reasoning.String()
	return s
}

// TestWholeMatchesStream sends the same seeded body with "stream": true
// and with stream absent, false or "false", to the chat and the legacy
// completions routes: the whole answer is one JSON object whose text,
// reasoning, tool calls, usage and id are the stream's, sent no earlier
// than the stream would have ended.
func TestWholeMatchesStream(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	_, url := start(t, cfg)
	for _, c := range []struct {
		name, path, body, object, idPrefix string
		d                                  Dialect
	}{
		{"chat", "/v1/chat/completions", `"model":"gpt-x","bucket":"multi_tool","mock_seed":41,"reasoning_effort":"low","messages":[{"role":"user","content":"lost parcel"}]`,
			"chat.completion", "chatcmpl-", OpenAI},
		{"chat qa", "/v1/chat/completions", `"model":"gpt-x","mock_seed":42,"messages":[{"role":"user","content":"return?"}]`,
			"chat.completion", "chatcmpl-", OpenAI},
		{"completions", "/v1/completions", `"model":"gpt-x","bucket":"single_tool","mock_seed":43,"prompt":"Once upon a time"`,
			"text_completion", "cmpl-", Completions},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			want := readStream(t, postT(t, url+c.path, `{`+c.body+`,"stream":true,"stream_options":{"include_usage":true}}`))
			if want.text == "" || want.usage == nil {
				t.Fatalf("stream without text or usage: %+v", want)
			}
			p, err := Plan(c.d, []byte(`{`+c.body+`}`), cfg)
			if err != nil || !p.Whole {
				t.Fatalf("plan: whole %v, err %v", p.Whole, err)
			}
			end := durationMS(p.Events[len(p.Events)-1].At)
			for _, stream := range []string{``, `,"stream":false`, `,"stream":"false"`, `,"stream":null`} {
				x := postT(t, url+c.path, `{`+c.body+stream+`}`)
				if x.err != nil || x.status != 200 || x.header.Get("Content-Type") != "application/json" {
					t.Fatalf("%q: status %d, type %q, err %v", stream, x.status, x.header.Get("Content-Type"), x.err)
				}
				var m map[string]any
				if err := json.Unmarshal(x.body, &m); err != nil {
					t.Fatalf("%q: body is not JSON: %v\n%s", stream, err, x.body)
				}
				checkWhole(t, m, c.object, want)
				if !strings.HasPrefix(want.id, c.idPrefix) {
					t.Errorf("%q: id %q, want prefix %q", stream, want.id, c.idPrefix)
				}
				if got := x.headers.Seconds() * 1000; got < end {
					t.Errorf("%q: answered after %.1f ms, the stream ends at %.1f ms", stream, got, end)
				}
				if sm, _ := m["server_ms"].(float64); sm < end {
					t.Errorf("%q: server_ms %.1f, the stream ends at %.1f ms", stream, sm, end)
				}
				if !strings.HasPrefix(x.header.Get("Server-Timing"), "queue;dur=") {
					t.Errorf("%q: Server-Timing %q", stream, x.header.Get("Server-Timing"))
				}
			}
		})
	}
}

// checkWhole compares a whole answer with the stream it stands for.
func checkWhole(t *testing.T, m map[string]any, object string, want streamed) {
	t.Helper()
	if m["object"] != object || m["id"] != want.id || m["model"] != "gpt-x" {
		t.Errorf("object %v, id %v, model %v; want %s, %s, gpt-x", m["object"], m["id"], m["model"], object, want.id)
	}
	if c, ok := m["created"].(float64); !ok || c < 1.7e9 || c != float64(int64(c)) {
		t.Errorf("created %v, want Unix seconds", m["created"])
	}
	choices, _ := m["choices"].([]any)
	if len(choices) != 1 {
		t.Fatalf("choices %v", m["choices"])
	}
	c := choices[0].(map[string]any)
	if c["index"] != 0.0 || c["finish_reason"] != "stop" || want.finish != "stop" {
		t.Errorf("choice index %v, finish_reason %v (stream %q)", c["index"], c["finish_reason"], want.finish)
	}
	got := streamed{id: want.id, usage: map[string]any{}, finish: want.finish}
	if object == "text_completion" {
		got.text, _ = c["text"].(string)
		if _, ok := c["message"]; ok {
			t.Errorf("a text completion with a message")
		}
	} else {
		msg, _ := c["message"].(map[string]any)
		if msg["role"] != "assistant" {
			t.Errorf("message role %v", msg["role"])
		}
		got.text, _ = msg["content"].(string)
		got.reasoning, _ = msg["reasoning_content"].(string)
		tcs, _ := msg["tool_calls"].([]any)
		for _, tc := range tcs {
			got.tools = append(got.tools, path(tc, "function.name").(string))
			got.args = append(got.args, path(tc, "function.arguments").(string))
			if id, _ := path(tc, "id").(string); !strings.HasPrefix(id, "call_") || path(tc, "type") != "function" {
				t.Errorf("tool call %v", tc)
			}
		}
	}
	if got.text != want.text || got.reasoning != want.reasoning {
		t.Errorf("text %q\nreasoning %q\nwant %q\nand %q", got.text, got.reasoning, want.text, want.reasoning)
	}
	if strings.Join(got.tools, ",") != strings.Join(want.tools, ",") || strings.Join(got.args, "|") != strings.Join(want.args, "|") {
		t.Errorf("tools %v %v, want %v %v", got.tools, got.args, want.tools, want.args)
	}
	u, _ := m["usage"].(map[string]any)
	for _, k := range []string{"prompt_tokens", "completion_tokens", "total_tokens"} {
		if u[k] == nil || u[k] != want.usage[k] {
			t.Errorf("usage.%s %v, stream %v", k, u[k], want.usage[k])
		}
	}
}

// TestWholeTruncated checks that max_tokens cuts a whole answer as it cuts
// the stream: finish_reason "length", the usage at the limit.
func TestWholeTruncated(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	for _, p := range []string{"/v1/chat/completions", "/v1/completions"} {
		x := postT(t, url+p, `{"bucket":"qa","mock_seed":3,"max_tokens":6,"prompt":"hi"}`)
		var m map[string]any
		if err := json.Unmarshal(x.body, &m); err != nil || x.status != 200 {
			t.Fatalf("%s: status %d, body %s", p, x.status, x.body)
		}
		c := m["choices"].([]any)[0]
		if path(c, "finish_reason") != "length" || path(m, "usage.completion_tokens") != 6.0 {
			t.Errorf("%s: finish_reason %v, completion_tokens %v", p, path(c, "finish_reason"), path(m, "usage.completion_tokens"))
		}
		text, _ := path(c, "message.content").(string)
		if p == "/v1/completions" {
			text, _ = path(c, "text").(string)
		}
		if n := countTokens(text); n != 6 {
			t.Errorf("%s: %d tokens of text %q, want 6", p, n, text)
		}
	}
}

// TestWholeFaults checks the faults that change a whole answer: disconnect
// closes the connection without one, malformed_json cuts its closing brace,
// stall delays it, http_error answers as for a stream.
func TestWholeFaults(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	_, url := start(t, cfg)
	for _, p := range []string{"/v1/chat/completions", "/v1/completions"} {
		if x := postT(t, url+p, `{"mock_seed":6,"faults":["disconnect"]}`); x.err == nil || x.status != 0 {
			t.Errorf("%s disconnect: status %d, err %v, want no answer", p, x.status, x.err)
		}
		x := postT(t, url+p, `{"mock_seed":6,"faults":["malformed_json"]}`)
		body := strings.TrimSuffix(string(x.body), "\n")
		if x.status != 200 || json.Valid([]byte(body)) || !json.Valid([]byte(body+"}")) {
			t.Errorf("%s malformed_json: status %d, body %s", p, x.status, x.body)
		}
		if x := postT(t, url+p, `{"faults":["http_error"],"http_error_status":429}`); x.status != 429 ||
			!strings.Contains(string(x.body), `"code":"rate_limit_exceeded"`) || x.header.Get("Retry-After") != "1" {
			t.Errorf("%s http_error: status %d, body %s", p, x.status, x.body)
		}
		if x := postT(t, url+p, `{"mock_seed":6,"faults":["stall"]}`); x.status != 200 || x.headers.Milliseconds() < int64(cfg.StallMS) {
			t.Errorf("%s stall: status %d after %v, want at least %v ms", p, x.status, x.headers, cfg.StallMS)
		}
	}
}
