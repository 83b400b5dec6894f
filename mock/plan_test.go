package mock

import (
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"
)

func TestPlanDeterministic(t *testing.T) {
	cfg := DefaultConfig()
	for _, d := range []Dialect{Business, OpenAI, Anthropic} {
		for _, b := range BucketNames {
			body := `{"bucket":"` + b + `","tenant":"acme","seed":42,"reasoning":true,"stream_options":{"include_usage":true}}`
			p1, err := Plan(d, []byte(body), cfg)
			if err != nil {
				t.Fatal(err)
			}
			p2, _ := Plan(d, []byte(body), cfg)
			if !reflect.DeepEqual(p1, p2) {
				t.Errorf("%s %s: two plans with seed 42 differ", d, b)
			}
			p3, _ := Plan(d, []byte(`{"bucket":"`+b+`","seed":43}`), cfg)
			if reflect.DeepEqual(p1.Events, p3.Events) {
				t.Errorf("%s %s: seeds 42 and 43 give the same events", d, b)
			}
		}
	}
}

// TestPlanFaultsKeepContent checks that a fault changes only its own
// effect: the answer text is the same with and without it.
func TestPlanFaultsKeepContent(t *testing.T) {
	cfg := DefaultConfig()
	base, _ := Plan(Business, []byte(`{"bucket":"single_tool","seed":7}`), cfg)
	for _, f := range []string{FaultStall, FaultHeartbeatFlood, FaultMalformedJSON, FaultBuffered} {
		p, _ := Plan(Business, []byte(`{"bucket":"single_tool","seed":7,"faults":["`+f+`"]}`), cfg)
		if p.Text() != base.Text() {
			t.Errorf("%s changed the text:\n%q\n%q", f, p.Text(), base.Text())
		}
	}
}

