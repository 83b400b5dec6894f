package result

import (
	"math/rand/v2"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// share is one runner's part of a test built from real metrics: values
// n ∈ [from, to) go to a Trend (with a parity submetric), a Counter, a Rate,
// a Gauge and a check, and to a per-bucket breakdown by parity.
func share(seg string, from, to int, start time.Time) *File {
	reg := metrics.NewRegistry()
	eng := metrics.NewEngine(reg)
	trend := reg.MustNewMetric("iit", metrics.Trend, metrics.Time)
	count := reg.MustNewMetric("done", metrics.Counter)
	rate := reg.MustNewMetric("even", metrics.Rate)
	gauge := reg.MustNewMetric("last", metrics.Gauge)
	if _, err := reg.Submetric(trend, "parity:even"); err != nil {
		panic(err)
	}
	b := metrics.NewBreakdown([]string{"parity"}, trend, rate)
	eng.Subscribe(b.Add)
	root := metrics.NewRootGroup()
	chk := root.Group("numbers").Check("is even")
	times := map[string]time.Time{}
	for n := from; n < to; n++ {
		tags := metrics.Tags{"parity": parity(n)}
		at := start.Add(time.Duration(n) * time.Millisecond)
		v := float64(n) + 0.25
		eng.Push(
			metrics.Sample{Metric: trend, Tags: tags, Value: v, Time: at},
			metrics.Sample{Metric: count, Tags: tags, Value: 1, Time: at},
			metrics.Sample{Metric: rate, Tags: tags, Value: float64((n + 1) % 2), Time: at},
			metrics.Sample{Metric: gauge, Tags: tags, Value: v, Time: at},
		)
		times["last"] = at
		chk.Record(n%2 == 0)
	}
	o := options.Options{
		ExecutionSegment: seg, ExecutionSegmentSequence: "0,1/3,2/3,1",
		Thresholds: map[string][]metrics.ThresholdConfig{"done": {{Source: "count==60"}}},
	}
	return Snapshot(Source{
		Script: "test.js", ScriptSource: []byte("export default function () {}"), Options: o,
		Registry: reg, Root: root, Streaming: b,
		Start: start, End: start.Add(time.Minute), Duration: time.Minute, GaugeTimes: times,
	})
}

func parity(n int) string {
	if n%2 == 0 {
		return "even"
	}
	return "odd"
}

// thirds returns the three shares of 0..59, the middle one started a
// second later.
func thirds() []*File {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return []*File{
		share("0:1/3", 0, 20, t0),
		share("1/3:2/3", 20, 40, t0.Add(time.Second)),
		share("2/3:1", 40, 60, t0),
	}
}

// randomValues returns n values of a latency-like spread.
func randomValues(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]float64, n)
	for i := range out {
		out[i] = r.ExpFloat64() * 120
	}
	return out
}

// metric returns the metric called name of f, or the zero Metric.
func metric(f *File, name string) Metric {
	for _, m := range f.Metrics {
		if m.Name == name {
			return m
		}
	}
	return Metric{}
}

// trendOf returns the Trend sink of a materialized metric.
func trendOf(r *Run, name string) *metrics.TrendSink {
	return r.Registry.Get(name).Sink.(*metrics.TrendSink)
}
