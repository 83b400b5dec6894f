package uiprobe

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/sse"
)

// pageLogOf decodes a recorder log written as JSON.
func pageLogOf(t *testing.T, s string) *pageLog {
	t.Helper()
	l := &pageLog{}
	if err := json.Unmarshal([]byte(s), l); err != nil {
		t.Fatal(err)
	}
	return l
}

// msOrNil formats a moment.
func msOrNil(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

// TestLogResult computes results from recorder logs written by hand: the
// rules that need no page.
func TestLogResult(t *testing.T) {
	const origin = 1.7e12
	at := func(pageMS float64) time.Time { return wallOf(origin + pageMS) }
	for _, tc := range []struct {
		name, log string
		spec      Spec
		// want are first_text, useful and complete (nil: not reached).
		want       [3]any
		code, text string
	}{
		{name: "replaced text restarts the JSON tracker",
			log: `{"start":0,"action":{"t":10,"type":"click"},"changes":[
				{"t":20,"append":"{\"decision\": \"ye"},{"t":30,"text":"{\"decision"},{"t":40,"append":"\": \"no\"}"}],
				"end":{"t":40,"reason":"done"}}`,
			spec: Spec{Useful: mustPredicate(t, map[string]any{"jsonFields": []any{"decision"}})},
			want: [3]any{10.0, 30.0, 30.0}, text: `{"decision": "no"}`},
		{name: "changes before the action set the text but no moment",
			log: `{"start":0,"action":{"t":50,"type":"keydown"},"changes":[
				{"t":10,"append":"draft"},{"t":60,"append":" answer"}],"end":{"t":60,"reason":"quiet"}}`,
			want: [3]any{10.0, 10.0, 10.0}, text: "draft answer"},
		{name: "a given action wins over the input event",
			log:  `{"start":0,"action":{"t":50,"type":"click"},"changes":[{"t":70,"append":"hi"}],"end":{"t":70,"reason":"done"}}`,
			spec: Spec{ActionAt: at(20)}, want: [3]any{50.0, 50.0, 50.0}, text: "hi"},
		{name: "a failing predicate is a callback error",
			log:  `{"start":0,"changes":[{"t":5,"append":"hi"}],"end":{"t":5,"reason":"done"}}`,
			spec: Spec{Useful: sse.FuncPredicate(func(*sse.PredicateContext) (bool, error) { return false, errors.New("boom") })},
			want: [3]any{5.0, nil, 5.0}, code: sse.CodeCallback, text: "hi"},
		{name: "a panicking predicate is a callback error",
			log:  `{"start":0,"changes":[{"t":5,"append":"hi"}],"end":{"t":5,"reason":"done"}}`,
			spec: Spec{Useful: sse.FuncPredicate(func(c *sse.PredicateContext) (bool, error) { return c.State["x"].(bool), nil })},
			want: [3]any{5.0, nil, 5.0}, code: sse.CodeCallback, text: "hi"},
		{name: "state changes alone are snapshots",
			log: `{"start":0,"changes":[{"t":5,"append":"ok"},{"t":9,"state":"{\"decision\":\"refund\"}"},{"t":12,"state":null}],
				"end":{"t":40,"reason":"stopped"}}`,
			spec: Spec{Useful: mustPredicate(t, map[string]any{"fields": []any{"decision"}})},
			want: [3]any{5.0, 9.0, nil}, code: CodeStopped, text: "ok"},
		{name: "a limit keeps the moments reached",
			log:  `{"start":0,"changes":[{"t":5,"append":" "},{"t":8,"append":"a"}],"end":{"t":8,"reason":"limit"},"error":"more than 1 changes"}`,
			want: [3]any{8.0, 8.0, nil}, code: CodeLimit, text: " a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := pageLogOf(t, tc.log)
			l.Origin = origin
			spec := tc.spec.withDefaults()
			r := l.result(&spec)
			got := [3]any{msOrNil(r.Timings.FirstText), msOrNil(r.Timings.Useful), msOrNil(r.Timings.Complete)}
			if got != tc.want || r.ErrorCode != tc.code || r.Text != tc.text {
				t.Errorf("moments %v, code %q (%s), text %q; want %v, %q, %q", got, r.ErrorCode, r.Error, r.Text, tc.want, tc.code, tc.text)
			}
			if r.UsefulReached != (r.Timings.Useful != nil) || (r.ErrorCode != "") != r.Failed() {
				t.Errorf("useful reached %v, failed %v", r.UsefulReached, r.Failed())
			}
			if r.ErrorCode == sse.CodeCallback && !strings.Contains(r.Error, "useful callback failed") {
				t.Errorf("error %q does not name the useful predicate", r.Error)
			}
		})
	}
}

// TestLogClock checks the conversion between the page's clock and the
// wall clock, to the microsecond.
func TestLogClock(t *testing.T) {
	l := &pageLog{Origin: 1751234567890.125}
	w := l.wall(1234.5)
	if want := time.UnixMicro(1751234569124625); !w.Equal(want) {
		t.Fatalf("wall %v, want %v", w, want)
	}
	if back := l.pageTime(w); back != 1234.5 {
		t.Fatalf("page time %v, want 1234.5", back)
	}
}
