package mock

import (
	"testing"
)

// TestScheduleMatchesWire sends one request per dialect and bucket
// (concurrently) and compares the raw SSE the client received with the Plan
// of the same body, event by event: the same events in the same order
// (comments where heartbeats are planned, Anthropic event names), each
// one's server_ms equal to its planned offset plus the reported queue time
// (within 50 ms), and, in the business dialect, the moment decision, reason
// and next_step were all known equal to the plan's useful mark.
func TestScheduleMatchesWire(t *testing.T) {
	cfg := fastConfig()
	_, url := start(t, cfg)
	for _, d := range []struct {
		d    Dialect
		path string
	}{{Business, "/chat"}, {OpenAI, "/v1/chat/completions"}, {Anthropic, "/v1/messages"}, {Completions, "/v1/completions"}} {
		for _, b := range BucketNames {
			t.Run(string(d.d)+"/"+b, func(t *testing.T) {
				t.Parallel()
				body := `{"bucket":"` + b + `","mock_seed":31,"reasoning":true,"stream":true,"stream_options":{"include_usage":true}}`
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
	events := x.dataEvents()
	if len(events) == 0 {
		return 0
	}
	m := events[0].obj()
	if q, ok := m["queue_ms"].(float64); ok {
		return q
	}
	q, _ := path(m, "business_state.queue_ms").(float64)
	return q
}