func TestPlanOrderAndMarks(t *testing.T) {
	cfg := DefaultConfig()
	for seed := range 50 {
		for _, b := range BucketNames {
			p, err := Plan(Business, []byte(`{"bucket":"`+b+`","seed":`+itoa(seed)+`}`), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !sort.SliceIsSorted(p.Events, func(i, j int) bool { return p.Events[i].At < p.Events[j].At }) {
				t.Fatalf("%s seed %d: events out of order", b, seed)
			}
			m := p.Marks
			for _, k := range []string{"first_event", "first_text", "decision", "useful", "complete"} {
				if _, ok := m[k]; !ok {
					t.Fatalf("%s seed %d: mark %s missing in %v", b, seed, k, m)
				}
			}
			if !(m["first_event"] == 0 && m["first_text"] <= m["useful"] && m["useful"] <= m["complete"]) {
				t.Errorf("%s seed %d: marks out of order: %v", b, seed, m)
			}
			if v, ok := m["verified"]; ok && v > m["decision"] {
				t.Errorf("%s seed %d: decision at %v before verification at %v", b, seed, m["decision"], v)
			}
			if last := p.Events[len(p.Events)-1]; last.Kind != KindDone || last.At != m["complete"] {
				t.Errorf("%s seed %d: last event %+v, complete %v", b, seed, last, m["complete"])
			}
			if b == BucketTimeoutRecovery {
				if d := m["handoff"] - m["tool_timeout"]; d > 800*time.Millisecond {
					t.Errorf("seed %d: fallback %v after the timeout, default cap is 800ms", seed, d)
				}
			}
		}
	}
}

// TestDefaultsMeetExampleGates checks, over 2000 seeds and with no
// queueing, that the default latencies pass the gates of the after-sales
// example with room to spare (p95 useful: qa < 2.5 s, single_tool < 4 s;
// fallback within 1 s of the tool timeout) and fail the fallback gate
// under slow_fallback.
func TestDefaultsMeetExampleGates(t *testing.T) {
	cfg := DefaultConfig()
	p95 := func(bucket, faults string, from, to string) time.Duration {
		var v []time.Duration
		for seed := range 2000 {
			p, err := Plan(Business, []byte(`{"bucket":"`+bucket+`","faults":[`+faults+`],"seed":`+itoa(seed)+`}`), cfg)
			if err != nil {
				t.Fatal(err)
			}
			v = append(v, p.Marks[to]-p.Marks[from])
		}
		slices.Sort(v)
		return v[len(v)*95/100]
	}
	for _, c := range []struct {
		bucket, faults, from, to string
		lo, hi                   time.Duration
	}{
		{BucketQA, "", "first_event", "useful", 800 * time.Millisecond, 2000 * time.Millisecond},
		{BucketRetrieval, "", "first_event", "useful", 1000 * time.Millisecond, 3000 * time.Millisecond},
		{BucketSingleTool, "", "first_event", "useful", 2000 * time.Millisecond, 3600 * time.Millisecond},
		{BucketMultiTool, "", "first_event", "useful", 2500 * time.Millisecond, 6000 * time.Millisecond},
		{BucketTimeoutRecovery, "", "tool_timeout", "handoff", 100 * time.Millisecond, 800 * time.Millisecond},
		{BucketTimeoutRecovery, `"slow_fallback"`, "tool_timeout", "handoff", 1100 * time.Millisecond, 5000 * time.Millisecond},
	} {
		got := p95(c.bucket, c.faults, c.from, c.to)
		t.Logf("%s %s: p95 %s→%s = %v", c.bucket, c.faults, c.from, c.to, got)
		if got < c.lo || got > c.hi {
			t.Errorf("%s %s: p95 %s→%s = %v, want within [%v, %v]", c.bucket, c.faults, c.from, c.to, got, c.lo, c.hi)
		}
	}
}

func TestFillHeartbeats(t *testing.T) {
	ms := time.Millisecond
	hb := Event{Kind: KindHeartbeat, Type: "comment"}
	evs := []Event{{At: 0}, {At: 100 * ms}, {At: 1250 * ms}, {At: 1300 * ms}, {At: 3000 * ms, quiet: true}, {At: 3500 * ms}}
	got := fillHeartbeats(evs, 500*ms, hb)
	var at []time.Duration
	for _, e := range got {
		if e.Kind == KindHeartbeat {
			at = append(at, e.At)
		}
	}
	want := []time.Duration{600 * ms, 1100 * ms}
	if !slices.Equal(at, want) {
		t.Errorf("heartbeats at %v, want %v (none in the quiet gap, none in a gap of exactly 500ms)", at, want)
	}
	if len(got) != len(evs)+len(want) {
		t.Errorf("%d events, want %d", len(got), len(evs)+len(want))
	}
}

func TestPlanErrors(t *testing.T) {
	cfg := DefaultConfig()
	for _, c := range []struct{ body, want string }{
		{`{"bucket":"nope"}`, `unknown bucket "nope"`},
		{`{"faults":["stall","nope"]}`, `unknown fault "nope"`},
		{`{"faults":"stall, nope"}`, `unknown fault "nope"`},
		{`{"seed":"x"}`, "seed must be an integer"},
		{`{"seed":1.5}`, "seed must be an integer"},
		{`{"http_error_status":200}`, "http_error_status"},
		{`{"bucket":`, "invalid JSON body"},
		{`[1]`, "invalid JSON body"},
	} {
		_, err := Plan(Business, []byte(c.body), cfg)
		re, ok := err.(*RequestError)
		if !ok || !contains(re.Msg, c.want) {
			t.Errorf("%s: error %v, want a *RequestError containing %q", c.body, err, c.want)
		}
	}
	bad := cfg
	bad.Faults = []string{"nope"}
	if _, err := Plan(Business, nil, bad); err == nil || !contains(err.Error(), `unknown fault "nope"`) {
		t.Errorf("global unknown fault: %v", err)
	}
}

func TestPlanMetadataControls(t *testing.T) {
	cfg := DefaultConfig()
	p, err := Plan(OpenAI, []byte(`{"model":"m","messages":[{"role":"user","content":"refund?"}],
		"metadata":{"bucket":"single_tool","tenant":"t9","seed":"5","mock_seed":"6","faults":"stall,buffered"}}`), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if p.Bucket != BucketSingleTool || p.Tenant != "t9" || p.Seed != 6 || p.ContentSeed != 5 || !slices.Equal(p.Faults, []string{FaultBuffered, FaultStall}) || p.Model != "m" {
		t.Errorf("metadata not applied: %+v", p)
	}
	q, _ := Plan(OpenAI, []byte(`{"bucket":"qa","metadata":{"bucket":"single_tool"}}`), cfg)
	if q.Bucket != BucketQA {
		t.Errorf("top level should win over metadata, got %s", q.Bucket)
	}
	b, _ := Plan(Business, []byte(`{"metadata":{"bucket":"single_tool"}}`), cfg)
	if b.Bucket != BucketQA {
		t.Errorf("business bodies take no metadata, got %s", b.Bucket)
	}
}

func itoa(n int) string { return string(appendInt(nil, n)) }

func contains(s, sub string) bool { return len(sub) == 0 || indexOf(s, sub) >= 0 }

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
