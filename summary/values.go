package summary

import (
	"strconv"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// values returns the aggregate of m keyed as k6's handleSummary data keys it:
// a counter's count and rate (per second of d), a gauge's value, min and max,
// a rate's rate, passes and fails, and one entry per trend stat of a trend.
// Unknown trend stats are left out.
func values(m *metrics.Metric, trendStats []string, d time.Duration) map[string]any {
	switch s := m.Sink.(type) {
	case *metrics.CounterSink:
		return map[string]any{"count": s.Sum, "rate": s.Rate(d)}
	case *metrics.GaugeSink:
		return map[string]any{"value": s.Value, "min": s.Min, "max": s.Max}
	case *metrics.RateSink:
		return map[string]any{"rate": s.Rate(), "passes": s.Trues, "fails": s.Total - s.Trues}
	case *metrics.TrendSink:
		out := make(map[string]any, len(trendStats))
		for _, stat := range trendStats {
			if v, ok := trendStat(s, stat); ok {
				out[stat] = v
			}
		}
		return out
	}
	return map[string]any{}
}

// trendStat returns the trend statistic called stat: "avg", "min", "med",
// "max", "count" or "p(N)" with 0 ≤ N ≤ 100. An empty trend reads 0.
func trendStat(s *metrics.TrendSink, stat string) (float64, bool) {
	switch stat {
	case "avg":
		return s.Avg(), true
	case "min":
		return s.Min, true
	case "max":
		return s.Max, true
	case "med":
		return s.P(0.5), true
	case "count":
		return float64(s.Count()), true
	}
	if p, ok := percentile(stat); ok {
		return s.P(p), true
	}
	return 0, false
}

// percentile returns N/100 of a stat written "p(N)", 0 ≤ N ≤ 100. The
// fraction is parsed from the decimal text ("99.9e-2"), so it is the double
// nearest to N/100: dividing 99.9 by 100 would be one bit off.
func percentile(stat string) (float64, bool) {
	inner, ok := strings.CutPrefix(stat, "p(")
	if !ok {
		return 0, false
	}
	inner, ok = strings.CutSuffix(inner, ")")
	inner = strings.TrimSpace(inner)
	if !ok || inner == "" || strings.ContainsAny(inner, "eE+-_xXpPiInN") {
		return 0, false
	}
	p, err := strconv.ParseFloat(inner+"e-2", 64)
	if err != nil || p < 0 || p > 1 {
		return 0, false
	}
	return p, true
}

// aggregate returns the aggregation agg of m as a threshold reads it: count
// and rate of a counter, value of a gauge, rate of a rate, and the trend
// stats of a trend.
func aggregate(m *metrics.Metric, agg string, d time.Duration) (float64, bool) {
	switch s := m.Sink.(type) {
	case *metrics.CounterSink:
		switch agg {
		case "count":
			return s.Sum, true
		case "rate":
			return s.Rate(d), true
		}
	case *metrics.GaugeSink:
		if agg == "value" {
			return s.Value, true
		}
	case *metrics.RateSink:
		if agg == "rate" {
			return s.Rate(), true
		}
	case *metrics.TrendSink:
		return trendStat(s, agg)
	}
	return 0, false
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
