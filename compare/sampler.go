package compare

import (
	"math"
	"math/rand/v2"
)

// The random variates the bootstrap draws. Each takes the replicate's
// generator, a seeded PCG, so a comparison is reproducible.

// gamma draws from Gamma(shape, 1) by Marsaglia and Tsang's method
// (ACM TOMS 26(3), 2000): with d = shape − 1/3 and c = 1/√(9d), draw a
// normal x until v = (1 + c·x)³ > 0 and a uniform u accepts it
// (log u < x²/2 + d − d·v + d·log v); the variate is d·v. A shape below 1
// is boosted: Gamma(a) = Gamma(a+1)·U^(1/a). It panics for shape ≤ 0.
func gamma(rng *rand.Rand, shape float64) float64 {
	if shape <= 0 {
		panic("compare: gamma shape must be positive")
	}
	if shape < 1 {
		return gamma(rng, shape+1) * math.Pow(rng.Float64(), 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// beta draws from Beta(a, b), a, b > 0, as X/(X+Y) with X ~ Gamma(a) and
// Y ~ Gamma(b).
func beta(rng *rand.Rand, a, b float64) float64 {
	x := gamma(rng, a)
	y := gamma(rng, b)
	return x / (x + y)
}

// orderStat draws U₍ₖ₎, the k-th smallest (1-based, 1 ≤ k ≤ n) of n
// independent uniforms on (0, 1): Beta(k, n−k+1).
func orderStat(rng *rand.Rand, k, n int) float64 {
	return beta(rng, float64(k), float64(n-k+1))
}

// nextOrderStat draws U₍ₖ₊₁₎ given U₍ₖ₎ = u among n uniforms (k < n): the
// n−k uniforms above u are uniform on (u, 1), and the smallest of m
// uniforms on (0, 1) is 1 − V^(1/m) for V uniform, so
// U₍ₖ₊₁₎ = u + (1−u)·(1 − V^(1/(n−k))), with 1 − V^(1/m) computed as
// −expm1(log V / m) to keep its digits when m is large.
func nextOrderStat(rng *rand.Rand, u float64, k, n int) float64 {
	v := 1 - rng.Float64() // in (0, 1]: log v is finite
	return u + (1-u)*-math.Expm1(math.Log(v)/float64(n-k))
}

// normalApproxFrom is the mean (n·p or λ) from which the binomial and
// Poisson samplers use the normal approximation: the skew left at 30 is
// below 0.2 and the percentiles of the bootstrap barely move.
const normalApproxFrom = 30

// binomial draws from Binomial(n, p): by inversion (Kachitvichyanukul and
// Schmeiser's BINV) while n·min(p, 1−p) < normalApproxFrom, else from the
// normal with the same mean and variance, rounded and clamped to [0, n].
func binomial(rng *rand.Rand, n int64, p float64) int64 {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	case p > 0.5:
		return n - binomial(rng, n, 1-p)
	}
	mean := float64(n) * p
	if mean >= normalApproxFrom {
		x := math.Round(mean + math.Sqrt(mean*(1-p))*rng.NormFloat64())
		return int64(min(max(x, 0), float64(n)))
	}
	q := 1 - p
	s := p / q
	a := float64(n+1) * s
	r := math.Exp(float64(n) * math.Log1p(-p)) // q^n
	u := rng.Float64()
	var x int64
	for u > r && x < n {
		u -= r
		x++
		r *= a/float64(x) - s
	}
	return x
}

// poisson draws from Poisson(lambda): by multiplying uniforms (Knuth)
// while lambda < normalApproxFrom, else from the normal with mean and
// variance lambda, rounded and clamped at 0.
func poisson(rng *rand.Rand, lambda float64) float64 {
	if lambda <= 0 {
		return 0
	}
	if lambda >= normalApproxFrom {
		return max(math.Round(lambda+math.Sqrt(lambda)*rng.NormFloat64()), 0)
	}
	limit := math.Exp(-lambda)
	k := 0.0
	for p := rng.Float64(); p > limit; p *= rng.Float64() {
		k++
	}
	return k
}

// runWeights draws how many times each of n runs is chosen when n runs are
// drawn with replacement; one run is always chosen once.
func runWeights(rng *rand.Rand, n int, into []int) []int {
	into = into[:0]
	for range n {
		into = append(into, 0)
	}
	if n == 1 {
		into[0] = 1
		return into
	}
	for range n {
		into[rng.IntN(n)]++
	}
	return into
}
