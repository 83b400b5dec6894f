package summary

import (
	"math"
	"sort"

	"github.com/usefullatency/usefullatency/metrics"
)

// writeThresholds writes the THRESHOLDS section: every metric or submetric
// with thresholds, by name, and under it one line per threshold in
// declaration order, e.g. "✓ 'p(95)<1500' p(95)=148.21ms". Nothing is
// written when no metric has thresholds.
func writeThresholds(w *writer, in Input) {
	var ms []*metrics.Metric
	for _, m := range flatten(in.Metrics) {
		if len(m.Thresholds) > 0 {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	w.heading("█ THRESHOLDS")
	for _, m := range ms {
		w.line(4, m.Name)
		for _, t := range m.Thresholds {
			w.line(4, w.mark(!t.Failed)+" '"+t.Source+"'"+thresholdValue(m, t, in))
		}
		w.blank()
	}
	w.blank()
}

// thresholdValue returns " agg=value": the threshold's aggregation and the
// value its last evaluation read, formatted like the metric's values: a rate
// as a percentage, a counter's rate per second with "/s", a trend's count as
// a plain number. It is "" when the aggregation is not one of the metric's,
// which reads NaN (see metrics.Threshold.Value).
func thresholdValue(m *metrics.Metric, t *metrics.Threshold, in Input) string {
	v := t.LastValue
	if math.IsNaN(v) {
		return ""
	}
	var text string
	switch {
	case m.Type == metrics.Rate:
		text = FormatPercent(v)
	case t.Stat.Kind == metrics.StatCount && m.Type == metrics.Trend:
		text = FormatNumber(v)
	case t.Stat.Kind == metrics.StatRate:
		text = FormatValue(v, m.Contains, in.TimeUnit) + "/s"
	default:
		text = FormatValue(v, m.Contains, in.TimeUnit)
	}
	return " " + t.Stat.String() + "=" + text
}
