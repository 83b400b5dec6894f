package uiprobe

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/sse"
)

// tolerance is how far a measured moment may be from the page's own
// account of it, in ms: the recorder stamps a change at the end of the task
// that made it, the page right after the change, in the same task.
const tolerance = 3.0

// answerPlan streams an answer: hidden text first, then visible text, a
// JSON object in the text, a state island, and the done marker.
var answerPlan = plan{Steps: []step{
	{At: 50, HTML: `<span class="hidden">hidden refund</span>`},
	{At: 100, HTML: `Checking your order.`},
	{At: 200, HTML: ` The refund is approved.`},
	{At: 300, HTML: ` {"decision": "refund"}`},
	{At: 400, State: map[string]any{"decision": "refund", "reason": "damaged", "next_step": "ship it back"}},
	{At: 600, Done: true},
}}

// mustPredicate parses a predicate spec.
func mustPredicate(t *testing.T, spec any) sse.Predicate {
	t.Helper()
	p, err := sse.ParsePredicate(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// near fails the test when the moment got is not within tolerance of the
// page's own time of step i, counted from the pointerdown.
func near(t *testing.T, name string, got *float64, pt pageTimes, i int) {
	t.Helper()
	want := pt.Steps[i] - pt.Down
	if got == nil {
		t.Errorf("%s: never reached, want %.2f ms", name, want)
		return
	}
	t.Logf("%s: measured %.3f ms, page %.3f ms, error %+.3f ms", name, *got, want, *got-want)
	if math.Abs(*got-want) > tolerance {
		t.Errorf("%s: %.3f ms, the page says %.3f ms (tolerance %.0f ms)", name, *got, want, tolerance)
	}
}

// TestWatchMoments runs the answer plan once per form of useful predicate
// and checks every moment against the page's own stamps.
func TestWatchMoments(t *testing.T) {
	srv := testServer(t)
	for _, tc := range []struct {
		name   string
		useful sse.Predicate
		step   int
	}{
		{"default is first text", nil, 1},
		{"text", mustPredicate(t, map[string]any{"text": "refund"}), 2},
		{"jsonFields", mustPredicate(t, map[string]any{"jsonFields": []any{"decision"}}), 3},
		{"fields", mustPredicate(t, map[string]any{"fields": []any{"decision", "reason", "next_step"}}), 4},
		{"func", sse.FuncPredicate(func(c *sse.PredicateContext) (bool, error) {
			return strings.Contains(c.Text, "approved") && c.ElapsedMS > 0, nil
		}), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := openPlan(t, srv, answerPlan)
			res := watch(t, page, Spec{Useful: tc.useful, Done: "[data-done]", State: `script[type="application/json"]`})
			pt := times(t, page)
			if res.ErrorCode != "" || res.End != endDone || res.Action.Source != "pointerdown" {
				t.Fatalf("error %q (%s), end %q, action from %q", res.ErrorCode, res.Error, res.End, res.Action.Source)
			}
			if d := float64(res.Action.At.Sub(wallOf(pt.Origin + pt.Down))); math.Abs(d) > float64(10*time.Microsecond) {
				t.Errorf("action at %v, the page's pointerdown %v", res.Action.At, wallOf(pt.Origin+pt.Down))
			}
			near(t, "first_text", res.Timings.FirstText, pt, 1)
			near(t, "useful", res.Timings.Useful, pt, tc.step)
			near(t, "complete", res.Timings.Complete, pt, 5)
			want := `Checking your order. The refund is approved. {"decision": "refund"}`
			if res.Text != want || res.State["next_step"] != "ship it back" || !res.UsefulReached {
				t.Errorf("text %q, state %v, useful reached %v", res.Text, res.State, res.UsefulReached)
			}
		})
	}
}

// wallOf returns the wall-clock time of Unix milliseconds.
func wallOf(unixMS float64) time.Time {
	return time.UnixMicro(int64(math.Round(unixMS * 1000)))
}

// TestWatchQuiet checks the quiet rule: without a done marker the answer
// ends after the quiet period, complete is its last change before it, and
// a change after the quiet period is not part of the answer.
func TestWatchQuiet(t *testing.T) {
	page := openPlan(t, testServer(t), plan{Steps: []step{
		{At: 100, HTML: "Checking."}, {At: 200, HTML: " Refund approved."}, {At: 900, HTML: " Late."},
	}})
	res := watch(t, page, Spec{Quiet: 300 * time.Millisecond})
	pt := times(t, page)
	if res.End != endQuiet || res.ErrorCode != "" || res.Text != "Checking. Refund approved." {
		t.Fatalf("end %q, error %q, text %q", res.End, res.ErrorCode, res.Text)
	}
	near(t, "complete", res.Timings.Complete, pt, 1)
	if d := res.EndedAt.Sub(wallOf(pt.Origin + pt.Steps[1])); d < -time.Duration(tolerance*float64(time.Millisecond)) || d > time.Duration(tolerance*float64(time.Millisecond)) {
		t.Errorf("ended at %v, the last change at %v", res.EndedAt, wallOf(pt.Origin+pt.Steps[1]))
	}
}

// TestWatchHiddenText checks that CSS-hidden text is not visible text: the
// bubble fills while display:none and counts from the moment it shows.
func TestWatchHiddenText(t *testing.T) {
	page := openPlan(t, testServer(t), plan{Hidden: true, Steps: []step{
		{At: 100, HTML: "Refund approved."}, {At: 250, Show: true}, {At: 350, Done: true},
	}})
	res := watch(t, page, Spec{Done: "[data-done]", Useful: mustPredicate(t, map[string]any{"text": "Refund"})})
	pt := times(t, page)
	near(t, "first_text", res.Timings.FirstText, pt, 1)
	near(t, "useful", res.Timings.Useful, pt, 1)
	near(t, "complete", res.Timings.Complete, pt, 2)
}

// TestWatchReusedElement checks the element rule when no new element
// appears: the old bubble, once its text changed, is the answer.
func TestWatchReusedElement(t *testing.T) {
	page := openPlan(t, testServer(t), plan{Reuse: true, Steps: []step{
		{At: 100, HTML: "A new answer."}, {At: 200, Done: true},
	}})
	res := watch(t, page, Spec{Done: "[data-done]"})
	pt := times(t, page)
	if res.Text != "A new answer." || res.End != endDone {
		t.Fatalf("text %q, end %q", res.Text, res.End)
	}
	near(t, "first_text", res.Timings.FirstText, pt, 0)
	near(t, "complete", res.Timings.Complete, pt, 1)
}

// TestWatchTimeout checks that an answer that never comes ends the watch
// at its timeout with ui_timeout, without a hang.
func TestWatchTimeout(t *testing.T) {
	page := openPlan(t, testServer(t), plan{Steps: []step{}})
	start := time.Now()
	res := watch(t, page, Spec{Done: "[data-done]", Timeout: 400 * time.Millisecond})
	took := time.Since(start)
	if res.ErrorCode != CodeTimeout || res.Timings.FirstText != nil || res.Timings.Complete != nil || res.UsefulReached {
		t.Fatalf("result %+v", res)
	}
	if took < 400*time.Millisecond || took > 5*time.Second {
		t.Errorf("the watch took %v for a 400 ms timeout", took)
	}
}

// TestWatchLimit checks the bound on logged changes, and that an untrusted
// click (from script) is no action: moments count from Start.
func TestWatchLimit(t *testing.T) {
	page := openPlan(t, testServer(t), plan{Steps: []step{
		{At: 50, HTML: "a"}, {At: 100, HTML: "b"}, {At: 150, HTML: "c"}, {At: 200, HTML: "d"}, {At: 250, Done: true},
	}})
	ctx := context.Background()
	w, err := Start(ctx, page, ".answer", Spec{Done: "[data-done]", MaxChanges: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := page.Evaluate(ctx, `() => document.getElementById("send").click()`, nil, nil); err != nil {
		t.Fatal(err)
	}
	res, err := w.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.ErrorCode != CodeLimit || !strings.Contains(res.Error, "more than 2 changes") || res.Action.Source != "start" {
		t.Fatalf("error %q (%s), action from %q", res.ErrorCode, res.Error, res.Action.Source)
	}
	if res.Timings.FirstText == nil || res.Timings.Complete != nil {
		t.Errorf("timings %+v", res.Timings)
	}
}

// TestStartRejects checks the errors of a bad watch: each names the
// option and its value.
func TestStartRejects(t *testing.T) {
	page := openPlan(t, testServer(t), plan{Steps: []step{}})
	ctx := context.Background()
	for _, tc := range []struct {
		selector string
		spec     Spec
		want     string
	}{
		{"", Spec{}, "selector is empty"},
		{".answer", Spec{Quiet: -time.Second}, "quiet -1s"},
		{".answer", Spec{State: "script", StateAttribute: "data-state"}, "choose one"},
		{"div[", Spec{}, `selector "div[" is not a valid CSS selector`},
		{".answer", Spec{Done: "div >"}, `done "div >" is not a valid CSS selector`},
	} {
		if _, err := Start(ctx, page, tc.selector, tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %+v: %v, want %q", tc.selector, tc.spec, err, tc.want)
		}
	}
}
