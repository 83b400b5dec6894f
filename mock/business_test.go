package mock

import (
	"strings"
	"testing"
)

// TestBusinessStream checks the business dialect end to end for every
// bucket: a first event with queue_ms, state deltas as they become known,
// text deltas, heartbeats while tools run, a done event, server_ms on every
// event, and the merged state of a useful answer.
func TestBusinessStream(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	for _, b := range BucketNames {
		t.Run(b, func(t *testing.T) {
			x := postT(t, url+"/chat", `{"bucket":"`+b+`","tenant":"acme","question":"Can I get a refund?","seed":3}`)
			if x.err != nil || x.status != 200 {
				t.Fatalf("status %d, err %v, body %s", x.status, x.err, x.body)
			}
			if ct := x.header.Get("Content-Type"); ct != "text/event-stream" {
				t.Errorf("Content-Type %q", ct)
			}
			evs := x.dataEvents()
			first := evs[0].obj()
			if first["delta"] != "" || path(first, "business_state.queue_ms") == nil {
				t.Errorf("first event %s: want an empty delta with business_state.queue_ms", evs[0].data)
			}
			state := map[string]any{}
			var text strings.Builder
			for i, e := range evs {
				m := e.obj()
				if m == nil {
					t.Fatalf("event %d is not a JSON object: %s", i, e.data)
				}
				if _, ok := m["server_ms"].(float64); !ok {
					t.Errorf("event %d has no server_ms: %s", i, e.data)
				}
				if s, ok := m["business_state"].(map[string]any); ok {
					merge(state, s)
				}
				if d, ok := m["delta"].(string); ok {
					text.WriteString(d)
				}
				if (m["done"] == true) != (i == len(evs)-1) {
					t.Errorf("event %d: done %v, last is %d", i, m["done"], len(evs)-1)
				}
			}
			if path(evs[len(evs)-1].obj(), "usage.output_tokens") == nil {
				t.Errorf("done event without usage: %s", evs[len(evs)-1].data)
			}
			for _, k := range []string{"intent", "decision", "reason", "next_step", "safety.status"} {
				if path(state, k) == nil {
					t.Errorf("merged state lacks %s: %v", k, state)
				}
			}
			switch b {
			case BucketSingleTool, BucketMultiTool:
				if path(state, "tools.refund_rules.status") != "ok" || state["verified"] != true {
					t.Errorf("tool state %v", state)
				}
			case BucketTimeoutRecovery:
				if path(state, "tools.refund_rules.status") != "timeout" || path(state, "handoff.ticket") == nil || state["decision"] != "handoff" {
					t.Errorf("timeout state %v", state)
				}
			case BucketRetrieval:
				if path(state, "retrieval.status") != "ok" {
					t.Errorf("retrieval state %v", state)
				}
			}
			if b != BucketQA && b != BucketRetrieval && x.comments() == 0 {
				t.Errorf("no heartbeat comment while tools ran")
			}
			if len(strings.Fields(text.String())) < 20 {
				t.Errorf("answer too short: %q", text.String())
			}
		})
	}
}

// TestHeartbeatComments checks the heartbeat wire form.
func TestHeartbeatComments(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	x := postT(t, url+"/chat", `{"bucket":"single_tool","seed":1}`)
	for _, e := range x.events {
		if e.isComment() && e.comment != "ping" {
			t.Errorf("heartbeat %q, want \": ping\"", e.comment)
		}
	}
}
