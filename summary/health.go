package summary

import (
	"fmt"

	"github.com/usefullatency/usefullatency/metrics"
)

// clientHealth is the load generator's health over the run, from the
// probe's health metrics: can its timings be trusted?
type clientHealth struct {
	cpuPeak   *float64 // the highest usefulsse_client_cpu sample, 0..1
	lagP99    *float64 // usefulsse_read_lag p99, ms
	coalesced int64    // usefulsse_coalesced_events
	events    int64    // usefulsse_events
}

// readClientHealth reads the health metrics; ok is false when the run has
// none of them.
func readClientHealth(ms []*metrics.Metric) (h clientHealth, ok bool) {
	for _, m := range ms {
		switch s := m.Sink.(type) {
		case *metrics.GaugeSink:
			if m.Name == metrics.ProbeClientCPU && shown(m) {
				v := s.Max
				h.cpuPeak, ok = &v, true
			}
		case *metrics.TrendSink:
			if m.Name == metrics.ProbeReadLag && !s.Empty() {
				v := s.P(0.99)
				h.lagP99, ok = &v, true
			}
		case *metrics.CounterSink:
			switch m.Name {
			case metrics.ProbeCoalescedEvents:
				h.coalesced = int64(s.Sum)
			case metrics.ProbeEvents:
				h.events = int64(s.Sum)
			}
		}
	}
	return h, ok
}

// late reports whether the health says the timings may be late: the CPU
// reached saturation, or sockets were read more than readLagLate late at
// p99.
func (h clientHealth) late() bool {
	return (h.cpuPeak != nil && *h.cpuPeak >= metrics.ClientSaturated) || (h.lagP99 != nil && *h.lagP99 > readLagLate)
}

// readLagLate is the read lag p99, ms, above which timings may be late.
const readLagLate = 20.0

// line renders the health in one line of the summary.
func (h clientHealth) line(unit string) string {
	s := "load generator:"
	if h.cpuPeak != nil {
		s += " CPU peak " + FormatPercent(*h.cpuPeak) + " of its cores,"
	}
	if h.lagP99 != nil {
		s += " read lag p99 " + FormatTime(*h.lagP99, unit) + ","
	}
	s += fmt.Sprintf(" %d of %d events shared a read with the next", h.coalesced, h.events)
	if h.late() {
		return s + " — its timings may be late"
	}
	return s + " — its timings can be trusted"
}

// writeClientHealth writes the health line under the streaming tables.
func writeClientHealth(w *writer, in Input) {
	if h, ok := readClientHealth(in.Metrics); ok {
		w.line(4, h.line(in.TimeUnit))
		w.blank()
	}
}
