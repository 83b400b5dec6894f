package sse

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// classifyCase is one event and what classification must make of it.
type classifyCase struct {
	name      string
	dialect   Dialect
	typ, data string
	kind      Kind
	text      string
	reasoning string
	tools     []ToolCall
	usage     Usage
	usageSet  uint8
	errHas    string
}

var classifyCases = []classifyCase{
	// OpenAI.
	{name: "openai role only", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`, kind: Empty},
	{name: "openai null content", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"role":"assistant","content":null}}]}`, kind: Empty},
	{name: "openai empty object", dialect: DialectOpenAI, data: `{}`, kind: Empty},
	{name: "openai whitespace", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"content":" \n\t"}}]}`, kind: Empty, text: " \n\t"},
	{name: "openai nbsp is whitespace", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"content":"\u00a0"}}]}`, kind: Empty, text: "\u00a0"},
	{name: "openai text", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"content":"Hi"}}]}`, kind: Text, text: "Hi"},
	{name: "openai escaped text", dialect: DialectOpenAI, data: `{"choices":[{"delta":{"content":"a\"b\\c\nd\u00e9\ud83d\ude00"}}]}`, kind: Text, text: "a\"b\\c\ndé😀"},
	{name: "openai index after delta", dialect: DialectOpenAI, data: `{"choices":[{"delta":{"content":"x"},"index":1}]}`, kind: Empty},
	{name: "openai second choice ignored", dialect: DialectOpenAI, data: `{"choices":[{"index":1,"delta":{"content":"no"}},{"index":0,"delta":{"content":"yes"}}]}`, kind: Text, text: "yes"},
	{name: "openai reasoning_content", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"reasoning_content":"think"}}]}`, kind: Reasoning, reasoning: "think"},
	{name: "openai reasoning", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"reasoning":"think"}}]}`, kind: Reasoning, reasoning: "think"},
	{name: "openai text wins over reasoning", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"reasoning":"r","content":"t"}}]}`, kind: Text, text: "t", reasoning: "r"},
	{name: "openai tool start", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]}}]}`,
		kind: Tool, tools: []ToolCall{{Index: 0, ID: "call_1", Name: "f"}}},
	{name: "openai tool args", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":"{\"a\":"}}]}}]}`,
		kind: Tool, tools: []ToolCall{{Index: 2, Arguments: `{"a":`}}},
	{name: "openai finish", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`, kind: Empty},
	{name: "openai usage", dialect: DialectOpenAI, data: `{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12,"completion_tokens_details":{"reasoning_tokens":3}}}`,
		kind: State, usage: Usage{5, 7, 3}, usageSet: usageInput | usageOutput | usageReasoning},
	{name: "openai null usage", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"content":"x"}}],"usage":null}`, kind: Text, text: "x"},
	{name: "openai done", dialect: DialectOpenAI, data: `[DONE]`, kind: Done},
	{name: "openai error", dialect: DialectOpenAI, data: `{"error":{"message":"Rate limit","type":"rate_limit_error"}}`, kind: Error, errHas: "rate_limit_error: Rate limit"},
	{name: "openai string error", dialect: DialectOpenAI, data: `{"error":"bad"}`, kind: Error, errHas: "bad"},
	{name: "openai null error", dialect: DialectOpenAI, data: `{"error":null,"choices":[]}`, kind: Empty},
	{name: "openai truncated", dialect: DialectOpenAI, data: `{"choices":[{"index":0,"delta":{"content":"x"`, kind: Invalid},
	{name: "openai trailing garbage", dialect: DialectOpenAI, data: `{"choices":[]} x`, kind: Invalid},
	{name: "openai not json", dialect: DialectOpenAI, data: `hello`, kind: Invalid},
	{name: "openai array", dialect: DialectOpenAI, data: `[1]`, kind: Invalid},
	{name: "openai raw control char", dialect: DialectOpenAI, data: "{\"choices\":[{\"delta\":{\"content\":\"a\x01\"}}]}", kind: Invalid},
	{name: "openai bad escape", dialect: DialectOpenAI, data: `{"choices":[{"delta":{"content":"\x"}}]}`, kind: Invalid},
	{name: "openai legacy text", dialect: DialectOpenAI, data: `{"object":"text_completion","choices":[{"index":0,"text":"old"}]}`, kind: Text, text: "old"},
	{name: "openai ping type", dialect: DialectOpenAI, typ: "ping", data: `{}`, kind: Heartbeat},
	// Anthropic.
	{name: "anthropic message_start", dialect: DialectAnthropic, typ: "message_start", data: `{"type":"message_start","message":{"usage":{"input_tokens":25,"output_tokens":1}}}`,
		kind: State, usage: Usage{InputTokens: 25, OutputTokens: 1}, usageSet: usageInput | usageOutput},
	{name: "anthropic text block start", dialect: DialectAnthropic, typ: "content_block_start", data: `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`, kind: Empty},
	{name: "anthropic tool block start", dialect: DialectAnthropic, typ: "content_block_start", data: `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get","input":{}}}`,
		kind: Tool, tools: []ToolCall{{Index: 1, ID: "toolu_1", Name: "get"}}},
	{name: "anthropic text_delta", dialect: DialectAnthropic, typ: "content_block_delta", data: `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}`, kind: Text, text: "Hi"},
	{name: "anthropic whitespace delta", dialect: DialectAnthropic, typ: "content_block_delta", data: `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"  "}}`, kind: Empty, text: "  "},
	{name: "anthropic thinking_delta", dialect: DialectAnthropic, typ: "content_block_delta", data: `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}`, kind: Reasoning, reasoning: "hmm"},
	{name: "anthropic signature_delta", dialect: DialectAnthropic, typ: "content_block_delta", data: `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"abc"}}`, kind: Empty},
	{name: "anthropic input_json_delta", dialect: DialectAnthropic, typ: "content_block_delta", data: `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"id\":"}}`,
		kind: Tool, tools: []ToolCall{{Index: 1, Arguments: `{"id":`}}},
	{name: "anthropic block stop", dialect: DialectAnthropic, typ: "content_block_stop", data: `{"type":"content_block_stop","index":0}`, kind: Empty},
	{name: "anthropic message_delta", dialect: DialectAnthropic, typ: "message_delta", data: `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":15}}`,
		kind: State, usage: Usage{OutputTokens: 15}, usageSet: usageOutput},
	{name: "anthropic message_stop", dialect: DialectAnthropic, typ: "message_stop", data: `{"type":"message_stop"}`, kind: Done},
	{name: "anthropic ping", dialect: DialectAnthropic, typ: "ping", data: `{"type": "ping"}`, kind: Heartbeat},
	{name: "anthropic ping by data type", dialect: DialectAnthropic, data: `{"type": "ping"}`, kind: Heartbeat},
	{name: "anthropic error", dialect: DialectAnthropic, typ: "error", data: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, kind: Error, errHas: "overloaded_error: Overloaded"},
	{name: "anthropic unknown type", dialect: DialectAnthropic, typ: "future_event", data: `{"type":"future_event","x":1}`, kind: Empty},
	{name: "anthropic invalid", dialect: DialectAnthropic, typ: "content_block_delta", data: `{"type":`, kind: Invalid},
	// Business.
	{name: "business delta", dialect: DialectBusiness, data: `{"delta":"Refund ok"}`, kind: Text, text: "Refund ok"},
	{name: "business empty delta", dialect: DialectBusiness, data: `{"delta":""}`, kind: Empty},
	{name: "business state", dialect: DialectBusiness, data: `{"delta":"","business_state":{"decision":"refund"}}`, kind: State},
	{name: "business empty state", dialect: DialectBusiness, data: `{"business_state":{}}`, kind: Empty},
	{name: "business text and state", dialect: DialectBusiness, data: `{"delta":"x","business_state":{"a":1}}`, kind: Text, text: "x"},
	{name: "business heartbeat type", dialect: DialectBusiness, typ: "keepalive", data: `{}`, kind: Heartbeat},
	{name: "business done type", dialect: DialectBusiness, typ: "done", data: `{"server_ms":3}`, kind: Done},
	{name: "business done member", dialect: DialectBusiness, data: `{"delta":"","done":true}`, kind: Done},
	{name: "business error member", dialect: DialectBusiness, data: `{"error":{"message":"tool timeout"}}`, kind: Error, errHas: "tool timeout"},
	{name: "business error type", dialect: DialectBusiness, typ: "error", data: `upstream failed`, kind: Error, errHas: "upstream failed"},
	{name: "business invalid", dialect: DialectBusiness, data: `{"delta":`, kind: Invalid},
	{name: "business empty data", dialect: DialectBusiness, typ: "open", data: ``, kind: Empty},
	// Raw.
	{name: "raw text", dialect: DialectRaw, data: "Hello", kind: Text, text: "Hello"},
	{name: "raw multi-line", dialect: DialectRaw, data: "a\nb", kind: Text, text: "a\nb"},
	{name: "raw whitespace", dialect: DialectRaw, data: " ", kind: Empty, text: " "},
	{name: "raw json is text", dialect: DialectRaw, data: `{"a":1}`, kind: Text, text: `{"a":1}`},
	{name: "raw done", dialect: DialectRaw, data: "[DONE]", kind: Done},
	{name: "raw heartbeat type", dialect: DialectRaw, typ: "heartbeat", data: "x", kind: Heartbeat},
}

