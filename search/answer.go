package search

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
)

// ExitBelowExpected is the exit code of a search whose capacity lies below
// --expect: the thresholds' code, since the gates failed at the rate the
// user expects to carry.
const ExitBelowExpected = 99

// How a search's answer is bounded.
const (
	// Found: a rate passed and one within the resolution above it failed.
	Found = "found"
	// AtLeast: every rate passed up to --max; the capacity is higher.
	AtLeast = "at-least-max"
	// BelowMin: --min itself did not pass.
	BelowMin = "below-min"
	// RunnerLimited: the lowest rate that did not pass was limited by the
	// runner, not by a gate: the capacity is at least the answer.
	RunnerLimited = "runner-limited"
)

// Answer is what a search found.
type Answer struct {
	Strategy string `json:"strategy"`
	// Capacity is the highest rate that passed (in every repeat); nil
	// when none did.
	Capacity *float64 `json:"capacity"`
	Bound    string   `json:"bound"`
	// FailRate is the lowest rate that did not pass; nil when all did.
	FailRate *float64 `json:"fail_rate"`
	// FirstGate is the gate that failed worst at FailRate ("" when that
	// step was limited by the runner or nothing failed); FailedGates all
	// the gates that failed there.
	FirstGate   string   `json:"first_gate_to_fail,omitempty"`
	FailedGates []string `json:"failed_gates,omitempty"`
	// Limits are the runner's limits at FailRate, when it was limited.
	Limits     []string      `json:"runner_limits,omitempty"`
	Resolution float64       `json:"resolution"`
	Min        float64       `json:"min"`
	Max        float64       `json:"max"`
	Repeat     int           `json:"repeat"`
	Rates      []RateSummary `json:"rates"`
	Steps      []Step        `json:"steps"`
	// Expect is --expect (nil: not given); Met whether the capacity
	// reaches it.
	Expect *float64 `json:"expect,omitempty"`
	Met    *bool    `json:"met,omitempty"`
	// Seconds is how long the search took.
	Seconds float64 `json:"seconds"`
	// Interrupted is true when the search was stopped (a signal) before
	// it had its answer: the bound says what the steps so far showed.
	Interrupted bool `json:"interrupted,omitempty"`
}

// RateSummary is how often a rate passed.
type RateSummary struct {
	Rate   float64 `json:"rate"`
	Runs   int     `json:"runs"`
	Passed int     `json:"passed"`
}

// newAnswer reads the answer off a bracket and the steps that built it.
func newAnswer(strategy string, b *bracket, steps []Step, repeat int) Answer {
	a := Answer{Strategy: strategy, Resolution: b.Resolution, Min: b.Min, Max: b.Max, Repeat: repeat,
		Steps: append([]Step(nil), steps...), Rates: summarize(steps)}
	if !math.IsNaN(b.lo) {
		a.Capacity = ptr(b.lo)
	}
	switch {
	case math.IsNaN(b.lo):
		a.Bound = BelowMin
	case math.IsNaN(b.hi):
		a.Bound = AtLeast
	case b.hiStep != nil && b.hiStep.Result == Limited:
		a.Bound = RunnerLimited
	default:
		a.Bound = Found
	}
	if b.hiStep != nil {
		a.FailRate = ptr(b.hi)
		a.Limits = b.hiStep.Health.Limits
		if g, ok := b.hiStep.worst(); ok && b.hiStep.Result == Fail {
			a.FirstGate = g.Name()
		}
		if b.hiStep.Result == Fail {
			for _, g := range b.hiStep.Failed() {
				a.FailedGates = append(a.FailedGates, g.Name())
			}
		}
	}
	return a
}

// summarize counts the runs and passes of every rate, ascending.
func summarize(steps []Step) []RateSummary {
	by := map[float64]*RateSummary{}
	for _, s := range steps {
		r := by[s.Rate]
		if r == nil {
			r = &RateSummary{Rate: s.Rate}
			by[s.Rate] = r
		}
		r.Runs++
		if s.Result == Pass {
			r.Passed++
		}
	}
	out := make([]RateSummary, 0, len(by))
	for _, r := range by {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rate < out[j].Rate })
	return out
}

