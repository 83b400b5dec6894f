package sse

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// TestParsePredicateErrors checks that every invalid form is rejected with a
// one-line error naming the faulty part.
func TestParsePredicateErrors(t *testing.T) {
	cases := []struct {
		name string
		spec any
		want string
	}{
		{"null", nil, "predicate is null"},
		{"string", "decision", "must be an object"},
		{"number", 3.0, "got number"},
		{"array", []any{}, "got array"},
		{"empty object", map[string]any{}, "empty predicate"},
		{"unknown key", map[string]any{"feilds": []any{"a"}}, `unknown key "feilds"`},
		{"two forms", map[string]any{"fields": []any{"a"}, "text": "x"}, "fields and text"},
		{"fields not array", map[string]any{"fields": "decision"}, `fields: want a non-empty array of dot paths, got "decision"`},
		{"fields empty", map[string]any{"fields": []any{}}, "fields: want a non-empty array"},
		{"fields bad path", map[string]any{"fields": []any{"a", "b..c"}}, `fields[1]: want a dot path`},
		{"fields non-string", map[string]any{"fields": []any{1.0}}, `fields[0]: want a dot path like 'refund.amount', got number`},
		{"field without equals", map[string]any{"field": "a"}, "field needs equals"},
		{"equals without field", map[string]any{"equals": 1.0}, "equals needs field"},
		{"field not string", map[string]any{"field": 2.0, "equals": 1.0}, "field: want a dot path"},
		{"bad regex", map[string]any{"text": "(unclosed"}, `text: invalid regular expression "(unclosed"`},
		{"text not string", map[string]any{"text": true}, "text: want a regular expression string, got boolean"},
		{"jsonFields empty", map[string]any{"jsonFields": []any{}}, "jsonFields: want a non-empty array"},
		{"event empty", map[string]any{"event": ""}, "event: want an event kind"},
		{"any empty", map[string]any{"any": []any{}}, "any: want a non-empty array of predicates"},
		{"nested", map[string]any{"all": []any{map[string]any{"event": "done"}, map[string]any{"any": []any{map[string]any{"text": "["}}}}}, `all[1].any[0].text: invalid regular expression`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePredicate(tc.spec)
			if err == nil {
				t.Fatalf("accepted: %#v", p)
			}
			if !errors.Is(err, ErrInvalidPredicate) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

// predicateContext builds a context as the stream would after an event.
func predicateContext(text string, state map[string]any, ev *Event) *PredicateContext {
	tr := NewJSONTracker(nil)
	tr.Write(text)
	return &PredicateContext{State: state, Text: text, Event: ev, JSON: tr, FirstText: hasVisible(text)}
}

// TestPredicateEval checks each declarative form against contexts.
func TestPredicateEval(t *testing.T) {
	state := map[string]any{
		"decision": "refund", "reason": "", "next_step": nil,
		"refund": map[string]any{"amount": 42.0, "items": []any{"sku1"}}, "count": 3.0, "ok": true,
	}
	text := `Sure: {"decision": "refund", "refund": {"amount": 42.5}, "reason": "dam`
	ev := &Event{Kind: Text, Type: "message"}
	cases := []struct {
		name string
		spec string
		want bool
	}{
		{"fields present", `{"fields":["decision","refund.amount","refund.items.0"]}`, true},
		{"fields empty string absent", `{"fields":["decision","reason"]}`, false},
		{"fields null absent", `{"fields":["next_step"]}`, false},
		{"fields missing", `{"fields":["refund.currency"]}`, false},
		{"fields through scalar", `{"fields":["decision.x"]}`, false},
		{"equals string", `{"field":"decision","equals":"refund"}`, true},
		{"equals number", `{"field":"count","equals":3}`, true},
		{"equals wrong", `{"field":"count","equals":4}`, false},
		{"equals bool", `{"field":"ok","equals":true}`, true},
		{"equals object", `{"field":"refund","equals":{"amount":42,"items":["sku1"]}}`, true},
		{"equals null", `{"field":"next_step","equals":null}`, true},
		{"equals missing", `{"field":"nope","equals":null}`, false},
		{"text regex", `{"text":"\"decision\":\\s*\"refund\""}`, true},
		{"text no match", `{"text":"^refund"}`, false},
		{"jsonFields complete", `{"jsonFields":["decision","refund.amount","refund"]}`, true},
		{"jsonFields incomplete", `{"jsonFields":["reason"]}`, false},
		{"event kind", `{"event":"text"}`, true},
		{"event type", `{"event":"message"}`, true},
		{"event other", `{"event":"done"}`, false},
		{"any", `{"any":[{"event":"done"},{"fields":["decision"]}]}`, true},
		{"any none", `{"any":[{"event":"done"},{"fields":["nope"]}]}`, false},
		{"all", `{"all":[{"event":"text"},{"fields":["decision"]}]}`, true},
		{"all one false", `{"all":[{"event":"text"},{"fields":["nope"]}]}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPredicate(t, tc.spec)
			got, err := p.Eval(predicateContext(text, state, ev))
			if err != nil || got != tc.want {
				t.Errorf("Eval = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// mustPredicate parses a JSON predicate spec the way sobek would export it
// (integers as int64).
func mustPredicate(t testing.TB, spec string) Predicate {
	t.Helper()
	p, err := ParsePredicate(exportJSON(spec))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// exportJSON decodes JSON into the values sobek's Export gives: integers as
// int64, other numbers as float64.
func exportJSON(spec string) any {
	d := json.NewDecoder(strings.NewReader(spec))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return spec
	}
	return fromNumbers(v)
}

// fromNumbers converts json.Number values like sobek's Export would.
func fromNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = fromNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = fromNumbers(x[k])
		}
	}
	return v
}

// TestDefaultUseful checks the default useful predicate per dialect.
func TestDefaultUseful(t *testing.T) {
	full := map[string]any{"decision": "a", "reason": "b", "next_step": "c"}
	partial := map[string]any{"decision": "a", "reason": "b"}
	cases := []struct {
		dialect Dialect
		ctx     *PredicateContext
		want    bool
	}{
		{DialectBusiness, &PredicateContext{State: full}, true},
		{DialectBusiness, &PredicateContext{State: partial, FirstText: true}, false},
		{DialectOpenAI, &PredicateContext{FirstText: true}, true},
		{DialectOpenAI, &PredicateContext{State: full}, false},
		{DialectAnthropic, &PredicateContext{FirstText: true}, true},
		{DialectRaw, &PredicateContext{FirstText: true}, true},
		{DialectAuto, &PredicateContext{FirstText: true}, true},
	}
	for _, tc := range cases {
		if got, _ := DefaultUseful(tc.dialect).Eval(tc.ctx); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.dialect, got, tc.want)
		}
	}
}

// TestStatePredicatesSkipStatelessEvents checks that predicates on the
// state alone are evaluated on the first event and then only on events
// that merged state, and others on every event: a state changed behind the
// predicates' back (never so in a stream) is seen at the next state event.
func TestStatePredicatesSkipStatelessEvents(t *testing.T) {
	calls := 0
	counting := FuncPredicate(func(*PredicateContext) (bool, error) { calls++; return false, nil })
	req := &Request{
		Dialect: DialectBusiness,
		Marks: map[string]Predicate{
			"approved": mustPredicate(t, `{"all":[{"field":"decision","equals":"approve"},{"fields":["reason"]}]}`),
			"counted":  counting,
		},
	}
	var tl timeline
	s := newStream(req, &tl, func() time.Duration { return 0 }, true)
	event := func(at time.Duration, state map[string]any) {
		t.Helper()
		ev := &s.ev
		ev.reset()
		ev.Kind, ev.At, ev.State, ev.Text = Text, at, state, "x"
		if state != nil {
			ev.Kind = State
		}
		if err := s.handle(ev); err != nil {
			t.Fatal(err)
		}
	}
	event(1, nil)
	event(2, map[string]any{"decision": "approve"})
	s.content.state["reason"] = "policy" // not merged from an event
	s.content.state["next_step"] = "ship"
	event(3, nil)
	if s.preds.reached[0].ok || tl.useful.ok {
		t.Fatalf("state predicates evaluated on a stateless event: approved %v, useful %v", s.preds.reached[0], tl.useful)
	}
	event(4, map[string]any{"other": 1})
	if !s.preds.reached[0].ok || s.preds.reached[0].at != 4 || !tl.useful.ok || tl.useful.at != 4 {
		t.Errorf("approved %+v, useful %+v: want both at the state event 4", s.preds.reached[0], tl.useful)
	}
	if calls != 4 {
		t.Errorf("the function mark was evaluated %d times, want once per event (4)", calls)
	}
}

func TestStateOnly(t *testing.T) {
	for spec, want := range map[string]bool{
		`{"fields":["a"]}`:         true,
		`{"field":"a","equals":1}`: true,
		`{"any":[{"fields":["a"]},{"all":[{"fields":["b"]}]}]}`: true,
		`{"any":[{"fields":["a"]},{"text":"x"}]}`:               false,
		`{"jsonFields":["a"]}`:                                  false,
		`{"event":"done"}`:                                      false,
	} {
		if got := stateOnly(mustPredicate(t, spec)); got != want {
			t.Errorf("%s: %v, want %v", spec, got, want)
		}
	}
	if stateOnly(FuncPredicate(nil)) || stateOnly(nil) || stateOnly(DefaultUseful(DialectOpenAI)) {
		t.Error("functions, nil and first text depend on more than the state")
	}
}

// pacedReader returns one piece per Read, sleeping before each, so that
// events get distinct arrival times.
type pacedReader struct {
	pieces []string
	pause  time.Duration
}

// Read implements io.Reader.
func (r *pacedReader) Read(p []byte) (int, error) {
	if len(r.pieces) == 0 {
		return 0, io.EOF
	}
	time.Sleep(r.pause) // the pause between pieces is part of the stream under test
	n := copy(p, r.pieces[0])
	if r.pieces[0] = r.pieces[0][n:]; r.pieces[0] == "" {
		r.pieces = r.pieces[1:]
	}
	return n, nil
}

// TestPredicatesOverStream checks that marks, useful and jsonFields are
// timed at the event that made them true, over a stream whose visible text
// is a JSON object split mid-token.
func TestPredicatesOverStream(t *testing.T) {
	parts := []string{`{"decision": "ref`, `und", "refund": {"amo`, `unt": 4`, `2.5}, "next_step": "cl`, `ick"}`}
	pieces := []string{roleChunk}
	for _, p := range parts {
		b, _ := json.Marshal(p)
		pieces = append(pieces, textChunk(string(b[1:len(b)-1])))
	}
	pieces = append(pieces, doneChunk)
	marks := map[string]Predicate{
		"decision": mustPredicate(t, `{"jsonFields":["decision"]}`),
		"amount":   mustPredicate(t, `{"jsonFields":["refund.amount"]}`),
		"refund":   mustPredicate(t, `{"any":[{"jsonFields":["refund"]},{"event":"error"}]}`),
		"done":     mustPredicate(t, `{"event":"done"}`),
		"func":     FuncPredicate(func(c *PredicateContext) (bool, error) { return c.Event.Seq == 2, nil }),
		"never":    mustPredicate(t, `{"text":"xyz"}`),
	}
	at := map[int]float64{}
	res := readStream(&pacedReader{pieces: pieces, pause: 3 * time.Millisecond}, &Request{
		Useful: mustPredicate(t, `{"jsonFields":["decision","next_step"]}`),
		Marks:  marks,
		OnEvent: func(ev *Event) error {
			at[ev.Seq] = ev.ElapsedMS()
			return nil
		},
	})
	if res.Failed() || len(at) != 7 {
		t.Fatalf("%s %s, %d events", res.ErrorCode, res.Error, len(at))
	}
	want := map[string]int{"decision": 3, "amount": 5, "refund": 5, "done": 7, "func": 2, "never": 0}
	for name, seq := range want {
		got := res.Marks[name]
		switch {
		case seq == 0:
			null(t, name, got)
		case got == nil:
			t.Errorf("mark %s not reached, want event %d", name, seq)
		case *got != at[seq]:
			t.Errorf("mark %s at %.3f ms, want event %d at %.3f ms", name, *got, seq, at[seq])
		}
	}
	if res.Timings.Useful == nil || *res.Timings.Useful != at[6] || !res.UsefulReached {
		t.Errorf("useful %v, want event 6 at %.3f", res.Timings.Useful, at[6])
	}
}

// FuzzParsePredicate checks that parsing any JSON spec never panics and
// that accepted predicates evaluate without panicking.
func FuzzParsePredicate(f *testing.F) {
	for _, s := range []string{
		`{"fields":["a","b.c"]}`, `{"field":"a","equals":1}`, `{"text":"a+"}`, `{"jsonFields":["x"]}`,
		`{"event":"done"}`, `{"any":[{"event":"text"},{"all":[{"fields":["a"]}]}]}`, `{"text":"("}`, `[]`, `"x"`, `null`,
	} {
		f.Add(s, `{"a": {"b": 1}, "c": [1, 2]}`)
	}
	f.Fuzz(func(t *testing.T, spec, text string) {
		p, err := ParsePredicate(exportJSON(spec))
		if err != nil {
			if !errors.Is(err, ErrInvalidPredicate) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("bad error %q", err)
			}
			return
		}
		state, _ := decodeMap(text)
		ctx := predicateContext(text, state, &Event{Kind: Text, Type: "message", Text: text})
		_, _ = p.Eval(ctx)
		_, _ = p.Eval(&PredicateContext{})
	})
}
