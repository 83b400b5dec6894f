package mock

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// z95 is the standard normal quantile of 0.95.
const z95 = 1.6448536269514722

// Dist is a latency distribution in milliseconds: lognormal with the given
// median and 95th percentile, optionally clamped. A sample is
//
//	x = MedianMS · exp(σ·Z),  σ = ln(P95MS / MedianMS) / 1.6449,  Z ~ N(0, 1)
//
// clamped to [MinMS, MaxMS]. P95MS equal to MedianMS (or zero) makes the
// stage take exactly MedianMS. The zero Dist takes no time.
type Dist struct {
	// MedianMS is the median latency in milliseconds; must be >= 0.
	MedianMS float64 `json:"median_ms"`
	// P95MS is the 95th percentile in milliseconds; must be 0 or >= MedianMS.
	P95MS float64 `json:"p95_ms"`
	// MinMS is a lower bound in milliseconds applied after sampling; 0 means none.
	MinMS float64 `json:"min_ms,omitempty"`
	// MaxMS is an upper bound in milliseconds applied after sampling; 0 means none.
	MaxMS float64 `json:"max_ms,omitempty"`
}

// ms returns the Dist with the given median and p95, in milliseconds.
func ms(median, p95 float64) Dist { return Dist{MedianMS: median, P95MS: p95} }

// Sample draws one latency from r. It always consumes exactly one normal
// draw, so a constant Dist leaves the rest of a seeded schedule unchanged.
func (d Dist) Sample(r *rand.Rand) time.Duration {
	z := r.NormFloat64()
	x := d.MedianMS
	if d.P95MS > d.MedianMS && d.MedianMS > 0 {
		x *= math.Exp(math.Log(d.P95MS/d.MedianMS) / z95 * z)
	}
	if x < d.MinMS {
		x = d.MinMS
	}
	if d.MaxMS > 0 && x > d.MaxMS {
		x = d.MaxMS
	}
	return msDuration(x)
}

// validate returns the problems of d, each naming the field path name.
func (d Dist) validate(name string) []error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{name}, args...)...))
	}
	for _, v := range [...]float64{d.MedianMS, d.P95MS, d.MinMS, d.MaxMS} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			bad("latencies must be finite and >= 0 ms")
			return errs
		}
	}
	if d.P95MS != 0 && d.P95MS < d.MedianMS {
		bad("p95_ms %g is below median_ms %g", d.P95MS, d.MedianMS)
	}
	if d.MaxMS != 0 && d.MaxMS < d.MinMS {
		bad("max_ms %g is below min_ms %g", d.MaxMS, d.MinMS)
	}
	return errs
}

// msDuration converts float milliseconds to a Duration, rounded to the
// nanosecond.
func msDuration(x float64) time.Duration {
	return time.Duration(math.Round(x * 1e6))
}

// durationMS converts a Duration to float milliseconds.
func durationMS(d time.Duration) float64 {
	return float64(d) / 1e6
}

// errNotPositive reports a setting that must be > 0.
var errNotPositive = errors.New("must be > 0")
