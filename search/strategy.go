package search

import (
	"fmt"
	"math"
	"sort"
)

// Strategy decides the rates a search tries, one step at a time.
type Strategy interface {
	// Next returns the next rate to try and its phase; ok is false once
	// the search has its answer.
	Next() (rate float64, phase string, ok bool)
	// Record tells the strategy how the step it asked for ended.
	Record(s Step)
	// Answer is what the steps so far say.
	Answer() Answer
}

// Bounds are the rates a search stays within and how finely it resolves
// the answer, in iterations per second.
type Bounds struct {
	Min, Max, Resolution float64
}

// Check returns the first bound that cannot be searched.
func (b Bounds) Check() error {
	switch {
	case !(b.Min > 0) || math.IsInf(b.Min, 0):
		return fmt.Errorf("--min %v: a rate above 0", b.Min)
	case !(b.Max >= b.Min) || math.IsInf(b.Max, 0):
		return fmt.Errorf("--max %v: a rate from --min (%v) up", b.Max, b.Min)
	case !(b.Resolution > 0) || math.IsInf(b.Resolution, 0):
		return fmt.Errorf("--resolution %v: a rate above 0", b.Resolution)
	}
	return nil
}

// bracket tracks the highest passing rate and the lowest failing one.
type bracket struct {
	Bounds
	passed []float64 // every passing rate, ascending
	lo, hi float64   // highest pass, lowest non-pass; NaN for none
	// hiStep is the step that set hi (its first repeat that did not pass).
	hiStep *Step
}

func newBracket(b Bounds) bracket { return bracket{Bounds: b, lo: math.NaN(), hi: math.NaN()} }

// pass records a passing rate.
func (b *bracket) pass(rate float64) {
	i := sort.SearchFloat64s(b.passed, rate)
	if i == len(b.passed) || b.passed[i] != rate {
		b.passed = append(b.passed[:i], append([]float64{rate}, b.passed[i:]...)...)
	}
	if math.IsNaN(b.lo) || rate > b.lo {
		b.lo = rate
	}
}

// fail records a rate that did not pass: it and every rate above it are
// out, and so are the passes at or above it.
func (b *bracket) fail(s Step) {
	if math.IsNaN(b.hi) || s.Rate <= b.hi {
		b.hi = s.Rate
		cp := s
		b.hiStep = &cp
	}
	for len(b.passed) > 0 && b.passed[len(b.passed)-1] >= b.hi {
		b.passed = b.passed[:len(b.passed)-1]
	}
	b.lo = math.NaN()
	if n := len(b.passed); n > 0 {
		b.lo = b.passed[n-1]
	}
}

// narrow reports whether the bracket is as narrow as the resolution.
func (b *bracket) narrow() bool {
	return !math.IsNaN(b.lo) && !math.IsNaN(b.hi) && b.hi-b.lo <= b.Resolution
}

// mid is the rate halfway between the bracket's ends (Min for a missing
// low end).
func (b *bracket) mid() float64 {
	lo := b.lo
	if math.IsNaN(lo) {
		lo = b.Min
	}
	return (lo + b.hi) / 2
}
