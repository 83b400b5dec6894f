package summary

import (
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// values returns the aggregate of m keyed as k6's handleSummary data keys it:
// a counter's count and rate (per second of d), a gauge's value, min and max,
// a rate's rate, passes and fails, and one entry per trend stat of a trend,
// keyed by the stat as written. Stats that are not trend stats of the
// summary (see trendColumns) are left out.
func values(m *metrics.Metric, trendStats []string, d time.Duration) map[string]any {
	switch s := m.Sink.(type) {
	case *metrics.CounterSink:
		return map[string]any{"count": s.Sum, "rate": s.Rate(d)}
	case *metrics.GaugeSink:
		return map[string]any{"value": s.Value, "min": s.Min, "max": s.Max}
	case *metrics.RateSink:
		return map[string]any{"rate": s.Rate(), "passes": s.Trues, "fails": s.Total - s.Trues}
	case *metrics.TrendSink:
		cols := trendColumns(trendStats)
		out := make(map[string]any, len(cols))
		for _, c := range cols {
			out[c.name], _ = c.stat.Compute(s, d)
		}
		return out
	}
	return map[string]any{}
}

// trendColumn is one trend stat of the summary: the name the options wrote,
// which labels and keys its value as in k6, and the stat it parses to.
type trendColumn struct {
	name string
	stat metrics.Stat
}

// trendColumns parses the summary's trend stats, leaving out every name that
// is not a summary trend stat of a Trend (see metrics.InSummary): options
// validation has reported those already.
func trendColumns(names []string) []trendColumn {
	cols := make([]trendColumn, 0, len(names))
	for _, name := range names {
		st, err := metrics.ParseStat(name)
		if err == nil && st.ValidFor(metrics.Trend, metrics.InSummary) == nil {
			cols = append(cols, trendColumn{name: name, stat: st})
		}
	}
	return cols
}

// shown reports whether m belongs in a summary: it has samples or thresholds.
func shown(m *metrics.Metric) bool {
	return len(m.Thresholds) > 0 || (m.Sink != nil && !m.Sink.Empty())
}

// flatten returns the metrics of ms followed, each, by its submetrics, every
// metric once. Submetrics listed in ms directly are kept where they appear.
func flatten(ms []*metrics.Metric) []*metrics.Metric {
	seen := make(map[*metrics.Metric]bool)
	var out []*metrics.Metric
	add := func(m *metrics.Metric) {
		if m != nil && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	for _, m := range ms {
		if m == nil {
			continue
		}
		add(m)
		for _, sub := range m.Submetrics {
			add(sub.Metric)
		}
	}
	return out
}
