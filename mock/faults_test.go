package mock

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// firstIndex returns the index of the first data event whose merged-state
// delta has a value at p (equal to want when want is not nil), or -1.
func firstIndex(evs []sseEvent, p string, want any) int {
	for i, e := range evs {
		v := path(e.obj(), "business_state."+p)
		if v != nil && (want == nil || v == want) {
			return i
		}
	}
	return -1
}

func TestFaultPrematureCommit(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	for _, f := range []string{"", FaultPrematureCommit} {
		evs := postT(t, url+"/chat", `{"bucket":"single_tool","seed":5,"faults":["`+f+`"]}`).dataEvents()
		decision, verified := firstIndex(evs, "decision", nil), firstIndex(evs, "verified", true)
		if decision < 0 || verified < 0 {
			t.Fatalf("%q: decision at %d, verified at %d", f, decision, verified)
		}
		if premature := decision < verified; premature != (f != "") {
			t.Errorf("fault %q: decision at event %d, verified at %d", f, decision, verified)
		}
	}
	evs := postT(t, url+"/chat", `{"bucket":"timeout_recovery","seed":5,"faults":["premature_commit"]}`).dataEvents()
	approved, timeout := firstIndex(evs, "decision", "refund_approved"), firstIndex(evs, "tools.refund_rules.status", "timeout")
	if approved < 0 || approved > timeout {
		t.Errorf("timeout_recovery: refund_approved at %d, tool timeout at %d", approved, timeout)
	}
}

func TestFaultSlowFallback(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	for _, f := range []string{"", FaultSlowFallback} {
		evs := postT(t, url+"/chat", `{"bucket":"timeout_recovery","seed":8,"faults":["`+f+`"]}`).dataEvents()
		timeout, handoff := firstIndex(evs, "tools.refund_rules.status", "timeout"), firstIndex(evs, "handoff", nil)
		if timeout < 0 || handoff < 0 {
			t.Fatalf("%q: timeout at %d, handoff at %d", f, timeout, handoff)
		}
		gap := evs[handoff].serverMS() - evs[timeout].serverMS()
		if slow := gap > 1000; slow != (f != "") {
			t.Errorf("fault %q: fallback %.1f ms after the timeout", f, gap)
		}
	}
}

func TestFaultDisconnect(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	_, url := start(t, cfg)
	for _, d := range []struct {
		d    Dialect
		path string
	}{{Business, "/chat"}, {OpenAI, "/v1/chat/completions"}, {Anthropic, "/v1/messages"}, {Completions, "/v1/completions"}} {
		body := `{"bucket":"qa","mock_seed":6,"faults":["disconnect"],"stream":true}`
		x := postT(t, url+d.path, body)
		if !errors.Is(x.err, io.ErrUnexpectedEOF) {
			t.Errorf("%s: stream ended with %v, want an unexpected EOF", d.d, x.err)
		}
		p, _ := Plan(d.d, []byte(body), cfg)
		if last := p.Events[len(p.Events)-1]; last.Kind != KindDisconnect {
			t.Fatalf("%s: plan ends with %+v", d.d, last)
		}
		if _, ok := p.Marks["complete"]; ok || len(x.events) != len(p.Events)-1 {
			t.Errorf("%s: %d events received, plan %d before the cut; marks %v", d.d, len(x.events), len(p.Events)-1, p.Marks)
		}
		if !strings.Contains(p.Text(), " ") || strings.Contains(x.events[len(x.events)-1].data, "[DONE]") {
			t.Errorf("%s: cut in the wrong place", d.d)
		}
	}
}

func TestFaultHTTPError(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	seen := map[int]bool{}
	for seed := range 16 {
		x := postT(t, url+"/chat", `{"faults":["http_error"],"seed":`+itoa(seed)+`}`)
		seen[x.status] = true
		if x.status == 429 && x.header.Get("Retry-After") != "1" {
			t.Errorf("429 without Retry-After")
		}
		if !json.Valid(x.body) || !strings.Contains(string(x.body), `"error"`) {
			t.Errorf("error body %q", x.body)
		}
	}
	if len(seen) != 2 || !seen[429] || !seen[503] {
		t.Errorf("statuses over 16 seeds: %v, want 429 and 503", seen)
	}
	for _, c := range []struct{ path, want string }{
		{"/chat", `{"error":{"type":"unavailable","message":`},
		{"/v1/chat/completions", `"type":"server_error","param":null,"code":"service_unavailable"}}`},
		{"/v1/completions", `"type":"server_error","param":null,"code":"service_unavailable"}}`},
		{"/v1/messages", `{"type":"error","error":{"type":"overloaded_error","message":`},
	} {
		x := postT(t, url+c.path, `{"faults":["http_error"],"http_error_status":503}`)
		if x.status != 503 || !strings.Contains(string(x.body), c.want) {
			t.Errorf("%s: %d %s, want 503 and %s", c.path, x.status, x.body, c.want)
		}
	}
}

