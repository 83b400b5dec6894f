package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// meanVar returns the mean and the variance of xs.
func meanVar(xs []float64) (mean, variance float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(xs)-1)
}

// checkMoments fails when the sample's mean or variance is more than 5
// standard errors off the law's; the standard error of the variance is
// taken for a law with a kurtosis of at most 9 (relative SE √(8/n)).
func checkMoments(t *testing.T, name string, xs []float64, mean, variance float64) {
	t.Helper()
	m, v := meanVar(xs)
	n := float64(len(xs))
	if d := math.Abs(m - mean); d > 5*math.Sqrt(variance/n)+1e-12 {
		t.Errorf("%s: mean %v, want %v (± %v)", name, m, mean, 5*math.Sqrt(variance/n))
	}
	if d := math.Abs(v - variance); d > 5*variance*math.Sqrt(8/n)+1e-12 {
		t.Errorf("%s: variance %v, want %v", name, v, variance)
	}
}

func draw(n int, f func() float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f()
	}
	return out
}

func TestGamma(t *testing.T) {
	for _, tt := range []struct {
		name  string
		shape float64
	}{{"below one (boosted)", 0.3}, {"one (exponential)", 1}, {"small", 2.5}, {"large", 500}, {"order statistic of 100k", 95000}} {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			xs := draw(40000, func() float64 { return gamma(rng, tt.shape) })
			if slices.ContainsFunc(xs, func(x float64) bool { return x <= 0 || math.IsNaN(x) }) {
				t.Fatal("a variate is not positive")
			}
			checkMoments(t, tt.name, xs, tt.shape, tt.shape) // Gamma(a, 1): mean and variance a
		})
	}
}

func TestOrderStat(t *testing.T) {
	for _, tt := range []struct {
		name string
		k, n int
	}{{"min of 1", 1, 1}, {"median of 11", 6, 11}, {"p95 of 1000", 950, 1000}, {"max of 100k", 100000, 100000}, {"min of 100k", 1, 100000}} {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			xs := draw(40000, func() float64 { return orderStat(rng, tt.k, tt.n) })
			k, n := float64(tt.k), float64(tt.n)
			// Beta(k, n−k+1): mean k/(n+1), variance k(n−k+1)/((n+1)²(n+2)).
			checkMoments(t, tt.name, xs, k/(n+1), k*(n-k+1)/((n+1)*(n+1)*(n+2)))
		})
	}
}

// TestNextOrderStat checks U₍ₖ₊₁₎ drawn from U₍ₖ₎ against its own law,
// Beta(k+1, n−k), and that it is never below U₍ₖ₎.
func TestNextOrderStat(t *testing.T) {
	for _, tt := range []struct {
		name string
		k, n int
	}{{"2 of 3", 1, 3}, {"median of 10", 5, 10}, {"p99 of 100k", 99000, 100000}, {"last pair", 99, 100}} {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			xs := draw(40000, func() float64 {
				u := orderStat(rng, tt.k, tt.n)
				next := nextOrderStat(rng, u, tt.k, tt.n)
				if next < u {
					t.Fatalf("U(k+1) = %v below U(k) = %v", next, u)
				}
				return next
			})
			k, n := float64(tt.k+1), float64(tt.n)
			checkMoments(t, tt.name, xs, k/(n+1), k*(n-k+1)/((n+1)*(n+1)*(n+2)))
		})
	}
}

func TestBinomial(t *testing.T) {
	for _, tt := range []struct {
		name string
		n    int64
		p    float64
	}{
		{"inversion, rare", 1000, 0.003}, {"inversion, small n", 20, 0.3}, {"symmetric, p above 0.5", 50, 0.9},
		{"normal approximation", 100000, 0.02}, {"normal, p = 0.5", 400, 0.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 8))
			xs := draw(40000, func() float64 {
				x := binomial(rng, tt.n, tt.p)
				if x < 0 || x > tt.n {
					t.Fatalf("binomial(%d, %v) = %d, out of range", tt.n, tt.p, x)
				}
				return float64(x)
			})
			n := float64(tt.n)
			checkMoments(t, tt.name, xs, n*tt.p, n*tt.p*(1-tt.p))
		})
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tt := range []struct {
		n    int64
		p    float64
		want int64
	}{{0, 0.5, 0}, {10, 0, 0}, {10, 1, 10}} {
		if got := binomial(rng, tt.n, tt.p); got != tt.want {
			t.Errorf("binomial(%d, %v) = %d, want %d", tt.n, tt.p, got, tt.want)
		}
	}
}

func TestPoisson(t *testing.T) {
	for _, tt := range []struct {
		name   string
		lambda float64
	}{{"small", 0.7}, {"below the switch", 29}, {"normal approximation", 400}} {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(9, 10))
			xs := draw(40000, func() float64 { return poisson(rng, tt.lambda) })
			checkMoments(t, tt.name, xs, tt.lambda, tt.lambda)
		})
	}
	if got := poisson(rand.New(rand.NewPCG(1, 1)), 0); got != 0 {
		t.Errorf("poisson(0) = %v, want 0", got)
	}
}

func TestRunWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	if w := runWeights(rng, 1, nil); !slices.Equal(w, []int{1}) {
		t.Errorf("one run: weights %v, want [1]", w)
	}
	counts := make([]float64, 4)
	for range 10000 {
		w := runWeights(rng, 4, nil)
		if total(w) != 4 {
			t.Fatalf("weights %v do not add up to 4", w)
		}
		for i, x := range w {
			counts[i] += float64(x)
		}
	}
	for i, c := range counts { // each run is drawn once per replicate on average
		if math.Abs(c/10000-1) > 0.05 {
			t.Errorf("run %d drawn %v times per replicate, want 1", i, c/10000)
		}
	}
}

// TestPoolKth checks the pool's weighted rank query against merging the
// runs, each repeated its weight's times, and sorting.
func TestPoolKth(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 50 {
		runs := make([][]float64, 1+rng.IntN(5))
		for i := range runs {
			runs[i] = make([]float64, rng.IntN(200))
			for j := range runs[i] {
				runs[i][j] = float64(rng.IntN(50)) // ties across and within runs
			}
			slices.Sort(runs[i])
		}
		p := newPool(runs)
		w := make([]int, len(runs))
		var all []float64
		for i := range w {
			w[i] = rng.IntN(3)
			for range w[i] {
				all = append(all, runs[i]...)
			}
		}
		slices.Sort(all)
		for r := 1; r <= len(all); r++ {
			if got := p.kth(w, r); got != all[r-1] {
				t.Fatalf("trial %d, weights %v: rank %d = %v, want %v", trial, w, r, got, all[r-1])
			}
		}
	}
}

// k6Percentile is the summary's percentile of sorted values.
func k6Percentile(sorted []float64, q float64) float64 {
	i := q * float64(len(sorted)-1)
	lo := math.Floor(i)
	if int(lo) >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[int(lo)] + (i-lo)*(sorted[int(lo)+1]-sorted[int(lo)])
}

// TestReplicateQuantileMatchesResampling checks that drawing the order
// statistics directly gives the law of k6's percentile of a resample, by
// comparing the two laws' quantiles on a small sample where resampling is
// cheap: a single run, and three runs drawn with replacement.
func TestReplicateQuantileMatchesResampling(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, tt := range []struct {
		name string
		runs int
		q    float64
	}{{"p(95) of one run", 1, 0.95}, {"p(50) of one run", 1, 0.5}, {"p(90) of three runs", 3, 0.9}} {
		t.Run(tt.name, func(t *testing.T) {
			s := &series{typ: "trend"}
			for range tt.runs {
				vs := slices.Sorted(slices.Values(lognormal(rng, 60, 100, 0.6, 1)))
				s.values = append(s.values, vs)
				s.seconds = append(s.seconds, 1)
			}
			if tt.runs > 1 {
				s.pool = newPool(s.values)
			}
			const reps = 20000
			direct := draw(reps, func() float64 { return replicateQuantile(rng, s, runWeights(rng, tt.runs, nil), tt.q) })
			naive := draw(reps, func() float64 {
				var pooled []float64
				for i, n := range runWeights(rng, tt.runs, nil) {
					for range n * len(s.values[i]) {
						pooled = append(pooled, s.values[i][rng.IntN(len(s.values[i]))])
					}
				}
				slices.Sort(pooled)
				return k6Percentile(pooled, tt.q)
			})
			slices.Sort(direct)
			slices.Sort(naive)
			spread := naive[reps*975/1000] - naive[reps*25/1000]
			for _, at := range []float64{0.025, 0.25, 0.5, 0.75, 0.975} {
				d, n := direct[int(at*reps)], naive[int(at*reps)]
				if math.Abs(d-n) > 0.08*spread {
					t.Errorf("quantile %v of the replicates: direct %v, resampling %v (spread %v)", at, d, n, spread)
				}
			}
		})
	}
}

// TestReplicateMeanNormalApproximation checks that the mean's normal
// approximation, used above exactMeanUpTo values, has the spread of exact
// resampling.
func TestReplicateMeanNormalApproximation(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	runs := [][]float64{
		slices.Sorted(slices.Values(lognormal(rng, 6000, 100, 0.5, 1))),
		slices.Sorted(slices.Values(lognormal(rng, 6000, 100, 0.5, 1.2))),
	}
	s := &series{typ: "trend", values: runs, seconds: []float64{1, 1}, pool: newPool(runs)}
	for _, vs := range runs {
		m, m2 := moments(vs)
		s.means, s.m2s = append(s.means, m), append(s.m2s, m2)
	}
	w := []int{1, 1} // 12,000 values: the normal approximation
	approx := draw(4000, func() float64 { return replicateMean(rng, s, w) })
	exact := draw(4000, func() float64 {
		sum := 0.0
		for _, vs := range runs {
			for range vs {
				sum += vs[rng.IntN(len(vs))]
			}
		}
		return sum / 12000
	})
	ma, va := meanVar(approx)
	me, ve := meanVar(exact)
	if math.Abs(ma-me) > 4*math.Sqrt(ve/4000*2) || math.Abs(va/ve-1) > 0.1 {
		t.Errorf("normal approximation: mean %v, variance %v; exact resampling: mean %v, variance %v", ma, va, me, ve)
	}
}
