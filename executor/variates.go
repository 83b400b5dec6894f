package executor

import "math"

// variates draws the random numbers of the arrival processes from one
// SplitMix64 stream (Steele, Lea and Flood, 2014): the state advances by a
// fixed odd constant and each output is the state scrambled by mix64. The
// generator and the transforms are written here rather than taken from
// math/rand, whose methods may change their outputs between Go releases, so
// a schedule is a pure function of its seed.
type variates struct{ state uint64 }

// golden is SplitMix64's increment, 2^64 divided by the golden ratio.
const golden = 0x9e3779b97f4a7c15

// mix64 is SplitMix64's output function: a bijection of uint64 that
// scatters nearby inputs over the whole range.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// newVariates returns the stream keyed by (seed, key): distinct keys give
// streams that do not overlap in practice (their starting states are
// scattered over 2^64).
func newVariates(seed, key uint64) variates {
	return variates{state: mix64(seed ^ mix64(key+golden))}
}

func (v *variates) next() uint64 {
	v.state += golden
	return mix64(v.state)
}

// uniform returns a uniform variate in (0, 1), never 0 nor 1: the top 53
// bits of a draw plus half a step.
func (v *variates) uniform() float64 {
	return (float64(v.next()>>11) + 0.5) / (1 << 53)
}

// normal returns a standard normal variate by Marsaglia's polar method:
// x·√(−2 ln s / s) for (x, y) uniform in the unit disc, s = x² + y².
func (v *variates) normal() float64 {
	for {
		x, y := 2*v.uniform()-1, 2*v.uniform()-1
		if s := x*x + y*y; s < 1 && s > 0 {
			return x * math.Sqrt(-2*math.Log(s)/s)
		}
	}
}

// logGamma returns the logarithm of a Gamma(shape, 1) variate, shape > 0,
// by Marsaglia and Tsang's method (2000): for shape ≥ 1, with
// d = shape − 1/3, c = 1/√(9d), x normal and w = (1 + c·x)³ > 0, d·w is
// accepted when u < 1 − 0.0331·x⁴ or ln u < x²/2 + d·(1 − w + ln w), u
// uniform. Below 1, Gamma(shape) = Gamma(shape + 1)·u^(1/shape), kept in
// logarithms so that small shapes do not underflow to 0 (the result may be
// −Inf for shapes near 1e-300, never NaN).
func (v *variates) logGamma(shape float64) float64 {
	if shape < 1 {
		return v.logGamma(shape+1) + math.Log(v.uniform())/shape
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := v.normal()
		t := 1 + c*x
		if t <= 0 {
			continue
		}
		w := t * t * t
		u := v.uniform()
		if x2 := x * x; u < 1-0.0331*x2*x2 || math.Log(u) < x2/2+d*(1-w+math.Log(w)) {
			return math.Log(d) + math.Log(w)
		}
	}
}
