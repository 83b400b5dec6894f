package search

import "math"

// Staircase searches within one run: it raises the rate by Raise per step
// from Min until a step does not pass (or Max passes), then bisects
// between the highest passing rate and the lowest failing one until they
// lie within the resolution, and confirms the highest passing rate with a
// step of its own; a confirmation that fails moves the bracket down and
// the search goes on (at most maxConfirmations times).
type Staircase struct {
	b     bracket
	raise float64
	steps []Step
	// confirmed is the rate whose confirmation step passed; NaN for none.
	confirmed     float64
	confirmations int
}

// maxConfirmations bounds the confirmation steps of a staircase.
const maxConfirmations = 3

// NewStaircase returns a staircase within b that raises the rate by raise
// per step (by an eighth of the range when raise is 0).
func NewStaircase(b Bounds, raise float64) *Staircase {
	if raise <= 0 {
		raise = math.Max((b.Max-b.Min)/8, b.Resolution)
	}
	return &Staircase{b: newBracket(b), raise: raise, confirmed: math.NaN()}
}

// Next implements Strategy.
func (s *Staircase) Next() (float64, string, bool) {
	b := &s.b
	if len(s.steps) == 0 {
		return b.Min, PhaseRaise, true
	}
	if math.IsNaN(b.hi) {
		last := s.steps[len(s.steps)-1].Rate
		if last >= b.Max {
			return 0, "", false
		}
		return math.Min(last+s.raise, b.Max), PhaseRaise, true
	}
	if math.IsNaN(b.lo) {
		if b.hi <= b.Min || b.hi-b.Min <= b.Resolution && s.tried(b.Min) {
			return 0, "", false
		}
		return math.Max(b.mid(), b.Min), PhaseBisect, true
	}
	if !b.narrow() {
		return b.mid(), PhaseBisect, true
	}
	if s.confirmed == b.lo || s.confirmations >= maxConfirmations {
		return 0, "", false
	}
	return b.lo, PhaseConfirm, true
}

// tried reports whether a step ran at rate.
func (s *Staircase) tried(rate float64) bool {
	for _, st := range s.steps {
		if st.Rate == rate {
			return true
		}
	}
	return false
}

// Record implements Strategy.
func (s *Staircase) Record(st Step) {
	s.steps = append(s.steps, st)
	if st.Phase == PhaseConfirm {
		s.confirmations++
	}
	if st.Result == Pass {
		s.b.pass(st.Rate)
		if st.Phase == PhaseConfirm {
			s.confirmed = st.Rate
		}
		return
	}
	s.b.fail(st)
}

// Answer implements Strategy.
func (s *Staircase) Answer() Answer {
	return newAnswer("staircase", &s.b, s.steps, 1)
}
