package mock

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"testing"
)

// TestOpenAISeedPinsContentNotTiming sends the same OpenAI body with
// "seed": 7 several times: the text is the same every time, but each request
// gets its own timing seed (reported in X-Usefullatency-Seed), and the stream
// is the plan of that timing seed with content seed 7.
func TestOpenAISeedPinsContentNotTiming(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	_, url := start(t, cfg)
	const body = `{"bucket":"single_tool","seed":7,"stream":true,"messages":[{"role":"user","content":"refund?"}]}`
	var timing []string
	text := ""
	for range 5 {
		x := postT(t, url+"/v1/chat/completions", body)
		if x.err != nil || x.status != 200 {
			t.Fatalf("status %d, err %v", x.status, x.err)
		}
		ts := x.header.Get(SeedHeader)
		timing = append(timing, ts)
		p, err := Plan(OpenAI, []byte(`{"bucket":"single_tool","seed":7,"mock_seed":`+ts+`}`), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if text == "" {
			text = p.Text()
		} else if p.Text() != text {
			t.Errorf("seed 7 gave two texts:\n%s\n%s", text, p.Text())
		}
		if len(x.events) != len(p.Events) {
			t.Errorf("timing seed %s: %d events, plan %d", ts, len(x.events), len(p.Events))
		}
	}
	slices.Sort(timing)
	if len(slices.Compact(timing)) != 5 {
		t.Errorf("5 requests with seed 7 got timing seeds %v, want 5 different", timing)
	}
}

// TestMockSeedPinsTiming checks that the mock's own seed, as the body's
// mock_seed or the X-Usefullatency-Seed request header, pins the timings
// while an OpenAI seed only changes the content.
func TestMockSeedPinsTiming(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	at := func(p Schedule) []int64 {
		var out []int64
		for _, e := range p.Events {
			out = append(out, int64(e.At))
		}
		return out
	}
	plan := func(body string) Schedule {
		p, err := Plan(OpenAI, []byte(body), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := plan(`{"seed":7,"mock_seed":1}`), plan(`{"seed":7,"mock_seed":2}`)
	if a.Text() != b.Text() {
		t.Errorf("same seed, different mock_seed: texts differ")
	}
	if slices.Equal(at(a), at(b)) {
		t.Errorf("mock_seed 1 and 2 give the same timings")
	}
	c, d := plan(`{"seed":7,"mock_seed":1}`), plan(`{"seed":8,"mock_seed":1}`)
	if c.Text() == d.Text() {
		t.Errorf("seeds 7 and 8 give the same text")
	}
	if m := plan(`{"metadata":{"mock_seed":"1"},"seed":7}`); !slices.Equal(at(m), at(a)) || m.Text() != a.Text() {
		t.Errorf("metadata.mock_seed is not mock_seed")
	}

	_, url := start(t, cfg)
	h := http.Header{SeedHeader: {"42"}}
	x := postHeader(t, context.Background(), url+"/v1/chat/completions", `{"seed":7,"stream":true}`, h, nil)
	if got := x.header.Get(SeedHeader); got != "42" {
		t.Fatalf("request header seed 42 answered with seed %q", got)
	}
	want := plan(`{"seed":7,"mock_seed":42}`)
	if len(x.events) != len(want.Events) {
		t.Errorf("header seed 42: %d events, plan %d", len(x.events), len(want.Events))
	}
	if y := postHeader(t, context.Background(), url+"/chat", `{}`, http.Header{SeedHeader: {"x"}}, nil); y.status != 400 {
		t.Errorf("header seed x: status %d, want 400", y.status)
	}
	if n, _ := strconv.Atoi(x.header.Get(SeedHeader)); n != 42 {
		t.Errorf("seed header %d", n)
	}
}
