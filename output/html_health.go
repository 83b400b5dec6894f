package output

import (
	"fmt"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/summary"
)

// healthStats is the load generator's health over the run, from the
// probe's health metrics.
type healthStats struct {
	readLag   *histogram // usefulsse_read_lag, ms
	coalesced float64    // usefulsse_coalesced_events
	events    float64    // usefulsse_events
	cpu       []cpuPoint // usefulsse_client_cpu in time order
}

// cpuPoint is one CPU sample: its time since the run started and the
// fraction of the cores used in the second before it.
type cpuPoint struct {
	at   time.Duration
	frac float64
}

// healthReadLagLate is the read lag p99, ms, above which the report calls
// the timings possibly late (the summary's bound).
const healthReadLagLate = 20.0

// addHealth folds a health sample; false if s is not one.
func (a *aggregate) addHealth(s *metrics.Sample) bool {
	h := &a.health
	switch s.Metric.Name {
	case metrics.ProbeReadLag:
		if h.readLag == nil {
			h.readLag = newHistogram()
		}
		h.readLag.add(s.Value)
	case metrics.ProbeCoalescedEvents:
		h.coalesced += s.Value
	case metrics.ProbeEvents:
		h.events += s.Value
		return false // also a bucket's
	case metrics.ProbeClientCPU:
		h.cpu = append(h.cpu, cpuPoint{at: s.Time.Sub(a.origin), frac: s.Value})
	default:
		return false
	}
	return true
}

// healthView is the report's "load generator" panel.
type healthView struct {
	CPUPeak, ReadLagP99, Saturated string
	Coalesced                      string
	Late                           bool
}

// buildHealth renders the health; nil when the run had no health metrics.
func buildHealth(h healthStats) *healthView {
	if h.readLag == nil && len(h.cpu) == 0 {
		return nil
	}
	v := &healthView{CPUPeak: "-", ReadLagP99: "-", Coalesced: fmt.Sprintf("%.0f of %.0f", h.coalesced, h.events)}
	peak := 0.0
	for _, p := range h.cpu {
		peak = max(peak, p.frac)
	}
	if len(h.cpu) > 0 {
		v.CPUPeak = summary.FormatPercent(peak)
	}
	if h.readLag != nil {
		p99 := h.readLag.quantiles(0.99)[0]
		v.ReadLagP99 = summary.FormatTime(p99, "")
		v.Late = p99 > healthReadLagLate
	}
	if spans := saturated(h.cpu); spans != "" {
		v.Saturated, v.Late = spans, true
	}
	return v
}

// saturated lists the stretches of the run whose CPU samples reached
// metrics.ClientSaturated ("from 12 s to 19 s"); a sample covers the
// interval since the one before it.
func saturated(cpu []cpuPoint) string {
	var parts []string
	var prev, from time.Duration
	in := false
	flush := func(to time.Duration) {
		parts = append(parts, fmt.Sprintf("from %d s to %d s", from.Round(time.Second)/time.Second, to.Round(time.Second)/time.Second))
	}
	for _, p := range cpu {
		switch hot := p.frac >= metrics.ClientSaturated; {
		case hot && !in:
			from, in = prev, true
		case !hot && in:
			flush(prev)
			in = false
		}
		prev = p.at
	}
	if in {
		flush(prev)
	}
	return strings.Join(parts, ", ")
}
