package search

import (
	"fmt"
	"math"
)

// Verdict is how a step ended.
type Verdict string

// The verdicts of a step: every gate held; a gate failed; or the runner
// could not deliver or time the load, which says nothing of the system.
const (
	Pass    Verdict = "pass"
	Fail    Verdict = "fail"
	Limited Verdict = "runner-limited"
)

// Step is one rate tried for a step's duration, and what its window showed.
type Step struct {
	// Rate is the arrival rate asked for, in iterations per second over
	// every scaled scenario; Achieved is the rate of iterations that
	// started in the judged window.
	Rate     float64 `json:"rate"`
	Achieved float64 `json:"achieved"`
	// Run numbers the runs of a search from 1; Repeat is the repeat of
	// the rate in the across-runs strategy (1 for the first).
	Run    int     `json:"run"`
	Repeat int     `json:"repeat,omitempty"`
	Phase  string  `json:"phase"`
	Gates  []Gate  `json:"gates"`
	Health Health  `json:"health"`
	Result Verdict `json:"verdict"`
	// Start and End bound the judged window, in seconds from the run's
	// start.
	Start float64 `json:"window_start_s"`
	End   float64 `json:"window_end_s"`
}

// The phases of the staircase: raising the rate, bisecting between the
// last pass and the first failure, confirming the answer; a step of the
// across-runs strategy is a trial.
const (
	PhaseRaise   = "raise"
	PhaseBisect  = "bisect"
	PhaseConfirm = "confirm"
	PhaseTrial   = "trial"
)

// Gate is one threshold of the script judged on a step's window.
type Gate struct {
	// Metric is the metric or submetric ("usefulsse_useful{bucket:qa}");
	// Source the expression ("p(95)<2500").
	Metric string `json:"metric"`
	Source string `json:"threshold"`
	// Value is the aggregate the expression reads in the window (nil:
	// NaN, no value); Limit the number it is compared with.
	Value *float64 `json:"value"`
	Limit float64  `json:"limit"`
	Pass  bool     `json:"pass"`
	// Samples counts the window's samples of the metric.
	Samples int64 `json:"samples"`
}

// Name is the gate as one line: metric and expression.
func (g Gate) Name() string { return g.Metric + " " + g.Source }

// excess is how far the gate's value lies beyond its limit, relative to
// the limit: the largest excess names the gate a step failed worst on.
func (g Gate) excess() float64 {
	if g.Pass {
		return math.Inf(-1)
	}
	if g.Value == nil {
		return math.Inf(1)
	}
	d := math.Abs(*g.Value - g.Limit)
	if g.Limit != 0 {
		d /= math.Abs(g.Limit)
	}
	return d
}

// Health is the runner's own state during a step's window.
type Health struct {
	// Dropped counts the iterations not started for want of a VU.
	Dropped int64 `json:"dropped_iterations"`
	// LagP95 is the schedule lag's p95 in milliseconds (nil: none).
	LagP95 *float64 `json:"schedule_lag_p95_ms"`
	// CPU is the runner's mean and highest CPU, as fractions of its
	// cores (nil: not sampled, the probe not in use).
	CPU    *float64 `json:"client_cpu"`
	CPUMax *float64 `json:"client_cpu_max"`
	// ReadLagP99 is the probe's read lag p99 in milliseconds (nil: none).
	ReadLagP99 *float64 `json:"read_lag_p99_ms"`
	// Limits says what limited the runner, empty when nothing did.
	Limits []string `json:"limits,omitempty"`
	// saturated is true when the runner's CPU or lags crossed a limit:
	// its timings can't be trusted.
	saturated bool
}

// Failed returns the gates that did not hold.
func (s Step) Failed() []Gate {
	var out []Gate
	for _, g := range s.Gates {
		if !g.Pass {
			out = append(out, g)
		}
	}
	return out
}

// worst returns the failed gate furthest beyond its limit.
func (s Step) worst() (Gate, bool) {
	var best Gate
	found := false
	for _, g := range s.Failed() {
		if !found || g.excess() > best.excess() {
			best, found = g, true
		}
	}
	return best, found
}

// String is the step as one progress line.
func (s Step) String() string {
	line := fmt.Sprintf("%s %s req/s (achieved %s): %s", s.Phase, FormatRate(s.Rate), FormatRate(s.Achieved), s.Result)
	switch s.Result {
	case Fail:
		g, _ := s.worst()
		line += fmt.Sprintf(" — %s was %s", g.Name(), formatValue(g.Value))
		if n := len(s.Failed()); n > 1 {
			line += fmt.Sprintf(" (and %d more)", n-1)
		}
	case Limited:
		line += " — " + joinLimits(s.Health.Limits)
	}
	return line
}

// FormatRate formats a rate with up to four significant digits.
func FormatRate(r float64) string { return fmt.Sprintf("%.4g", r) }

// formatValue formats a gate's value, "n/a" for none.
func formatValue(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.4g", *v)
}

// joinLimits joins the runner's limits with "; ".
func joinLimits(ls []string) string {
	out := ""
	for i, l := range ls {
		if i > 0 {
			out += "; "
		}
		out += l
	}
	return out
}
