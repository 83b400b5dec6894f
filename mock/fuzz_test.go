package mock

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseRequest checks that any body is either refused with a
// *RequestError or planned into a well-formed schedule: events in time
// order, ending with the terminal event or a disconnect.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `{"bucket":"multi_tool","faults":["stall","disconnect"],"seed":-3}`,
		`{"metadata":{"bucket":"timeout_recovery","seed":"9","faults":"premature_commit, malformed_json"}}`,
		`{"faults":["http_error"],"http_error_status":"503"}`, `{"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`,
		`{"seed":1e3}`, `{"bucket":null,"tenant":7}`, `[`, `{"prompt":["a","b"],"stream":false,"max_tokens":3}`, `{"stream":"true"}`,
	} {
		f.Add(s)
	}
	cfg := DefaultConfig()
	f.Fuzz(func(t *testing.T, body string) {
		for _, d := range []Dialect{Business, OpenAI, Anthropic, Completions} {
			p, err := Plan(d, []byte(body), cfg)
			if err != nil {
				if _, ok := err.(*RequestError); !ok {
					t.Fatalf("%s %q: error %T %v", d, body, err, err)
				}
				continue
			}
			if p.Status != 200 {
				continue
			}
			last := p.Events[len(p.Events)-1]
			if last.Kind != KindDone && last.Kind != KindDisconnect {
				t.Fatalf("%s %q: last event %+v", d, body, last)
			}
			for i := 1; i < len(p.Events); i++ {
				if p.Events[i].At < p.Events[i-1].At {
					t.Fatalf("%s %q: event %d at %v before %v", d, body, i, p.Events[i].At, p.Events[i-1].At)
				}
			}
		}
	})
}

// FuzzAppendString checks that appendString always produces a JSON string
// that decodes back to the input, each invalid UTF-8 byte replaced by
// U+FFFD.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "quote \" backslash \\ nl \n tab \t", "\x00\x1f\x7f", "€ ü 日本", "bad \xff\xfe utf8", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := appendString(nil, s)
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%q → %s: %v", s, b, err)
		}
		var want strings.Builder
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			want.WriteRune(r)
			i += n
		}
		if back != want.String() {
			t.Fatalf("%q → %s → %q, want %q", s, b, back, want.String())
		}
	})
}