// TestFaultBuffered checks that a buffered stream shorter than one batch
// arrives all at once at its end, while its headers arrive at once.
func TestFaultBuffered(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	x := postT(t, url+"/chat", `{"bucket":"single_tool","seed":2,"faults":["buffered"]}`)
	evs := x.dataEvents()
	last := evs[len(evs)-1].serverMS()
	firstArrival := float64(x.events[0].arrived) / 1e6
	if firstArrival < last || x.headers > x.events[0].arrived/2 {
		t.Errorf("headers at %v, first event arrived at %.1f ms, stream ended at server_ms %.1f: not held",
			x.headers, firstArrival, last)
	}
	y := postT(t, url+"/chat", `{"bucket":"single_tool","seed":2}`)
	yd := y.dataEvents()
	if a := float64(y.events[0].arrived) / 1e6; a > yd[len(yd)-1].serverMS()/2 {
		t.Errorf("unbuffered first event at %.1f ms", a)
	}
}

// TestWriterBatches checks that the buffered writer writes exact batches and
// the rest at the end, flushing after each write.
func TestWriterBatches(t *testing.T) {
	var sizes []int
	flushes := 0
	sink := writerFunc(func(p []byte) (int, error) { sizes = append(sizes, len(p)); return len(p), nil })
	w := writer{w: sink, flush: func() error { flushes++; return nil }, batch: 16384}
	ev := []byte(strings.Repeat("x", 1000))
	for range 40 {
		if err := w.event(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	want := []int{16384, 16384, 7232}
	if len(sizes) != 3 || sizes[0] != want[0] || sizes[1] != want[1] || sizes[2] != want[2] || flushes != 3 {
		t.Errorf("writes %v with %d flushes, want %v with 3", sizes, flushes, want)
	}
	sizes, flushes = nil, 0
	w = writer{w: sink, flush: func() error { flushes++; return nil }}
	w.event(ev)
	w.event(ev[:10])
	if len(sizes) != 2 || flushes != 2 {
		t.Errorf("unbuffered: writes %v, %d flushes", sizes, flushes)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// maxGap returns the longest time between consecutive events (comments
// included).
func maxGap(x *exchange) time.Duration {
	var g time.Duration
	for i := 1; i < len(x.events); i++ {
		g = max(g, x.events[i].arrived-x.events[i-1].arrived)
	}
	return g
}

func TestFaultStall(t *testing.T) {
	_, url := start(t, fastConfig())
	x := postT(t, url+"/chat", `{"bucket":"qa","seed":3,"faults":["stall"]}`)
	y := postT(t, url+"/chat", `{"bucket":"qa","seed":3}`)
	if g := maxGap(x); g < 300*time.Millisecond || x.err != nil {
		t.Errorf("stall: longest silence %v (want >= 300ms), err %v", g, x.err)
	}
	if g := maxGap(y); g > 200*time.Millisecond {
		t.Errorf("no stall: longest silence %v", g)
	}
	if len(x.dataEvents()) != len(y.dataEvents()) {
		t.Errorf("stall changed the events: %d vs %d", len(x.dataEvents()), len(y.dataEvents()))
	}
}

func TestFaultHeartbeatFlood(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	for _, f := range []string{"", FaultHeartbeatFlood} {
		x := postT(t, url+"/chat", `{"bucket":"single_tool","seed":3,"faults":["`+f+`"]}`)
		rate := float64(x.comments()) / x.events[len(x.events)-1].arrived.Seconds()
		t.Logf("fault %q: %.0f heartbeats/s", f, rate)
		if flood := rate > 60; flood != (f != "") {
			t.Errorf("fault %q: %.0f heartbeats/s", f, rate)
		}
	}
}

func TestFaultMalformedJSON(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	for _, p := range []string{"/chat", "/v1/chat/completions", "/v1/messages", "/v1/completions"} {
		for _, f := range []string{"", FaultMalformedJSON} {
			x := postT(t, url+p, `{"bucket":"retrieval","mock_seed":4,"faults":["`+f+`"],"stream":true}`)
			bad := 0
			for _, e := range x.dataEvents() {
				if e.data != "[DONE]" && !json.Valid([]byte(e.data)) {
					bad++
				}
			}
			want := 0
			if f != "" {
				want = 1
			}
			if bad != want {
				t.Errorf("%s fault %q: %d invalid events", p, f, bad)
			}
		}
	}
}

// TestGlobalFaults checks that Config.Faults apply to every request, on top
// of the request's own.
func TestGlobalFaults(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	cfg.Faults = []string{FaultHeartbeatFlood}
	_, url := start(t, cfg)
	p, err := Plan(Business, []byte(`{"faults":["stall"]}`), cfg)
	if err != nil || strings.Join(p.Faults, ",") != "stall,heartbeat_flood" {
		t.Errorf("plan faults %v, %v", p.Faults, err)
	}
	x := postT(t, url+"/chat", `{"bucket":"single_tool","seed":3}`)
	if rate := float64(x.comments()) / x.events[len(x.events)-1].arrived.Seconds(); rate < 60 {
		t.Errorf("global heartbeat_flood: %.0f heartbeats/s", rate)
	}
}
