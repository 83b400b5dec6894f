package output

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// exactQuantile is the value of rank ⌊p·(n−1)+½⌋ of sorted values, the rank
// histogram.quantiles reads.
func exactQuantile(sorted []float64, p float64) float64 {
	return sorted[int(math.Floor(p*float64(len(sorted)-1)+0.5))]
}

func TestHistogramQuantilesWithinOnePercent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name string
		gen  func() float64
	}{
		{"uniform 0-5s", func() float64 { return rng.Float64() * 5000 }},
		{"lognormal around 400ms", func() float64 { return math.Exp(6 + rng.NormFloat64()) }},
		{"sub-millisecond", func() float64 { return 0.05 + rng.Float64()*0.5 }},
		{"long tail", func() float64 { return 100 / (1 - rng.Float64()*0.999) }},
		{"with zeros", func() float64 {
			if rng.IntN(10) == 0 {
				return 0
			}
			return 10 + rng.Float64()*90
		}},
	}
	ps := []float64{0, 0.5, 0.9, 0.95, 0.99, 1}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHistogram()
			var values []float64
			for range 5000 {
				v := tt.gen()
				values = append(values, v)
				h.add(v)
			}
			sort.Float64s(values)
			got := h.quantiles(ps...)
			for i, p := range ps {
				want := exactQuantile(values, p)
				if math.Abs(got[i]-want) > want*0.01+1e-9 {
					t.Errorf("p%v = %v, exact %v: more than 1%% off", p*100, got[i], want)
				}
			}
			if got[0] != values[0] || got[len(ps)-1] != values[len(values)-1] {
				t.Errorf("p0, p100 = %v, %v; want the exact min and max %v, %v", got[0], got[len(ps)-1], values[0], values[len(values)-1])
			}
		})
	}
}

func TestHistogramMergeEqualsAddingAll(t *testing.T) {
	a, b, all := newHistogram(), newHistogram(), newHistogram()
	for i := range 1000 {
		v := float64(i%97) * 13.7
		all.add(v)
		if i%3 == 0 {
			a.add(v)
		} else {
			b.add(v)
		}
	}
	a.merge(b)
	a.merge(newHistogram()) // an empty one changes nothing
	ps := []float64{0, 0.25, 0.5, 0.95, 1}
	got, want := a.quantiles(ps...), all.quantiles(ps...)
	for i := range ps {
		if got[i] != want[i] {
			t.Errorf("merged p%v = %v, want %v", ps[i]*100, got[i], want[i])
		}
	}
	if a.count != 1000 {
		t.Errorf("merged count = %d, want 1000", a.count)
	}
}

func TestHistogramEdgeCases(t *testing.T) {
	h := newHistogram()
	if got := h.quantiles(0.5); got[0] != 0 {
		t.Errorf("empty histogram p50 = %v, want 0", got[0])
	}
	h.add(math.NaN())
	if h.count != 0 {
		t.Errorf("NaN was counted")
	}
	h.add(42)
	if got := h.quantiles(0, 0.5, 1); got[0] != 42 || got[1] != 42 || got[2] != 42 {
		t.Errorf("one value: quantiles = %v, want 42 everywhere", got)
	}
}
