package compare

import "slices"

// poolStride is the number of values between two marks of a pool: a rank
// query scans at most this many values after its binary search.
const poolStride = 32

// pool is the values of several runs of one metric, merged and sorted,
// that answers "the r-th smallest value when run i's values count w[i]
// times" without merging the chosen runs: a bootstrap replicate draws runs
// with replacement, and the pooled quantile of the drawn runs is a rank
// query on the pool.
type pool struct {
	values []float64 // every run's values, sorted
	run    []uint16  // run of each value
	// marks[j][i] is the number of values of run i in values[:j·poolStride].
	marks [][]int32
	runs  int
}

// newPool merges the runs' sorted values. There are at most 65,535 runs
// (a uint16 names each).
func newPool(runs [][]float64) *pool {
	p := &pool{runs: len(runs)}
	total := 0
	for _, r := range runs {
		total += len(r)
	}
	p.values = make([]float64, 0, total)
	p.run = make([]uint16, 0, total)
	at := make([]int, len(runs))
	for len(p.values) < total {
		best := -1
		for i, r := range runs { // few runs: a linear scan beats a heap
			if at[i] < len(r) && (best < 0 || r[at[i]] < runs[best][at[best]]) {
				best = i
			}
		}
		p.values = append(p.values, runs[best][at[best]])
		p.run = append(p.run, uint16(best))
		at[best]++
	}
	counts := make([]int32, len(runs))
	for j := 0; j*poolStride <= total; j++ {
		p.marks = append(p.marks, slices.Clone(counts))
		for _, r := range p.run[j*poolStride : min((j+1)*poolStride, total)] {
			counts[r]++
		}
	}
	return p
}

// weightBefore is how many values, run i counting w[i] times, come before
// mark j.
func (p *pool) weightBefore(j int, w []int) int {
	c := 0
	for i, n := range p.marks[j] {
		c += w[i] * int(n)
	}
	return c
}

// kth returns the r-th smallest value (1-based, 1 ≤ r ≤ the weighted
// total) of the pool with run i's values counted w[i] times: a binary
// search over the marks, then a scan of at most poolStride values.
func (p *pool) kth(w []int, r int) float64 {
	lo, hi := 0, len(p.marks)-1
	for lo < hi { // the last mark with less than r values before it
		mid := (lo + hi + 1) / 2
		if p.weightBefore(mid, w) < r {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	c := p.weightBefore(lo, w)
	for i := lo * poolStride; i < len(p.values); i++ {
		if c += w[p.run[i]]; c >= r {
			return p.values[i]
		}
	}
	return p.values[len(p.values)-1]
}
