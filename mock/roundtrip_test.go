package mock_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/mock"
	"github.com/usefullatency/usefullatency/sse"
)

// TestProbeRoundTrip sends the same seeded request to the mock and to its
// Plan: what the probe measured (first_text, useful, complete, marks) must
// match what the mock scheduled, per bucket and dialect, within a few
// milliseconds of loopback and scheduling jitter (the queue is empty).
func TestProbeRoundTrip(t *testing.T) {
	t.Parallel()
	cfg := mock.DefaultConfig()
	srv := mock.New(cfg)
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	client := sse.NewClient(sse.ClientOptions{})
	paths := map[mock.Dialect]string{mock.Business: "/chat", mock.OpenAI: "/v1/chat/completions", mock.Anthropic: "/v1/messages"}
	for _, bucket := range []string{"qa", "retrieval", "single_tool", "multi_tool", "timeout_recovery"} {
		for _, d := range []mock.Dialect{mock.Business, mock.OpenAI, mock.Anthropic} {
			t.Run(fmt.Sprintf("%s/%s", bucket, d), func(t *testing.T) {
				t.Parallel()
				body := []byte(fmt.Sprintf(`{"bucket":%q,"tenant":"rt-%s-%s","question":"refund?","mock_seed":7,"stream":true,"stream_options":{"include_usage":true}}`, bucket, bucket, d))
				plan, err := mock.Plan(d, body, cfg)
				if err != nil {
					t.Fatal(err)
				}
				req := &sse.Request{Method: "POST", URL: base + paths[d], Body: body, Dialect: sse.DialectAuto,
					Marks: map[string]sse.Predicate{
						"verified": mustPredicate(t, map[string]any{"field": "verified", "equals": true}),
						"handoff":  mustPredicate(t, map[string]any{"fields": []any{"handoff"}}),
					}}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				res := client.Do(ctx, req)
				if res.Failed() {
					t.Fatalf("%s: %s", res.ErrorCode, res.Error)
				}
				// The probe's times count from the send, the schedule's from
				// the dequeue: the server-reported queue time links the two,
				// and the headers, which the mock sends on arrival (headers
				// are not held here), carry the two legs of loopback and the
				// time the request waited for the server's goroutine — on a
				// busy machine, more than any tolerance — so they are taken
				// off.
				if res.Timings.Queue == nil || res.Timings.Headers == nil {
					t.Fatal("no queue time or headers time reported")
				}
				queue := *res.Timings.Queue + *res.Timings.Headers
				compare(t, "first_text", plan.Marks, "first_text", res.Timings.FirstText, queue)
				compare(t, "complete", plan.Marks, "complete", res.Timings.Complete, queue)
				if d == mock.Business {
					// Structured milestones exist in the business dialect only.
					compare(t, "useful", plan.Marks, "useful", res.Timings.Useful, queue)
					compare(t, "handoff", plan.Marks, "handoff", res.Marks["handoff"], queue)
					compare(t, "verified", plan.Marks, "verified", res.Marks["verified"], queue)
				}
			})
		}
	}
}

// compare checks a measured time against the scheduled mark plus the queue
// time: the measurement adds the request's transport and the event's
// delivery (loopback, timers, scheduling on a busy machine), never less
// than a few milliseconds of rounding, so it must be within −25 to +50 ms.
func compare(t *testing.T, what string, marks map[string]time.Duration, mark string, got *float64, queue float64) {
	t.Helper()
	want, scheduled := marks[mark]
	switch {
	case !scheduled && got == nil:
		return
	case !scheduled:
		t.Errorf("%s measured at %.1f ms but never scheduled", what, *got)
		return
	case got == nil:
		t.Errorf("%s scheduled at %v but never measured", what, want)
		return
	}
	wantMS := float64(want)/float64(time.Millisecond) + queue
	// Below: the headers (in queue) also hold any wait of the mock's
	// goroutine between the request's arrival and their flush, which the
	// events' schedule does not; a busy 2-core machine makes that tens of
	// milliseconds.
	if d := *got - wantMS; d < -25 || d > 50 {
		t.Errorf("%s: measured %.2f ms, scheduled %.2f ms (+queue): off by %.2f ms", what, *got, wantMS, d)
	}
}

