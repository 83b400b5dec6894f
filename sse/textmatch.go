package sse

import (
	"regexp/syntax"
	"unicode/utf8"
)

// textMatcher answers "does the regular expression match the visible text
// so far?" after every event in time linear in the stream, where calling
// regexp.MatchString on the whole text after every event is quadratic (a
// 5,000-event stream cost seconds of CPU).
//
// It runs the compiled program as a Thompson NFA without captures, over
// each byte of text once: the set of program states reached by the text
// scanned so far is carried from one call to the next, and the start state
// is added at every position, so a match may start anywhere. This works for
// every regular expression, bounded or not. The answer is exactly
// regexp.MatchString's on the text so far:
//
//   - A match that ends before the end of the text (whose assertions saw
//     the next rune) is final: the text before it never changes, so the
//     matcher holds from then on.
//   - At the end of the text the assertions see the end of the text (as
//     MatchString does), but that answer is not kept: `days\.$` holds while
//     the text ends with "days." and not after more text arrives, and
//     `o\B` is decided at the next call, when the next rune is known.
//   - A rune cut between two events is read whole at the next call
//     (MatchString of the text so far sees its bytes as invalid runes).
//
// A textMatcher is one request's state; the compiled program is shared.
type textMatcher struct {
	prog *syntax.Prog
	// pos is how many bytes of the text were scanned; prev the last rune
	// scanned (-1 at the start of the text).
	pos  int
	prev rune
	// pending are the states reached by consuming the last rune, to be
	// expanded once the next rune is known.
	pending []uint32
	// matched reports a final match.
	matched bool
	cur     stateSet
	next    stateSet
}

// newTextMatcher compiles expr as regexp.Compile does.
func newTextMatcher(expr string) (*textMatcher, error) {
	prog, err := compileProg(expr)
	if err != nil {
		return nil, err
	}
	return newTextMatcherProg(prog), nil
}

// compileProg compiles expr to a program as regexp.Compile does.
func compileProg(expr string) (*syntax.Prog, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	return syntax.Compile(re.Simplify())
}

// newTextMatcherProg returns a matcher of a compiled program.
func newTextMatcherProg(prog *syntax.Prog) *textMatcher {
	n := len(prog.Inst)
	m := &textMatcher{prog: prog, cur: newStateSet(n), next: newStateSet(n)}
	m.reset()
	return m
}

// reset forgets the text scanned.
func (m *textMatcher) reset() {
	m.pos, m.prev, m.pending, m.matched = 0, -1, m.pending[:0], false
}

// match reports whether the expression matches text, which must extend
// the text of the previous call (a shorter text starts over).
func (m *textMatcher) match(text string) bool {
	if len(text) < m.pos {
		m.reset()
	}
	for !m.matched && m.pos < len(text) {
		r, size := utf8.DecodeRuneInString(text[m.pos:])
		if r == utf8.RuneError && size == 1 && !utf8.FullRuneInString(text[m.pos:]) {
			return m.endsHere(text, r)
		}
		if m.expand(r) {
			m.matched = true
			break
		}
		m.consume(r)
		m.pos += size
	}
	return m.matched || m.endsHere(text, -1)
}

// endsHere reports whether a match ends at m.pos with the next rune
// unknown: the end of text (next == -1), or a cut rune read as invalid
// bytes to the end of the text, as MatchString reads them. It changes no
// state.
func (m *textMatcher) endsHere(text string, next rune) bool {
	if next == -1 {
		return m.closure(m.pending, m.prev, -1)
	}
	// A cut rune: replay its bytes (each an invalid rune) on a copy.
	c := *m
	c.pending = append([]uint32(nil), m.pending...)
	c.cur, c.next = newStateSet(len(m.prog.Inst)), newStateSet(len(m.prog.Inst))
	for p := m.pos; p < len(text); p++ {
		if c.expand(utf8.RuneError) {
			return true
		}
		c.consume(utf8.RuneError)
	}
	return c.closure(c.pending, c.prev, -1)
}

// expand computes the states at m.pos, where the next rune is next, into
// m.cur, and reports whether one of them is a match.
func (m *textMatcher) expand(next rune) bool {
	return m.closure(m.pending, m.prev, next)
}

// closure fills m.cur with the states reachable without consuming a rune
// from from and the start state, between runes prev and next (-1: text
// edge); it reports whether a match state is among them.
func (m *textMatcher) closure(from []uint32, prev, next rune) bool {
	m.cur.clear()
	ctx := syntax.EmptyOpContext(prev, next)
	matched := false
	for _, pc := range from {
		matched = m.add(pc, ctx) || matched
	}
	return m.add(uint32(m.prog.Start), ctx) || matched
}

// add adds pc and the states it reaches without consuming a rune to
// m.cur; it reports whether a match state was reached.
func (m *textMatcher) add(pc uint32, ctx syntax.EmptyOp) bool {
	if m.cur.has(pc) {
		return false
	}
	m.cur.insert(pc)
	i := &m.prog.Inst[pc]
	switch i.Op {
	case syntax.InstMatch:
		return true
	case syntax.InstAlt, syntax.InstAltMatch:
		a := m.add(i.Out, ctx)
		return m.add(i.Arg, ctx) || a
	case syntax.InstEmptyWidth:
		if syntax.EmptyOp(i.Arg)&^ctx == 0 {
			return m.add(i.Out, ctx)
		}
	case syntax.InstNop, syntax.InstCapture:
		return m.add(i.Out, ctx)
	}
	return false
}

// consume moves the states in m.cur over rune r into m.pending.
func (m *textMatcher) consume(r rune) {
	m.next.clear()
	for _, pc := range m.cur.dense {
		i := &m.prog.Inst[pc]
		ok := false
		switch i.Op {
		case syntax.InstRune:
			ok = i.MatchRune(r)
		case syntax.InstRune1:
			ok = r == i.Rune[0]
		case syntax.InstRuneAny:
			ok = true
		case syntax.InstRuneAnyNotNL:
			ok = r != '\n'
		}
		if ok && !m.next.has(i.Out) {
			m.next.insert(i.Out)
		}
	}
	m.pending = append(m.pending[:0], m.next.dense...)
	m.prev = r
}

// stateSet is a sparse set of program counters: O(1) insert, test and
// clear, and iteration in insertion order.
type stateSet struct {
	sparse []uint32
	dense  []uint32
}

// newStateSet returns a set for program counters below n.
func newStateSet(n int) stateSet {
	return stateSet{sparse: make([]uint32, n), dense: make([]uint32, 0, n)}
}

// has reports whether pc is in the set.
func (s *stateSet) has(pc uint32) bool {
	i := s.sparse[pc]
	return int(i) < len(s.dense) && s.dense[i] == pc
}

// insert adds pc, which must not be in the set.
func (s *stateSet) insert(pc uint32) {
	s.sparse[pc] = uint32(len(s.dense))
	s.dense = append(s.dense, pc)
}

// clear empties the set.
func (s *stateSet) clear() { s.dense = s.dense[:0] }