// TestClassify checks one event per row in its dialect.
func TestClassify(t *testing.T) {
	for _, tc := range classifyCases {
		t.Run(tc.name, func(t *testing.T) {
			ev := classifyOne(tc.dialect, tc.typ, tc.data)
			if ev.Kind != tc.kind || ev.Text != tc.text || ev.Reasoning != tc.reasoning {
				t.Errorf("kind %s text %q reasoning %q; want %s %q %q (error %q)", ev.Kind, ev.Text, ev.Reasoning, tc.kind, tc.text, tc.reasoning, ev.Error)
			}
			if len(tc.tools) > 0 || len(ev.Tools) > 0 {
				if !reflect.DeepEqual(ev.Tools, tc.tools) {
					t.Errorf("tools %+v, want %+v", ev.Tools, tc.tools)
				}
			}
			if ev.usage != tc.usage || ev.usageSet != tc.usageSet {
				t.Errorf("usage %+v/%b, want %+v/%b", ev.usage, ev.usageSet, tc.usage, tc.usageSet)
			}
			if !strings.Contains(ev.Error, tc.errHas) {
				t.Errorf("error %q, want it to contain %q", ev.Error, tc.errHas)
			}
		})
	}
}

// classifyOne classifies one event with a fresh classifier.
func classifyOne(d Dialect, typ, data string) *Event {
	if typ == "" {
		typ = "message"
	}
	ev := &Event{Type: typ, Data: data}
	NewClassifier(d).Classify(ev)
	return ev
}