func mustPredicate(t *testing.T, spec any) sse.Predicate {
	t.Helper()
	p, err := sse.ParsePredicate(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFaultsThroughTheProbe sends each fault to the mock and checks that the
// probe sees the failure a gate must catch.
func TestFaultsThroughTheProbe(t *testing.T) {
	t.Parallel()
	cfg := mock.DefaultConfig()
	cfg.StallMS = 1500
	srv := mock.New(cfg)
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	cases := []struct {
		fault, bucket string
		check         func(*testing.T, *sse.Result)
	}{
		{"disconnect", "qa", wantCode("reset")},
		{"http_error", "qa", func(t *testing.T, r *sse.Result) {
			wantCode("http_status")(t, r)
			if r.Status != 429 && r.Status != 503 {
				t.Errorf("status %d, want 429 or 503", r.Status)
			}
		}},
		{"stall", "qa", wantCode("idle_timeout")},
		{"malformed_json", "qa", func(t *testing.T, r *sse.Result) {
			if r.Failed() || r.EventsByKind[sse.Invalid] != 1 {
				t.Errorf("want one invalid event and a complete stream, got %d invalid, %s", r.EventsByKind[sse.Invalid], r.ErrorCode)
			}
		}},
		{"heartbeat_flood", "qa", func(t *testing.T, r *sse.Result) {
			if r.Heartbeats < 50 {
				t.Errorf("%d heartbeats, want a flood", r.Heartbeats)
			}
		}},
		{"buffered", "qa", func(t *testing.T, r *sse.Result) {
			if r.Timings.FirstEvent == nil || r.Timings.Headers == nil || *r.Timings.FirstEvent-*r.Timings.Headers < 500 {
				t.Errorf("first event %v ms after the headers at %v: a buffering proxy delays it", r.Timings.FirstEvent, r.Timings.Headers)
			}
		}},
		{"premature_commit", "single_tool", func(t *testing.T, r *sse.Result) {
			d, v := r.Marks["decision"], r.Marks["verified"]
			if d == nil || v == nil || *d >= *v {
				t.Errorf("decision at %v, verified at %v: the decision must come first", d, v)
			}
		}},
		{"slow_fallback", "timeout_recovery", func(t *testing.T, r *sse.Result) {
			to, h := r.Marks["tool_timeout"], r.Marks["handoff"]
			if to == nil || h == nil || *h-*to < 1000 {
				t.Errorf("hand-off %v ms after the tool timeout %v: want more than 1 s", h, to)
			}
		}},
	}
	client := sse.NewClient(sse.ClientOptions{})
	for _, tc := range cases {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			body := []byte(fmt.Sprintf(`{"bucket":%q,"tenant":"f-%s","question":"refund?","mock_seed":3,"faults":[%q]}`, tc.bucket, tc.fault, tc.fault))
			idle := 30 * time.Second
			if tc.fault == "stall" {
				idle = time.Second // the stall lasts 1.5 s
			}
			req := &sse.Request{Method: "POST", URL: base + "/chat", Body: body, Dialect: sse.DialectBusiness,
				IdleTimeout: idle, Marks: map[string]sse.Predicate{
					"decision":     mustPredicate(t, map[string]any{"fields": []any{"decision"}}),
					"verified":     mustPredicate(t, map[string]any{"field": "verified", "equals": true}),
					"tool_timeout": mustPredicate(t, map[string]any{"field": "tools.refund_rules.status", "equals": "timeout"}),
					"handoff":      mustPredicate(t, map[string]any{"fields": []any{"handoff"}}),
				}}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			tc.check(t, client.Do(ctx, req))
		})
	}
}

func wantCode(code string) func(*testing.T, *sse.Result) {
	return func(t *testing.T, r *sse.Result) {
		t.Helper()
		if r.ErrorCode != code {
			t.Errorf("error_code %q (%s), want %q", r.ErrorCode, r.Error, code)
		}
	}
}
