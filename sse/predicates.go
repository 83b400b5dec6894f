package sse

import "fmt"

// predicates evaluates a request's useful predicate and marks after each
// event, until each first holds.
type predicates struct {
	useful     Predicate // nil: the default of the detected dialect
	usefulDone bool
	names      []string
	labels     []string // "marks.<name>", for callback errors
	marks      []Predicate
	reached    []point
	left       int // marks not reached yet
	json       *JSONTracker
	matchers   map[*textPredicate]*textMatcher
	ctx        PredicateContext
	ctxSeq     int // the event ctx was built for (Event.Seq; 0: none)
	cls        *Classifier

	// A predicate on the merged state alone (stateOnly) cannot change its
	// verdict on an event that merged no state, once it was evaluated: most
	// events of a stream carry text only.
	usefulState bool    // the useful predicate given is one
	usefulIn    Dialect // the dialect the useful predicate was last evaluated in ("": never)
	marksState  []bool  // which marks are on the state alone
	marksTried  bool    // the marks were evaluated once
}

// newPredicates binds the request's predicates; a JSON tracker is created
// when any of them uses jsonFields, text matchers when any uses text.
func newPredicates(req *Request, cls *Classifier) *predicates {
	p := &predicates{useful: req.Useful, cls: cls, names: req.markNames(), usefulState: stateOnly(req.Useful)}
	paths := map[string]bool{}
	texts := false
	if p.useful != nil {
		jsonPaths(p.useful, paths)
		texts = hasText(p.useful)
	}
	for _, n := range p.names {
		p.marks = append(p.marks, req.Marks[n])
		p.marksState = append(p.marksState, stateOnly(req.Marks[n]))
		p.labels = append(p.labels, "marks."+n)
		jsonPaths(req.Marks[n], paths)
		texts = texts || hasText(req.Marks[n])
	}
	if texts {
		p.matchers = map[*textPredicate]*textMatcher{}
	}
	p.reached, p.left = make([]point, len(p.marks)), len(p.marks)
	if len(paths) > 0 {
		list := make([]string, 0, len(paths))
		for k := range paths {
			list = append(list, k)
		}
		p.json = NewJSONTracker(list)
	}
	return p
}

// eval feeds the event's text to the JSON tracker and evaluates the
// predicates not reached yet; a predicate's error ends the request.
func (p *predicates) eval(ev *Event, s *stream) error {
	if p.json != nil && ev.Text != "" {
		p.json.Write(ev.Text)
	}
	if p.usefulDone && p.left == 0 {
		return nil
	}
	if err := p.evalUseful(ev, s); err != nil {
		return err
	}
	return p.evalMarks(ev, s)
}

// context returns what the predicates see after ev, built for the first
// predicate evaluated after it: events that change no predicate's verdict
// build none.
func (p *predicates) context(ev *Event, s *stream) *PredicateContext {
	if p.ctxSeq != ev.Seq {
		p.ctxSeq = ev.Seq
		p.ctx = PredicateContext{
			State: s.content.state, Text: s.content.text.String(), Event: ev,
			ElapsedMS: ms(ev.At), JSON: p.json, FirstText: s.tl.firstText.ok, matchers: p.matchers,
		}
	}
	return &p.ctx
}

// evalUseful evaluates the useful predicate.
func (p *predicates) evalUseful(ev *Event, s *stream) error {
	if p.usefulDone {
		return nil
	}
	pred, onState, d := p.useful, p.usefulState, p.cls.Dialect()
	if pred == nil {
		pred = DefaultUseful(d)
		onState = stateOnly(pred)
	}
	if onState && ev.State == nil && p.usefulIn == d {
		return nil
	}
	p.usefulIn = d
	ok, err := evalNamed("useful", pred, p.context(ev, s))
	if ok {
		p.usefulDone = true
		s.tl.useful.set(ev.At)
	}
	return err
}

// evalMarks evaluates the marks not reached yet.
func (p *predicates) evalMarks(ev *Event, s *stream) error {
	tried := p.marksTried
	p.marksTried = true
	for i, m := range p.marks {
		if p.reached[i].ok || (tried && p.marksState[i] && ev.State == nil) {
			continue
		}
		ok, err := evalNamed(p.labels[i], m, p.context(ev, s))
		if err != nil {
			return err
		}
		if ok {
			p.reached[i].set(ev.At)
			p.left--
		}
	}
	return nil
}

// evalNamed evaluates a predicate; its errors and panics (function
// predicates run user code) become *CallbackError named name.
func evalNamed(name string, pred Predicate, c *PredicateContext) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			ok, err = false, &CallbackError{Name: name, Err: fmt.Errorf("panic: %v", r)}
		}
	}()
	if ok, err = pred.Eval(c); err != nil {
		return false, &CallbackError{Name: name, Err: err}
	}
	return ok, nil
}

// results returns the marks' times keyed by name, nil when not reached.
func (p *predicates) results() map[string]*float64 {
	out := make(map[string]*float64, len(p.names))
	for i, n := range p.names {
		out[n] = p.reached[i].ms()
	}
	return out
}
