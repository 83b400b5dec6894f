package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/result"
	"github.com/usefullatency/usefullatency/summary"
)

// The notes' tolerances: the sides' iteration rates may differ by 2 %,
// their durations by 5 %, before a note says so.
const (
	rateTolerance     = 0.02
	durationTolerance = 0.05
	// readLagLate is the read lag p99, in ms, above which a runner's
	// timings may be late (the summary's client health says so too).
	readLagLate = 20.0
)

// sideNames name the sides in notes.
var sideNames = [2]string{"base", "new"}

// notes says what differs between the sides besides the code: the tests
// (with AllowDifferent), the iteration rates, dropped iterations, a
// saturated load generator, the durations.
func notes(base, new []*result.File, different bool) []string {
	var out []string
	sides := [2][]*result.File{base, new}
	if different && !sameTest(base, new) {
		out = append(out, "the sides are results of different tests (the script, its scenarios or its thresholds differ): metrics are compared by name and tags")
	}
	rates := [2]float64{iterationRate(base), iterationRate(new)}
	if differ(rates[0], rates[1], rateTolerance) {
		out = append(out, fmt.Sprintf("the sides ran at different rates: %s vs %s (iterations): the load differs, not only the code",
			perSecond(rates[0]), perSecond(rates[1])))
	}
	dropped := [2]float64{counterSum(base, "dropped_iterations"), counterSum(new, "dropped_iterations")}
	if dropped[0] > 0 || dropped[1] > 0 {
		out = append(out, fmt.Sprintf("dropped iterations: %s in base, %s in new: a side could not start every iteration on time, its latencies are of less load than the test asked",
			summary.FormatNumber(dropped[0]), summary.FormatNumber(dropped[1])))
	}
	for i, side := range sides {
		for _, f := range side {
			if h := saturation(f); h != "" {
				out = append(out, fmt.Sprintf("the %s side's load generator was saturated in %s (%s): its timings may be late", sideNames[i], pathOf(f), h))
			}
		}
	}
	durs := [2]float64{meanDuration(base), meanDuration(new)}
	if differ(durs[0], durs[1], durationTolerance) {
		out = append(out, fmt.Sprintf("the sides ran for different durations: %s vs %s per run",
			summary.FormatTime(durs[0]*1000, ""), summary.FormatTime(durs[1]*1000, "")))
	}
	return out
}

// sameTest reports whether every run is of one test.
func sameTest(base, new []*result.File) bool {
	for _, f := range append(slices.Clone(base), new...) {
		if f.TestID != base[0].TestID {
			return false
		}
	}
	return true
}

// differ reports whether a and b differ by more than tol of the larger.
func differ(a, b, tol float64) bool {
	m := max(math.Abs(a), math.Abs(b))
	return m > 0 && math.Abs(a-b) > tol*m
}

// iterationRate is the side's iterations per second over its runs.
func iterationRate(side []*result.File) float64 {
	secs := 0.0
	for _, f := range side {
		secs += f.Duration.Seconds()
	}
	if secs == 0 {
		return 0
	}
	return counterSum(side, "iterations") / secs
}

// counterSum sums a counter over the side's runs; 0 where a run lacks it.
func counterSum(side []*result.File, name string) float64 {
	t := 0.0
	for _, f := range side {
		if s, typ, _, ok := sinkOf(f, metricKey{name: name}); ok && typ == "counter" {
			t += s.Sum
		}
	}
	return t
}

// meanDuration is the side's mean run duration, in seconds.
func meanDuration(side []*result.File) float64 {
	var t time.Duration
	for _, f := range side {
		t += f.Duration
	}
	return t.Seconds() / float64(len(side))
}

// perSecond writes a rate "12.0/s".
func perSecond(v float64) string { return fmt.Sprintf("%.1f/s", v) }

// saturation describes a run's load generator when it was saturated: CPU
// at metrics.ClientSaturated or above, or a read lag p99 above
// readLagLate; "" otherwise.
func saturation(f *result.File) string {
	var parts []string
	if s, typ, _, ok := sinkOf(f, metricKey{name: metrics.ProbeClientCPU}); ok && typ == "gauge" && s.Set && s.Max >= metrics.ClientSaturated {
		parts = append(parts, "CPU peak "+summary.FormatPercent(s.Max)+" of its cores")
	}
	if s, typ, _, ok := sinkOf(f, metricKey{name: metrics.ProbeReadLag}); ok && typ == "trend" && len(s.Values) > 0 {
		vs := s.Values
		if !slices.IsSorted(vs) {
			vs = slices.Sorted(slices.Values(vs))
		}
		se := &series{values: [][]float64{vs}}
		if p99 := se.quantile([]int{1}, 0.99); p99 > readLagLate {
			parts = append(parts, "read lag p99 "+summary.FormatTime(p99, ""))
		}
	}
	return strings.Join(parts, ", ")
}
