package summary

import "github.com/usefullatency/usefullatency/metrics"

// writeScenarios writes one "█ SCENARIO: name" section per scenario of
// in.ByScenario, as k6's full summary does: the scenario's checks table,
// then its metric blocks, aggregated over its samples only.
func writeScenarios(w *writer, in Input) {
	b := in.ByScenario
	if b == nil {
		return
	}
	for _, name := range b.Groups() {
		w.heading("█ SCENARIO: " + name)
		part := in
		part.Metrics = partMetrics(b, name, in.Metrics)
		if s, ok := b.Sink(name, checksMetric).(*metrics.RateSink); ok && s.Total > 0 {
			writeCheckTable(w, 4, s.Trues, s.Total, in.Duration)
			if in.ChecksByScenario != nil {
				writeCheckList(w, 4, tallied(in.ChecksByScenario.Checks(name)))
			}
		}
		writeBlocks(w, 4, metricBlocks(part, w.mode))
		w.blank()
	}
}

// partMetrics returns the metrics of ms with the sinks of one part of the
// run (a scenario, a group) in place of the whole run's; metrics the part
// never reached are left out, and so are submetrics and thresholds (they
// judge the whole run).
func partMetrics(b *metrics.Breakdown, part string, ms []*metrics.Metric) []*metrics.Metric {
	var out []*metrics.Metric
	for _, m := range ms {
		if m == nil || m.Parent != nil {
			continue
		}
		if s := b.Sink(part, m.Name); s != nil {
			out = append(out, &metrics.Metric{Name: m.Name, Type: m.Type, Contains: m.Contains, Sink: s})
		}
	}
	return out
}

// tallied converts a tally's counts to the summary's.
func tallied(counts []metrics.CheckCount) []checkCount {
	out := make([]checkCount, len(counts))
	for i, c := range counts {
		out[i] = checkCount{name: c.Name, passes: c.Passes, fails: c.Fails}
	}
	return out
}
