package search

import "math"

// Bisect searches across fresh runs: Min, then Max, then halves the
// bracket between the highest rate that passed in every repeat and the
// lowest one that did not, until it is as narrow as the resolution. Every
// rate runs Repeat times; it passes only when all of them pass.
type Bisect struct {
	b      bracket
	repeat int
	steps  []Step
	// cur is the rate being repeated; runs and passes count its repeats
	// so far, and miss is its first repeat that did not pass.
	cur          float64
	runs, passes int
	miss         *Step
}

// NewBisect returns a bisection within b with repeat runs per rate.
func NewBisect(b Bounds, repeat int) *Bisect {
	return &Bisect{b: newBracket(b), repeat: max(repeat, 1), cur: math.NaN()}
}

// Next implements Strategy.
func (s *Bisect) Next() (float64, string, bool) {
	if !math.IsNaN(s.cur) {
		return s.cur, PhaseTrial, true
	}
	b := &s.b
	switch {
	case len(s.steps) == 0:
		s.cur = b.Min
	case math.IsNaN(b.lo):
		return 0, "", false // Min did not pass
	case math.IsNaN(b.hi) && b.lo < b.Max:
		s.cur = b.Max
	case math.IsNaN(b.hi) || b.narrow():
		return 0, "", false
	default:
		s.cur = b.mid()
	}
	return s.cur, PhaseTrial, true
}

// Record implements Strategy.
func (s *Bisect) Record(st Step) {
	s.steps = append(s.steps, st)
	s.runs++
	if st.Result == Pass {
		s.passes++
	} else if s.miss == nil {
		cp := st
		s.miss = &cp
	}
	if s.runs < s.repeat {
		return
	}
	if s.passes == s.runs {
		s.b.pass(s.cur)
	} else {
		s.b.fail(*s.miss)
	}
	s.cur, s.runs, s.passes, s.miss = math.NaN(), 0, 0, nil
}

// RepeatOf returns which repeat of its rate the next step is, from 1.
func (s *Bisect) RepeatOf() int { return s.runs + 1 }

// Answer implements Strategy.
func (s *Bisect) Answer() Answer {
	return newAnswer("runs", &s.b, s.steps, s.repeat)
}
