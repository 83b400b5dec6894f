package sse

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fixtureWant is what reading a fixture must produce.
type fixtureWant struct {
	dialect   Dialect
	code      string
	text      string
	reasoning string
	kinds     map[Kind]int
	tools     []ToolCall
	usage     Usage
	state     map[string]any
}

var fixtureTable = []struct {
	file string
	want fixtureWant
}{
	{"openai_chat.sse", fixtureWant{
		dialect: DialectOpenAI,
		text:    "Your order can be refunded.\nClick \"Refund\" — next.",
		kinds:   map[Kind]int{Heartbeat: 1, Empty: 2, Text: 4, State: 1, Done: 1},
		usage:   Usage{InputTokens: 19, OutputTokens: 10},
	}},
	{"openai_reasoning.sse", fixtureWant{
		dialect: DialectOpenAI, text: " Refund approved.", reasoning: "The user asks about a refund.",
		kinds: map[Kind]int{Empty: 2, Reasoning: 2, Text: 1, State: 1, Done: 1},
		usage: Usage{InputTokens: 12, OutputTokens: 40, ReasoningTokens: 31},
	}},
	{"openai_tools.sse", fixtureWant{
		dialect: DialectOpenAI,
		kinds:   map[Kind]int{Tool: 5, Empty: 1, Done: 1},
		tools: []ToolCall{
			{Index: 0, ID: "call_order", Name: "get_order", Arguments: `{"order_id": "A1"}`},
			{Index: 1, ID: "call_policy", Name: "refund_policy", Arguments: `{}`},
		},
	}},
	{"openai_error.sse", fixtureWant{
		dialect: DialectOpenAI, code: CodeStreamError, text: "Let me",
		kinds: map[Kind]int{Empty: 1, Text: 1, Error: 1},
	}},
	{"anthropic_messages.sse", fixtureWant{
		dialect: DialectAnthropic, text: "Okay, let's check your order.", reasoning: "Check the order first.",
		kinds: map[Kind]int{State: 2, Empty: 6, Heartbeat: 1, Reasoning: 1, Text: 2, Tool: 4, Done: 1},
		tools: []ToolCall{{Index: 2, ID: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", Name: "get_order", Arguments: `{"order_id": "A1"}`}},
		usage: Usage{InputTokens: 472, OutputTokens: 89},
	}},
	{"anthropic_error.sse", fixtureWant{
		dialect: DialectAnthropic, code: CodeStreamError,
		kinds: map[Kind]int{State: 1, Error: 1},
		usage: Usage{InputTokens: 10, OutputTokens: 1},
	}},
	{"business.sse", fixtureWant{
		dialect: DialectBusiness,
		text:    "We checked order A1. It can be refunded because it arrived damaged. Next: click Refund.",
		kinds:   map[Kind]int{State: 1, Heartbeat: 2, Empty: 1, Text: 4, Done: 1},
		state: map[string]any{"decision": "refund", "reason": "damaged", "next_step": "click_refund",
			"refund": map[string]any{"amount": 42.5, "currency": "EUR"}},
	}},
	{"raw.sse", fixtureWant{
		dialect: DialectRaw, text: "Hello worldline one\nline two",
		kinds: map[Kind]int{Text: 3, Done: 1},
	}},
}

// readFixture returns a fixture's bytes.
func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFixtures reads every dialect fixture in its own dialect and in auto.
func TestFixtures(t *testing.T) {
	for _, tc := range fixtureTable {
		for _, d := range []Dialect{tc.want.dialect, DialectAuto} {
			t.Run(tc.file+"/"+string(d), func(t *testing.T) {
				res := readStream(strings.NewReader(readFixture(t, tc.file)), &Request{Dialect: d})
				checkFixture(t, res, tc.want)
			})
		}
	}
}

// checkFixture compares a result with a fixture's expectations.
func checkFixture(t *testing.T, res *Result, w fixtureWant) {
	t.Helper()
	if res.ErrorCode != w.code {
		t.Errorf("error code %q (%s), want %q", res.ErrorCode, res.Error, w.code)
	}
	if res.Dialect != w.dialect {
		t.Errorf("dialect %q, want %q", res.Dialect, w.dialect)
	}
	if res.Text != w.text {
		t.Errorf("text %q, want %q", res.Text, w.text)
	}
	if res.Reasoning != w.reasoning {
		t.Errorf("reasoning %q, want %q", res.Reasoning, w.reasoning)
	}
	var kinds KindCounts
	for k, n := range w.kinds {
		kinds[k] = n
	}
	if res.EventsByKind != kinds {
		t.Errorf("kinds %v, want %v", res.EventsByKind.Map(), kinds.Map())
	}
	if len(w.tools) > 0 || len(res.ToolCalls) > 0 {
		if !reflect.DeepEqual(res.ToolCalls, w.tools) {
			t.Errorf("tools %+v, want %+v", res.ToolCalls, w.tools)
		}
	}
	if res.Usage != w.usage {
		t.Errorf("usage %+v, want %+v", res.Usage, w.usage)
	}
	if w.state != nil && !reflect.DeepEqual(res.State, w.state) {
		t.Errorf("state %v, want %v", res.State, w.state)
	}
}
