package metrics

import (
	"math"
	"sort"
	"time"
)

// Sink aggregates the samples of one metric.
type Sink interface {
	// Add folds one value into the aggregate.
	Add(v float64)
	// Empty reports whether no value was added yet.
	Empty() bool
}

// NewSink returns the empty sink for a metric type.
func NewSink(t MetricType) Sink {
	switch t {
	case Counter:
		return &CounterSink{}
	case Gauge:
		return &GaugeSink{}
	case Rate:
		return &RateSink{}
	default:
		return &TrendSink{}
	}
}

// CounterSink keeps the sum of the values.
type CounterSink struct {
	Sum   float64
	Count int64
}

// Add adds v to the sum.
func (c *CounterSink) Add(v float64) { c.Sum += v; c.Count++ }

// Empty reports whether no value was added.
func (c *CounterSink) Empty() bool { return c.Count == 0 }

// Rate returns the sum per second of the elapsed test time d; 0 when d is 0.
func (c *CounterSink) Rate(d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return c.Sum / d.Seconds()
}

// GaugeSink keeps the last value and the extremes.
type GaugeSink struct {
	Value, Min, Max float64
	set             bool
}

// Add records v as the current value.
func (g *GaugeSink) Add(v float64) {
	g.Value = v
	if !g.set || v < g.Min {
		g.Min = v
	}
	if !g.set || v > g.Max {
		g.Max = v
	}
	g.set = true
}

// Empty reports whether no value was added.
func (g *GaugeSink) Empty() bool { return !g.set }

// RateSink counts non-zero values among all values.
type RateSink struct {
	Trues, Total int64
}

// Add counts v, as a pass when it is non-zero.
func (r *RateSink) Add(v float64) {
	r.Total++
	if v != 0 {
		r.Trues++
	}
}

// Empty reports whether no value was added.
func (r *RateSink) Empty() bool { return r.Total == 0 }

// Rate returns passes ÷ total, 0 when empty.
func (r *RateSink) Rate() float64 {
	if r.Total == 0 {
		return 0
	}
	return float64(r.Trues) / float64(r.Total)
}

// TrendSink keeps every value so percentiles are exact. Values are stored
// in chunks of 8192 (the first grows to that size from 16), so beyond the
// first 8192 adding one never copies the values before it; the first
// percentile query after an add merges and sorts them once.
type TrendSink struct {
	chunks        [][]float64
	count         int
	sorted        bool
	Sum, Min, Max float64
}

// trendChunk is the number of values per chunk (64 KiB of float64).
const trendChunk = 8192

// trendFirstChunk is the capacity of a Trend's first chunk, which grows by
// doubling up to trendChunk: a sink that sees a few values (one per tag set
// of a high-cardinality tag) holds 128 bytes of them, not 64 KiB.
const trendFirstChunk = 16

// Add appends v.
func (t *TrendSink) Add(v float64) {
	if t.count == 0 || v < t.Min {
		t.Min = v
	}
	if t.count == 0 || v > t.Max {
		t.Max = v
	}
	last := len(t.chunks) - 1
	switch {
	case last < 0:
		t.chunks = append(t.chunks, make([]float64, 0, trendFirstChunk))
		last = 0
	case len(t.chunks[last]) == cap(t.chunks[last]) && cap(t.chunks[last]) >= trendChunk:
		t.chunks = append(t.chunks, make([]float64, 0, trendChunk))
		last++
	}
	t.chunks[last] = append(t.chunks[last], v) // a small first chunk grows
	t.count++
	t.Sum += v
	t.sorted = false
}

// Empty reports whether no value was added.
func (t *TrendSink) Empty() bool { return t.count == 0 }

// Count returns the number of values.
func (t *TrendSink) Count() int { return t.count }

// Avg returns the arithmetic mean, 0 when empty.
func (t *TrendSink) Avg() float64 {
	if t.count == 0 {
		return 0
	}
	return t.Sum / float64(t.count)
}

// P returns the percentile p (0 ≤ p ≤ 1) the way k6 computes it: the values
// sorted, i = p·(n−1), linear interpolation between v[⌊i⌋] and v[⌈i⌉]. It is
// 0 for no values and the value itself for one.
func (t *TrendSink) P(p float64) float64 {
	n := t.count
	switch {
	case n == 0:
		return 0
	case n == 1:
		return t.chunks[0][0]
	}
	values := t.Values()
	if !t.sorted {
		sort.Float64s(values)
		t.sorted = true
	}
	i := p * float64(n-1)
	lo := math.Floor(i)
	if lo >= float64(n-1) {
		return values[n-1]
	}
	if lo < 0 {
		return values[0]
	}
	k := int(lo)
	return values[k] + (i-lo)*(values[k+1]-values[k])
}

// Values returns the values as one slice, merging the chunks if needed; it
// is sorted after a call to P with no Add since. The caller must not modify
// the slice.
func (t *TrendSink) Values() []float64 {
	if len(t.chunks) > 1 {
		all := make([]float64, 0, t.count+trendChunk)
		for _, c := range t.chunks {
			all = append(all, c...)
		}
		// The merged slice keeps spare room, so it goes on filling up.
		t.chunks = [][]float64{all}
	}
	if len(t.chunks) == 0 {
		return nil
	}
	return t.chunks[0]
}
