package compare

import (
	"math"
	"math/rand/v2"
)

// exactMeanUpTo is the number of values up to which a replicate of a
// trend's avg resamples every value; above it, the mean of the n values
// resampled is drawn from the normal the central limit theorem gives it:
// mean the side's, variance the side's over n. At 10,000 values the two
// give the same interval to a few parts in a thousand.
const exactMeanUpTo = 10_000

// statKind is how a row's stat is computed and resampled.
type statKind uint8

const (
	statQuantile  statKind = iota + 1 // a trend's p(N), min (p(0)) or max (p(100))
	statMean                          // a trend's avg
	statRate                          // a rate's share of non-zero samples
	statCount                         // a counter's sum, per run
	statPerSecond                     // a counter's sum per second
)

// stat is the stat of one row.
type stat struct {
	label string // "p(95)", "avg", "rate", "count"
	kind  statKind
	q     float64 // the quantile of statQuantile, 0 to 1
}

// value returns the stat of the side with run i counted w[i] times
// (ones: the side as it ran). Counts are per run: the sum over the runs
// drawn divided by their number, so sides with different numbers of runs
// compare.
func (st stat) value(s *series, w []int) float64 {
	switch st.kind {
	case statQuantile:
		return s.quantile(w, st.q)
	case statMean:
		sum := 0.0
		for i, vs := range s.values {
			sum += float64(w[i]*len(vs)) * s.means[i]
		}
		return sum / float64(s.valueCount(w))
	case statRate:
		return weighted(s.trues, w) / weighted(s.totals, w)
	case statCount:
		return weighted(s.sums, w) / float64(total(w))
	case statPerSecond:
		return weighted(s.sums, w) / weighted(s.seconds, w)
	}
	return math.NaN()
}

// total returns the sum of the weights.
func total(w []int) int {
	n := 0
	for _, x := range w {
		n += x
	}
	return n
}

// replicate draws one bootstrap replicate of the stat on the side: runs
// drawn with replacement when the side has several, then the requests of
// the runs drawn resampled (for a quantile, the order statistic drawn
// directly; see replicateQuantile), a rate's passes drawn binomially per
// run and, for one run, a counter's sum drawn from a Poisson law.
func (st stat) replicate(rng *rand.Rand, s *series, w []int) float64 {
	w = runWeights(rng, s.runs(), w)
	switch st.kind {
	case statQuantile:
		return replicateQuantile(rng, s, w, st.q)
	case statMean:
		return replicateMean(rng, s, w)
	case statRate:
		var trues, totals int64
		for i, n := range w {
			for range n {
				p := float64(s.trues[i]) / max(float64(s.totals[i]), 1)
				trues += binomial(rng, s.totals[i], p)
				totals += s.totals[i]
			}
		}
		return float64(trues) / float64(totals)
	case statCount, statPerSecond:
		sum := weighted(s.sums, w)
		if s.runs() == 1 {
			sum = poisson(rng, sum)
		}
		if st.kind == statCount {
			return sum / float64(total(w))
		}
		return sum / weighted(s.seconds, w)
	}
	return math.NaN()
}

// replicateQuantile draws k6's percentile q of n values drawn with
// replacement from the runs weighted by w, without drawing them: with
// i = q·(n−1), k = ⌊i⌋+1, the k-th smallest of the n draws is F⁻¹(U₍ₖ₎)
// where F is the runs' pooled empirical distribution and U₍ₖ₎ ~ Beta(k,
// n−k+1) the k-th smallest of n uniforms, and the next one is F⁻¹(U₍ₖ₊₁₎)
// (nextOrderStat). F⁻¹(u) is the ⌈u·n⌉-th smallest pooled value. Pooling
// draws the n values from the runs together, not n_r from each run r: the
// runs' shares of the draw vary a little; the difference is of the order
// of 1/n.
func replicateQuantile(rng *rand.Rand, s *series, w []int, q float64) float64 {
	n := s.valueCount(w)
	if n == 0 {
		return math.NaN()
	}
	i := q * float64(n-1)
	lo := math.Floor(i)
	k := int(lo) + 1
	u := orderStat(rng, k, n)
	v := s.kth(w, inverseRank(u, n))
	if frac := i - lo; frac > 0 && k < n {
		u2 := nextOrderStat(rng, u, k, n)
		v += frac * (s.kth(w, inverseRank(u2, n)) - v)
	}
	return v
}

// inverseRank is the 1-based rank of F⁻¹(u) among n values: ⌈u·n⌉ within
// [1, n].
func inverseRank(u float64, n int) int {
	return min(max(int(math.Ceil(u*float64(n))), 1), n)
}

// replicateMean draws the mean of the runs drawn with their values
// resampled: exactly up to exactMeanUpTo values, else from the normal law
// of the mean of that many draws (the central limit theorem), whose
// variance is the pooled values' over n.
func replicateMean(rng *rand.Rand, s *series, w []int) float64 {
	n := s.valueCount(w)
	if n == 0 {
		return math.NaN()
	}
	if n <= exactMeanUpTo {
		sum := 0.0
		for i, vs := range s.values {
			for range w[i] * len(vs) {
				sum += vs[rng.IntN(len(vs))]
			}
		}
		return sum / float64(n)
	}
	mean, m2 := 0.0, 0.0
	for i, vs := range s.values {
		mean += float64(w[i]*len(vs)) * s.means[i]
	}
	mean /= float64(n)
	for i, vs := range s.values { // each run's spread plus its mean's distance
		d := s.means[i] - mean
		m2 += float64(w[i]) * (s.m2s[i] + float64(len(vs))*d*d)
	}
	variance := m2 / float64(n)
	return mean + math.Sqrt(variance/float64(n))*rng.NormFloat64()
}
