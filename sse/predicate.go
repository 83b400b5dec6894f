package sse

import (
	"regexp"
	"regexp/syntax"
	"slices"
)

// Predicate decides whether a moment of the stream has been reached. The
// client evaluates a request's predicates after every event until each first
// holds; a predicate's time is the At of that event.
type Predicate interface {
	// Eval reports whether the predicate holds. An error ends the request
	// with error code callback_error.
	Eval(c *PredicateContext) (bool, error)
}

// PredicateContext is what a predicate sees after an event.
type PredicateContext struct {
	// State is the deep-merged business state so far.
	State map[string]any
	// Text is the visible text so far.
	Text string
	// Event is the event just classified.
	Event *Event
	// ElapsedMS is the event's time since the send, in milliseconds.
	ElapsedMS float64
	// JSON tracks the visible text as a streamed JSON object; nil when no
	// jsonFields predicate is bound to the request.
	JSON *JSONTracker
	// FirstText reports whether non-whitespace visible text has arrived.
	FirstText bool
	// matchers are the request's incremental text matchers, one per text
	// predicate; nil outside a request (then text predicates rescan Text).
	matchers map[*textPredicate]*textMatcher
}

// FuncPredicate adapts a function, such as a JavaScript (ctx) => bool, to
// Predicate.
type FuncPredicate func(c *PredicateContext) (bool, error)

// Eval calls f.
func (f FuncPredicate) Eval(c *PredicateContext) (bool, error) { return f(c) }

// Compile-time checks that every predicate form implements Predicate.
var (
	_ Predicate = FuncPredicate(nil)
	_ Predicate = (*fieldsPredicate)(nil)
	_ Predicate = (*equalsPredicate)(nil)
	_ Predicate = (*textPredicate)(nil)
	_ Predicate = (*jsonFieldsPredicate)(nil)
	_ Predicate = (*eventPredicate)(nil)
	_ Predicate = (*anyPredicate)(nil)
	_ Predicate = (*allPredicate)(nil)
	_ Predicate = firstTextPredicate{}
)

// fieldsPredicate holds when every path is present in the state: it exists
// and is neither null nor an empty string.
type fieldsPredicate struct{ paths [][]string }

// Eval implements Predicate.
func (p *fieldsPredicate) Eval(c *PredicateContext) (bool, error) {
	for _, path := range p.paths {
		if !present(lookupState(c.State, path)) {
			return false, nil
		}
	}
	return true, nil
}

// stateOnly reports whether p's verdict depends on the merged state alone:
// fields, equals, and any or all of those.
func stateOnly(p Predicate) bool {
	var ps []Predicate
	switch q := p.(type) {
	case *fieldsPredicate, *equalsPredicate:
		return true
	case *anyPredicate:
		ps = q.ps
	case *allPredicate:
		ps = q.ps
	default:
		return false
	}
	for _, q := range ps {
		if !stateOnly(q) {
			return false
		}
	}
	return true
}

// equalsPredicate holds when the state value at path equals want.
type equalsPredicate struct {
	path []string
	want any
}

// Eval implements Predicate.
func (p *equalsPredicate) Eval(c *PredicateContext) (bool, error) {
	v, ok := lookupState(c.State, p.path)
	return ok && equalValues(v, p.want), nil
}

// textPredicate holds when the regular expression matches the visible text
// so far. Within a request it scans each byte of the text once (see
// textMatcher), so its cost is linear in the stream.
type textPredicate struct {
	re   *regexp.Regexp
	prog *syntax.Prog
}

// Eval implements Predicate.
func (p *textPredicate) Eval(c *PredicateContext) (bool, error) {
	if c.matchers == nil {
		return p.re.MatchString(c.Text), nil
	}
	m := c.matchers[p]
	if m == nil {
		m = newTextMatcherProg(p.prog)
		c.matchers[p] = m
	}
	return m.match(c.Text), nil
}

// jsonFieldsPredicate holds when every path is complete in the visible
// text's JSON object.
type jsonFieldsPredicate struct{ paths []string }

// Eval implements Predicate.
func (p *jsonFieldsPredicate) Eval(c *PredicateContext) (bool, error) {
	if c.JSON == nil {
		return false, nil
	}
	for _, path := range p.paths {
		if !c.JSON.Complete(path) {
			return false, nil
		}
	}
	return true, nil
}

// eventPredicate holds at an event of the given kind or SSE type.
type eventPredicate struct {
	name   string
	kind   Kind
	isKind bool
}

// Eval implements Predicate.
func (p *eventPredicate) Eval(c *PredicateContext) (bool, error) {
	if c.Event == nil {
		return false, nil
	}
	return (p.isKind && c.Event.Kind == p.kind) || c.Event.Type == p.name, nil
}

// anyPredicate holds when one of its predicates holds.
type anyPredicate struct{ ps []Predicate }

// Eval implements Predicate.
func (p *anyPredicate) Eval(c *PredicateContext) (bool, error) {
	for _, q := range p.ps {
		if ok, err := q.Eval(c); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// allPredicate holds when all its predicates hold.
type allPredicate struct{ ps []Predicate }

// Eval implements Predicate.
func (p *allPredicate) Eval(c *PredicateContext) (bool, error) {
	for _, q := range p.ps {
		if ok, err := q.Eval(c); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// firstTextPredicate holds once non-whitespace visible text has arrived.
type firstTextPredicate struct{}

// Eval implements Predicate.
func (firstTextPredicate) Eval(c *PredicateContext) (bool, error) { return c.FirstText, nil }

// DefaultUseful returns the useful predicate of a dialect when the request
// sets none. business: {fields: ['decision', 'reason', 'next_step']}, the
// actionable conclusion in the merged business state. openai, anthropic and
// raw: the first non-whitespace visible text (useful equals first_text),
// since those streams carry no structured notion of an answer; set Useful
// (e.g. {jsonFields: [...]} or {text: ...}) to measure more. auto: the
// default of the detected dialect.
func DefaultUseful(d Dialect) Predicate {
	if d == DialectBusiness {
		return businessUseful
	}
	return firstTextPredicate{}
}

// businessUseful is the business dialect's default useful predicate.
var businessUseful = &fieldsPredicate{paths: [][]string{{"decision"}, {"reason"}, {"next_step"}}}

// JSONFieldPaths returns the dot paths of every jsonFields predicate in p,
// sorted, for a caller that feeds its own JSONTracker (the UI probe); nil
// when p has none.
func JSONFieldPaths(p Predicate) []string {
	set := map[string]bool{}
	jsonPaths(p, set)
	if len(set) == 0 {
		return nil
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// jsonPaths collects the paths of every jsonFields predicate inside p.
func jsonPaths(p Predicate, into map[string]bool) {
	switch q := p.(type) {
	case *jsonFieldsPredicate:
		for _, path := range q.paths {
			into[path] = true
		}
	case *anyPredicate:
		for _, r := range q.ps {
			jsonPaths(r, into)
		}
	case *allPredicate:
		for _, r := range q.ps {
			jsonPaths(r, into)
		}
	}
}

// hasText reports whether p is or contains a text predicate.
func hasText(p Predicate) bool {
	switch q := p.(type) {
	case *textPredicate:
		return true
	case *anyPredicate:
		return slices.ContainsFunc(q.ps, hasText)
	case *allPredicate:
		return slices.ContainsFunc(q.ps, hasText)
	}
	return false
}
