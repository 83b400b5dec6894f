package summary

import (
	"sort"
	"strings"

	"github.com/usefullatency/usefullatency/metrics"
)

// thresholdOperators are tried in this order to split a threshold source, so
// "<=" wins over "<" and "===" over "==", as in k6.
var thresholdOperators = []string{"<=", "<", ">=", ">", "===", "==", "!="}

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
			w.line(4, w.mark(!t.Failed)+" '"+t.Source+"'"+thresholdValue(m, t.Source, in))
		}
		w.blank()
	}
	w.blank()
}

// thresholdValue returns " agg=value", the value of the aggregation a
// threshold reads, formatted like the metric's values: a rate as a
// percentage, a counter's rate per second with "/s", a trend's count as a
// plain number. It is "" when the aggregation is not one of the metric's.
func thresholdValue(m *metrics.Metric, src string, in Input) string {
	agg := aggregationOf(src)
	v, ok := aggregate(m, agg, in.Duration)
	if !ok {
		return ""
	}
	var text string
	switch {
	case m.Type == metrics.Rate:
		text = FormatPercent(v)
	case agg == "count" && m.Type == metrics.Trend:
		text = FormatNumber(v)
	case agg == "rate":
		text = FormatValue(v, m.Contains, in.TimeUnit) + "/s"
	default:
		text = FormatValue(v, m.Contains, in.TimeUnit)
	}
	return " " + agg + "=" + text
}

// aggregationOf returns the aggregation of a threshold source: the text
// before its comparison operator, trimmed ("p(95)" for "p(95) < 1500").
func aggregationOf(src string) string {
	for _, op := range thresholdOperators {
		if i := strings.Index(src, op); i >= 0 {
			return strings.TrimSpace(src[:i])
		}
	}
	return strings.TrimSpace(src)
}