// TestDetectDialect checks the auto-detection rule, event by event.
func TestDetectDialect(t *testing.T) {
	cases := []struct {
		name      string
		typ, data string
		want      Dialect
	}{
		{"anthropic event type", "message_start", `{}`, DialectAnthropic},
		{"anthropic data type", "message", `{"type":"content_block_delta","delta":{}}`, DialectAnthropic},
		{"anthropic wins over delta", "message", `{"delta":{},"type":"content_block_delta"}`, DialectAnthropic},
		{"openai done", "message", `[DONE]`, DialectOpenAI},
		{"openai choices", "message", `{"id":"x","choices":[]}`, DialectOpenAI},
		{"openai object", "message", `{"object":"chat.completion.chunk"}`, DialectOpenAI},
		{"business delta", "message", `{"delta":"hi"}`, DialectBusiness},
		{"business state", "message", `{"business_state":{}}`, DialectBusiness},
		{"raw text", "message", `hello there`, DialectRaw},
		{"raw broken json", "message", `{"delta":`, DialectRaw},
		{"undecided meta", "meta", `{"queue_ms":3}`, ""},
		{"undecided empty object", "message", `{}`, ""},
		{"undecided error", "message", `{"error":"x"}`, ""},
		{"undecided empty data", "message", ``, ""},
		{"undecided ping", "ping", `hello`, ""},
		{"undecided json scalar", "message", `42`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := detectDialect(tc.typ, tc.data); got != tc.want {
				t.Errorf("detectDialect = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestAutoKeepsDecision checks that auto mode decides once and keeps its
// decision, classifying undecided events by the business rules.
func TestAutoKeepsDecision(t *testing.T) {
	c := NewClassifier(DialectAuto)
	ev := &Event{Type: "meta", Data: `{"queue_ms":3}`}
	c.Classify(ev)
	if c.Dialect() != DialectAuto || ev.Kind != Empty {
		t.Fatalf("after meta: %s %s", c.Dialect(), ev.Kind)
	}
	c.Classify(&Event{Type: "message", Data: `{"choices":[]}`})
	ev = &Event{Type: "message", Data: `{"delta":"x"}`}
	c.Classify(ev)
	if c.Dialect() != DialectOpenAI || ev.Kind != Empty {
		t.Errorf("after openai: %s, business-shaped event is %s", c.Dialect(), ev.Kind)
	}
}

// TestKindNames checks String and ParseKind agree.
func TestKindNames(t *testing.T) {
	for k := range Kind(KindCount) {
		if got, ok := ParseKind(k.String()); !ok || got != k {
			t.Errorf("%d: %q", k, k.String())
		}
	}
	if Kind(200).String() != "unknown" {
		t.Error("out of range kind")
	}
	if _, ok := ParseKind("nope"); ok {
		t.Error("ParseKind accepted nope")
	}
}

// FuzzClassify checks that classification never panics, always yields a
// valid kind, and that invalid events carry no content.
func FuzzClassify(f *testing.F) {
	for _, tc := range classifyCases {
		f.Add(string(tc.dialect), tc.typ, tc.data)
	}
	f.Fuzz(func(t *testing.T, dialect, typ, data string) {
		d, err := ParseDialect(dialect)
		if err != nil {
			d = DialectAuto
		}
		ev := classifyOne(d, typ, data)
		if int(ev.Kind) >= KindCount {
			t.Fatalf("kind %d", ev.Kind)
		}
		if ev.Kind == Invalid && (ev.Text != "" || ev.Reasoning != "" || len(ev.Tools) > 0 || ev.State != nil) {
			t.Fatalf("invalid event carries content: %+v", ev)
		}
		if ev.Kind == Text && !hasVisible(ev.Text) {
			t.Fatalf("text event without visible text: %q", ev.Text)
		}
		c := newContent()
		c.apply(ev)
	})
}

func TestBusinessUsage(t *testing.T) {
	res := readStream(strings.NewReader("data: {\"delta\":\"hi\"}\n\ndata: {\"done\":true,\"usage\":{\"input_tokens\":640,\"output_tokens\":52}}\n\n"),
		&Request{Dialect: DialectBusiness, Pricing: &Pricing{InputPer1M: 1e6, OutputPer1M: 2e6}})
	if res.Usage.InputTokens != 640 || res.Usage.OutputTokens != 52 {
		t.Fatalf("usage = %+v", res.Usage)
	}
	if res.Cost != 640+104 {
		t.Fatalf("cost = %v", res.Cost)
	}
	if res.Timings.Complete == nil {
		t.Fatal("the done event completes the stream")
	}
}

// TestStateDeltaMaps checks the state deltas of a business stream: merged
// the same whether the events' maps are reused (no callback sees them) or
// not, an invalid event's partial delta left out of the next one, and each
// delta an OnEvent callback was given intact after later events were read.
func TestStateDeltaMaps(t *testing.T) {
	body := `data: {"business_state": {"status": "thinking", "n": 1}}

data: {"delta": "Sure", "business_state": {"decision": "refund", "refund": {"amount": 4}}}

data: {"delta": " thing", "business_state": {"n": 2, "refund": {"currency": "EUR"}, "bad": tru}}

data: {"business_state": {"reason": "policy", "status": null}}

data: {"done": true}

`
	// The third event is invalid JSON: nothing of it is merged, though
	// part of its state was decoded before the error.
	want := `{"decision":"refund","n":1,"reason":"policy","refund":{"amount":4},"status":null}`
	plain := readStream(strings.NewReader(body), &Request{Dialect: DialectBusiness})
	var deltas []map[string]any
	called := readStream(strings.NewReader(body), &Request{Dialect: DialectBusiness, OnEvent: func(ev *Event) error {
		if ev.State != nil {
			deltas = append(deltas, ev.State)
		}
		return nil
	}})
	for name, res := range map[string]*Result{"reused": plain, "with a callback": called} {
		got, _ := json.Marshal(res.State)
		if res.Failed() || string(got) != want {
			t.Errorf("%s: state %s (%s), want %s", name, got, res.Error, want)
		}
	}
	got, _ := json.Marshal(deltas)
	if wantDeltas := `[{"n":1,"status":"thinking"},{"decision":"refund","refund":{"amount":4}},{"reason":"policy","status":null}]`; string(got) != wantDeltas {
		t.Errorf("deltas the callback kept: %s, want %s", got, wantDeltas)
	}
}
