package mock

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRoundTrip sends one request per dialect and bucket (concurrently) and
// compares what the client received with the Plan of the same body: the
// same number of events, each one's server_ms equal to its planned offset
// plus the reported queue time (within 50 ms), and, in the business
// dialect, the moment decision, reason and next_step were all known equal
// to the plan's useful mark.
func TestRoundTrip(t *testing.T) {
	cfg := fastConfig()
	_, url := start(t, cfg)
	for _, d := range []struct {
		d    Dialect
		path string
	}{{Business, "/chat"}, {OpenAI, "/v1/chat/completions"}, {Anthropic, "/v1/messages"}} {
		for _, b := range BucketNames {
			t.Run(string(d.d)+"/"+b, func(t *testing.T) {
				t.Parallel()
				body := `{"bucket":"` + b + `","seed":31,"reasoning":true,"stream_options":{"include_usage":true}}`
				p, err := Plan(d.d, []byte(body), cfg)
				if err != nil {
					t.Fatal(err)
				}
				x := postT(t, url+d.path, body)
				if len(x.events) != len(p.Events) {
					t.Fatalf("%d events, plan %d", len(x.events), len(p.Events))
				}
				queue := queueMS(x)
				state := map[string]any{}
				useful := -1.0
				for i, e := range x.events {
					pe := p.Events[i]
					if e.isComment() != (pe.Type == "comment") || (d.d == Anthropic && e.typ != pe.Type && !e.isComment()) {
						t.Fatalf("event %d: got %q %q, plan %+v", i, e.typ, e.data, pe)
					}
					sm := e.serverMS()
					if sm < 0 {
						continue
					}
					if late := sm - queue - durationMS(pe.At); late < -0.01 || late > 50 {
						t.Errorf("event %d (%s): server_ms %.3f, plan %.3f + queue %.3f", i, pe.Kind, sm, durationMS(pe.At), queue)
					}
					if s, ok := e.obj()["business_state"].(map[string]any); ok {
						merge(state, s)
						if useful < 0 && state["decision"] != nil && state["reason"] != nil && state["next_step"] != nil {
							useful = sm
						}
					}
				}
				if d.d == Business {
					want := durationMS(p.Marks["useful"]) + queue
					if useful < want-0.01 || useful > want+50 {
						t.Errorf("useful at server_ms %.3f, plan %.3f", useful, want)
					}
				}
			})
		}
	}
}

// queueMS returns the queue time the first event reported.
func queueMS(x *exchange) float64 {
	for _, e := range x.dataEvents() {
		m := e.obj()
		if q, ok := m["queue_ms"].(float64); ok {
			return q
		}
		if q, ok := path(m, "business_state.queue_ms").(float64); ok {
			return q
		}
		return 0
	}
	return 0
}

// FuzzParseRequest checks that any body is either refused with a
// *RequestError or planned into a well-formed schedule.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `{"bucket":"multi_tool","faults":["stall","disconnect"],"seed":-3}`,
		`{"metadata":{"bucket":"timeout_recovery","seed":"9","faults":"premature_commit, malformed_json"}}`,
		`{"faults":["http_error"],"http_error_status":"503"}`, `{"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`,
		`{"seed":1e3}`, `{"bucket":null,"tenant":7}`, `[`,
	} {
		f.Add(s)
	}
	cfg := DefaultConfig()
	f.Fuzz(func(t *testing.T, body string) {
		for _, d := range []Dialect{Business, OpenAI, Anthropic} {
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
