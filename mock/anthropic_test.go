package mock

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAnthropicStream checks the Messages event sequence against the
// reference: event name equals data.type; message_start with input
// tokens, ping, thinking/tool_use/text blocks each opened, streamed and
// closed with matching indices, message_delta with stop_reason and output
// tokens, message_stop last.
func TestAnthropicStream(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	body := `{"model":"claude-x","max_tokens":1024,"stream":true,"thinking":{"type":"enabled","budget_tokens":1024},
		"messages":[{"role":"user","content":[{"type":"text","text":"Refund for my order?"}]}],
		"metadata":{"bucket":"single_tool","seed":"9"}}`
	x := postT(t, url+"/v1/messages", body)
	if x.err != nil || x.status != 200 {
		t.Fatalf("status %d, err %v, body %s", x.status, x.err, x.body)
	}
	evs := x.dataEvents()
	var seq []string
	open := -1
	blocks := map[int]string{}
	var text, thinking, input strings.Builder
	for i, e := range evs {
		m := e.obj()
		if m == nil || m["type"] != e.typ {
			t.Fatalf("event %d: event %q, data %s", i, e.typ, e.data)
		}
		if _, ok := m["server_ms"].(float64); !ok {
			t.Errorf("event %d without server_ms", i)
		}
		idx := -1
		if v, ok := m["index"].(float64); ok {
			idx = int(v)
		}
		switch e.typ {
		case "message_start":
			if path(m, "message.usage.input_tokens") == nil || path(m, "message.role") != "assistant" || path(m, "message.model") != "claude-x" {
				t.Errorf("message_start %s", e.data)
			}
		case "content_block_start":
			if open != -1 || idx != len(blocks) {
				t.Errorf("block %d starts while %d open", idx, open)
			}
			open = idx
			blocks[idx] = path(m, "content_block.type").(string)
			if blocks[idx] == "tool_use" && (path(m, "content_block.name") != toolRefundRules || !strings.HasPrefix(path(m, "content_block.id").(string), "toolu_")) {
				t.Errorf("tool_use start %s", e.data)
			}
		case "content_block_delta":
			if idx != open {
				t.Errorf("delta for block %d while %d open", idx, open)
			}
			switch dt := path(m, "delta.type"); dt {
			case "text_delta":
				text.WriteString(path(m, "delta.text").(string))
			case "thinking_delta":
				thinking.WriteString(path(m, "delta.thinking").(string))
			case "input_json_delta":
				input.WriteString(path(m, "delta.partial_json").(string))
			case "signature_delta":
			default:
				t.Errorf("delta type %v", dt)
			}
		case "content_block_stop":
			if idx != open {
				t.Errorf("stop of block %d while %d open", idx, open)
			}
			open = -1
		case "message_delta":
			if path(m, "delta.stop_reason") != "end_turn" || path(m, "usage.output_tokens").(float64) < 20 {
				t.Errorf("message_delta %s", e.data)
			}
		}
		if e.typ != "ping" && e.typ != "content_block_delta" {
			seq = append(seq, e.typ)
		}
	}
	if seq[0] != "message_start" || seq[len(seq)-1] != "message_stop" || seq[len(seq)-2] != "message_delta" {
		t.Errorf("sequence %v", seq)
	}
	if blocks[0] != "thinking" || blocks[1] != "tool_use" || blocks[2] != "text" || open != -1 {
		t.Errorf("blocks %v, open %d", blocks, open)
	}
	if !json.Valid([]byte(input.String())) || thinking.Len() == 0 || !strings.Contains(text.String(), "Next step:") {
		t.Errorf("input %q, thinking %q, text %q", input.String(), thinking.String(), text.String())
	}
	if evs[1].typ != "ping" {
		t.Errorf("second event %q, want ping", evs[1].typ)
	}
}
