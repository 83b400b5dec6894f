package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/usefullatency/usefullatency/result"
)

// run builds a one-run result of test "t" lasting 10 s with the given
// metrics.
func run(ms ...result.Metric) *result.File {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return &result.File{
		Format: result.Format, Version: result.Version, TestID: "t", Script: "test.js",
		Segments: []string{"0:1"}, Start: start, End: start.Add(10 * time.Second), Duration: 10 * time.Second,
		Metrics: ms,
	}
}

// trend is a time trend holding vs.
func trend(name string, vs []float64) result.Metric {
	vs = slices.Sorted(slices.Values(vs))
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	return result.Metric{Name: name, Type: "trend", Contains: "time",
		Sink: result.Sink{Values: vs, Count: int64(len(vs)), Sum: sum}}
}

// rate is a rate of trues out of total.
func rate(name string, trues, total int64) result.Metric {
	return result.Metric{Name: name, Type: "rate", Contains: "default", Sink: result.Sink{Trues: trues, Total: total}}
}

// counter is a counter of sum over count samples.
func counter(name string, sum float64, count int64) result.Metric {
	return result.Metric{Name: name, Type: "counter", Contains: "default", Sink: result.Sink{Sum: sum, Count: count}}
}

// lognormal draws n lognormal values of median med (ms) and shape sigma,
// times scale.
func lognormal(rng *rand.Rand, n int, med, sigma, scale float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = scale * med * math.Exp(sigma*rng.NormFloat64())
	}
	return out
}