// SetExpect records --expect and whether the capacity reaches it.
func (a *Answer) SetExpect(expect float64) {
	met := a.Capacity != nil && *a.Capacity >= expect
	a.Expect, a.Met = &expect, &met
}

// Line is the answer in one line: the capacity and the first gate to
// fail above it, or why there is no such gate.
func (a Answer) Line() string {
	if a.Interrupted {
		if a.Capacity == nil {
			return "capacity: unknown — the search was interrupted before a rate passed"
		}
		line := fmt.Sprintf("capacity: at least %s req/s so far — the search was interrupted before it ended", FormatRate(*a.Capacity))
		if a.FailRate != nil {
			line += fmt.Sprintf("; %s req/s did not pass", FormatRate(*a.FailRate))
		}
		return line
	}
	switch a.Bound {
	case BelowMin:
		line := fmt.Sprintf("capacity: below %s req/s (--min did not pass)", FormatRate(a.Min))
		if a.FirstGate != "" {
			line += "; first gate to fail: " + a.FirstGate
		}
		if len(a.Limits) > 0 && a.FirstGate == "" {
			line += "; the runner was limited: " + joinLimits(a.Limits)
		}
		return line
	case AtLeast:
		return fmt.Sprintf("capacity: at least %s req/s (every gate held up to --max; raise it to find the limit)", rateOrNone(a.Capacity))
	case RunnerLimited:
		return fmt.Sprintf("capacity: at least %s req/s; the runner, not the system, limited the search at %s req/s: %s",
			rateOrNone(a.Capacity), rateOrNone(a.FailRate), joinLimits(a.Limits))
	}
	if a.Capacity == nil || a.FailRate == nil {
		return "capacity: unknown (the search ended before a rate was judged)"
	}
	return fmt.Sprintf("capacity: %s req/s (within %s); first gate to fail above it: %s at %s req/s",
		FormatRate(*a.Capacity), FormatRate(a.Resolution), a.FirstGate, FormatRate(*a.FailRate))
}

// rateOrNone formats a rate, "none" for nil.
func rateOrNone(r *float64) string {
	if r == nil {
		return "none"
	}
	return FormatRate(*r)
}

// WriteTable prints every step (rate, verdict, each gate's value, the
// runner's health), the rates' pass counts when a rate ran more than once,
// and the answer line.
func (a Answer) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var gates []string
	if len(a.Steps) > 0 {
		for _, g := range a.Steps[0].Gates {
			gates = append(gates, g.Name())
		}
	}
	fmt.Fprintf(tw, "step\trate\tachieved\tverdict\tdropped\tlag p95\tcpu")
	for i := range gates {
		fmt.Fprintf(tw, "\tgate %d", i+1)
	}
	fmt.Fprintln(tw)
	for i, s := range a.Steps {
		fmt.Fprintf(tw, "%d %s\t%s\t%s\t%s\t%d\t%s\t%s", i+1, s.Phase, FormatRate(s.Rate), FormatRate(s.Achieved), s.Result,
			s.Health.Dropped, msOrDash(s.Health.LagP95), percentOrDash(s.Health.CPU))
		for _, g := range s.Gates {
			mark := ""
			if !g.Pass {
				mark = " ✗"
			}
			fmt.Fprintf(tw, "\t%s%s", formatValue(g.Value), mark)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, g := range gates {
		fmt.Fprintf(w, "  gate %d: %s\n", i+1, g)
	}
	if a.Repeat > 1 {
		parts := make([]string, len(a.Rates))
		for i, r := range a.Rates {
			parts[i] = fmt.Sprintf("%s req/s %d/%d", FormatRate(r.Rate), r.Passed, r.Runs)
		}
		fmt.Fprintf(w, "passed: %s\n", strings.Join(parts, ", "))
	}
	_, err := fmt.Fprintln(w, a.Line())
	return err
}

func msOrDash(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.1fms", *v)
}

func percentOrDash(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", *v*100)
}
