package compare

import (
	"math"
	"slices"

	"github.com/usefullatency/usefullatency/result"
)

// series is one side's data of one metric (or submetric, or bucket of the
// breakdown): a run's aggregate per run, in the side's order.
type series struct {
	typ  string // "trend", "rate" or "counter"
	time bool   // a trend of times, in ms
	// values are a trend's sorted values per run; sums its sums (a
	// counter's sum) and counts its value counts (a counter's samples).
	values [][]float64
	sums   []float64
	counts []int64
	// trues and totals are a rate's.
	trues, totals []int64
	// seconds is each run's duration.
	seconds []float64
	// means and m2s are each trend run's mean and sum of squared
	// deviations from it, for the normal approximation of the mean.
	means, m2s []float64
	pool       *pool // the runs' values merged, when there are several
}

// sinkOf finds the aggregate of key in f: the metric, its submetric with
// the key's tags, else the bucket of the breakdown the key's single tag
// names. It returns the metric's type and whether it holds times.
func sinkOf(f *result.File, k metricKey) (s *result.Sink, typ string, isTime, ok bool) {
	i := slices.IndexFunc(f.Metrics, func(m result.Metric) bool { return m.Name == k.name })
	if i < 0 {
		return nil, "", false, false
	}
	m := &f.Metrics[i]
	typ, isTime = m.Type, m.Contains == "time"
	if k.sel == "" {
		return &m.Sink, typ, isTime, true
	}
	for j := range m.Submetrics {
		if c, err := canonicalSelector(m.Submetrics[j].Selector); err == nil && c == k.sel {
			return &m.Submetrics[j].Sink, typ, isTime, true
		}
	}
	if s := bucketSink(f.Breakdown, k); s != nil {
		return s, typ, isTime, true
	}
	return nil, typ, isTime, false
}

// bucketSink returns the breakdown's aggregate of the bucket key's one tag
// names, when that tag is one the breakdown buckets by.
func bucketSink(b *result.Breakdown, k metricKey) *result.Sink {
	tags := k.tags()
	if b == nil || len(tags) != 1 {
		return nil
	}
	for key, value := range tags {
		if !slices.Contains(b.Keys, key) {
			return nil
		}
		for i := range b.Buckets {
			if b.Buckets[i].Name != value {
				continue
			}
			for j := range b.Buckets[i].Sinks {
				if s := &b.Buckets[i].Sinks[j]; s.Metric == k.name {
					return &s.Sink
				}
			}
		}
	}
	return nil
}

// newSeries reads key from every run of a side. found is false when no run
// has it; a run without it counts as empty (a counter that never counted
// is not written).
func newSeries(runs []*result.File, k metricKey) (s *series, found bool) {
	s = &series{}
	for _, f := range runs {
		sink, typ, isTime, ok := sinkOf(f, k)
		if ok {
			s.typ, s.time = typ, isTime
		}
		found = found || ok
		if sink == nil {
			sink = &result.Sink{}
		}
		s.add(sink, f.Duration.Seconds())
	}
	if len(s.values) > 1 {
		s.pool = newPool(s.values)
	}
	return s, found
}

// add appends one run's aggregate.
func (s *series) add(sink *result.Sink, seconds float64) {
	s.seconds = append(s.seconds, seconds)
	s.sums = append(s.sums, sink.Sum)
	s.counts = append(s.counts, sink.Count)
	s.trues = append(s.trues, sink.Trues)
	s.totals = append(s.totals, sink.Total)
	vs := sink.Values
	if !slices.IsSorted(vs) {
		vs = slices.Clone(vs)
		slices.Sort(vs)
	}
	s.values = append(s.values, vs)
	mean, m2 := moments(vs)
	s.means = append(s.means, mean)
	s.m2s = append(s.m2s, m2)
}

// moments returns the mean of vs and the sum of squared deviations from
// it, in two passes.
func moments(vs []float64) (mean, m2 float64) {
	if len(vs) == 0 {
		return 0, 0
	}
	for _, v := range vs {
		mean += v
	}
	mean /= float64(len(vs))
	for _, v := range vs {
		m2 += (v - mean) * (v - mean)
	}
	return mean, m2
}

// runs returns the number of runs.
func (s *series) runs() int { return len(s.seconds) }

// n is the side's sample size: a trend's values, a rate's total, a
// counter's samples, over all runs.
func (s *series) n() int {
	total := 0
	for i := range s.seconds {
		switch s.typ {
		case "trend":
			total += len(s.values[i])
		case "rate":
			total += int(s.totals[i])
		default:
			total += int(s.counts[i])
		}
	}
	return total
}

// empty reports whether the side has nothing to compare: no trend value,
// no rate sample. A counter is never empty: it counted zero.
func (s *series) empty() bool {
	switch s.typ {
	case "trend", "rate":
		return s.n() == 0
	case "counter":
		return false
	}
	return true
}

// allValues returns the pooled sorted values of a trend.
func (s *series) allValues() []float64 {
	if s.pool != nil {
		return s.pool.values
	}
	if len(s.values) == 1 {
		return s.values[0]
	}
	return nil
}

// ones is a weight of one for each run: the side as it ran.
func ones(n int) []int {
	w := make([]int, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// weighted returns the weighted total of xs.
func weighted[T int64 | float64](xs []T, w []int) float64 {
	t := 0.0
	for i, x := range xs {
		t += float64(w[i]) * float64(x)
	}
	return t
}

// valueCount is the number of trend values with runs weighted by w.
func (s *series) valueCount(w []int) int {
	n := 0
	for i, vs := range s.values {
		n += w[i] * len(vs)
	}
	return n
}

// kth returns the r-th smallest trend value (1-based) with run i counted
// w[i] times.
func (s *series) kth(w []int, r int) float64 {
	if s.pool == nil {
		return s.values[0][r-1]
	}
	return s.pool.kth(w, r)
}

// quantile is k6's percentile of the values with runs weighted by w: with
// the n values sorted, i = q·(n−1) and linear interpolation between the
// ⌊i⌋-th and the next (0-based). NaN without values.
func (s *series) quantile(w []int, q float64) float64 {
	n := s.valueCount(w)
	if n == 0 {
		return math.NaN()
	}
	i := q * float64(n-1)
	lo := math.Floor(i)
	k := int(lo) + 1 // 1-based rank of the lower value
	v := s.kth(w, k)
	if frac := i - lo; frac > 0 && k < n {
		v += frac * (s.kth(w, k+1) - v)
	}
	return v
}
