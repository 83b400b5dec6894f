package compare

import (
	"math"
	"slices"
	"strings"

	"github.com/usefullatency/usefullatency/metrics"
)

// higherIsWorse reports whether a larger value of the row is a regression.
// A threshold on the metric (else on its parent) decides when it has an
// order: < and <= gate against high values, > and >= against low ones.
// Otherwise time trends and failure rates and counts are worse higher;
// checks, goodput (usefulsse_good), *_reached, *success* and iterations
// are better higher.
func higherIsWorse(k metricKey, ths thresholdSet) bool {
	for _, key := range []metricKey{k, {name: k.name}} {
		for _, t := range ths[key] {
			switch t.Operator {
			case "<", "<=":
				return true
			case ">", ">=":
				return false
			}
		}
	}
	name := k.name
	switch {
	case name == "checks", name == "iterations", name == "http_reqs", name == metrics.ProbeGood,
		strings.HasSuffix(name, "_reached"), strings.Contains(name, "success"):
		return false
	}
	return true
}

// decide sets the row's verdict: with the interval oriented so that
// positive is worse and e the effect, regressed when the whole interval
// lies above +e, improved when below −e, else no clear change; undecided
// when the interval is not entirely within [−e, +e] either. An undecided
// row's NeedRequests is n·(h/(e/2))², n the mean of the sides' sizes and h
// the interval's half-width: the interval narrows as 1/√n, and at a
// half-width of e/2 an interval centred on the truth decides; at least
// twice the present n.
//
// A relative effect with a Floor also needs the absolute interval beyond
// the floor: a row is regressed (improved) only when both intervals lie
// beyond their bounds, and settled as no change when either interval lies
// within its bounds.
func decide(r *Row) {
	lo, hi, e := r.RelLow, r.RelHigh, r.Effect.Relative
	if r.Effect.Relative == 0 {
		lo, hi, e = r.Low, r.High, r.Effect.Absolute
	}
	alo, ahi, f := r.Low, r.High, r.Effect.Floor
	if !r.HigherIsWorse {
		lo, hi = -hi, -lo
		alo, ahi = -ahi, -alo
	}
	half := (hi - lo) / 2
	r.Score = (lo + hi) / 2 / half
	if half == 0 || math.IsNaN(r.Score) {
		r.Score = 0
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		r.Score = math.Copysign(1e9, lo+hi)
	}
	switch {
	case lo > e && (f == 0 || alo > f):
		r.Verdict = Regressed
	case hi < -e && (f == 0 || ahi < -f):
		r.Verdict = Improved
	default:
		r.Verdict = NoChange
		r.Undecided = !(lo >= -e && hi <= e) && !(f > 0 && alo >= -f && ahi <= f)
	}
	if !r.Undecided || r.Type == "counter" || e <= 0 || math.IsInf(half, 0) || math.IsNaN(half) {
		return
	}
	n := float64(r.BaseN+r.NewN) / 2
	need := math.Ceil(n * (half / (e / 2)) * (half / (e / 2)))
	r.NeedRequests = int(min(max(need, 2*n), 1e12))
}

// verdictRank orders the verdicts in the table: regressions first, then
// improvements, then the undecided, then the rows with no change.
func verdictRank(r Row) int {
	switch {
	case r.Verdict == Regressed:
		return 0
	case r.Verdict == Improved:
		return 1
	case r.Undecided:
		return 2
	}
	return 3
}

// sortRows sorts the rows by significance: by verdict (verdictRank), then
// by how far the interval lies from zero (|Score|), then by bucket,
// metric and stat.
func sortRows(rows []Row) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		if c := verdictRank(a) - verdictRank(b); c != 0 {
			return c
		}
		if sa, sb := math.Abs(a.Score), math.Abs(b.Score); sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		for _, c := range [][2]string{{a.Bucket, b.Bucket}, {a.Metric, b.Metric}, {a.Stat, b.Stat}} {
			if c[0] != c[1] {
				return strings.Compare(c[0], c[1])
			}
		}
		return 0
	})
}

// quantileSorted is the q-quantile of sorted xs with linear interpolation
// (i = q·(n−1)); at an infinite neighbour the nearer value.
func quantileSorted(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	i := q * float64(len(xs)-1)
	lo := int(math.Floor(i))
	if lo >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	a, b, frac := xs[lo], xs[lo+1], i-float64(lo)
	if a == b || math.IsInf(a, 0) || math.IsInf(b, 0) {
		if frac < 0.5 {
			return a
		}
		return b
	}
	return a + frac*(b-a)
}

// sortFloats sorts xs, NaN first.
func sortFloats(xs []float64) { slices.Sort(xs) }

// joinList joins names with ", ".
func joinList(names []string) string { return strings.Join(names, ", ") }
