package output

import (
	"math"
	"sort"
)

// histogramGrowth is the ratio between the upper and lower edge of one
// histogram bin: a value is reported as its bin's geometric middle, within
// ±1% of the true value.
const histogramGrowth = 1.02

// histogramFloor is the smallest positive value, in the metric's unit, that
// gets a bin of its own; smaller values (and zero, and negative values) share
// bin zeroBin. For times in milliseconds it is one nanosecond.
const histogramFloor = 1e-6

// zeroBin is the bin of values at or below histogramFloor.
const zeroBin = math.MinInt32

var logGrowth = math.Log(histogramGrowth)

// histogram counts values in logarithmic bins, so the percentiles of a time
// window cost memory in proportion to the spread of its values, not to
// their number. The exact minimum and maximum are kept.
type histogram struct {
	bins     map[int32]uint32
	count    uint64
	min, max float64
}

func newHistogram() *histogram { return &histogram{bins: map[int32]uint32{}} }

// binOf returns the bin of v: ⌊ln(v / floor) / ln(growth)⌋.
func binOf(v float64) int32 {
	if !(v > histogramFloor) { // also NaN
		return zeroBin
	}
	return int32(math.Floor(math.Log(v/histogramFloor) / logGrowth))
}

// binValue returns the geometric middle of bin b: floor · growth^(b+½).
func binValue(b int32) float64 {
	if b == zeroBin {
		return 0
	}
	return histogramFloor * math.Exp((float64(b)+0.5)*logGrowth)
}

// add counts v.
func (h *histogram) add(v float64) {
	if math.IsNaN(v) {
		return
	}
	if h.count == 0 || v < h.min {
		h.min = v
	}
	if h.count == 0 || v > h.max {
		h.max = v
	}
	h.bins[binOf(v)]++
	h.count++
}

// merge adds the counts of o.
func (h *histogram) merge(o *histogram) {
	if o.count == 0 {
		return
	}
	if h.count == 0 || o.min < h.min {
		h.min = o.min
	}
	if h.count == 0 || o.max > h.max {
		h.max = o.max
	}
	for b, n := range o.bins {
		h.bins[b] += n
	}
	h.count += o.count
}

// quantiles returns the value at each p (0 ≤ p ≤ 1) of ps: the value of rank
// ⌊p·(n−1)+½⌋ in sorted order (rounded to the nearest rank), read as the
// middle of its bin and clamped to [min, max]; the first and last ranks are
// the exact min and max.
func (h *histogram) quantiles(ps ...float64) []float64 {
	out := make([]float64, len(ps))
	if h.count == 0 {
		return out
	}
	keys := make([]int32, 0, len(h.bins))
	for b := range h.bins {
		keys = append(keys, b)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for i, p := range ps {
		rank := uint64(math.Floor(p*float64(h.count-1) + 0.5))
		switch rank {
		case 0:
			out[i] = h.min
			continue
		case h.count - 1:
			out[i] = h.max
			continue
		}
		var seen uint64
		for _, b := range keys {
			seen += uint64(h.bins[b])
			if seen > rank {
				out[i] = min(max(binValue(b), h.min), h.max)
				break
			}
		}
	}
	return out
}
