package summary

import (
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// Data returns the object k6 passes to a script's handleSummary(data):
//
//	{
//	  root_group: {name, path, id, groups: [...], checks: [{name, path, id, passes, fails}]},
//	  options:    {summaryTrendStats, summaryTimeUnit, noColor},
//	  state:      {isStdOutTTY, isStdErrTTY, testRunDurationMs},
//	  metrics:    {<name>: {type, contains, values, thresholds?: {<source>: {ok}}}},
//	  setup_data: <what setup() returned, only when not nil>,
//	}
//
// Metrics and submetrics with samples or thresholds are included, submetrics
// under their full name ("http_req_duration{status:200}"). Numbers are
// float64 or int64 and lists are []any, so a JavaScript runtime and
// encoding/json read them directly.
func Data(in Input) map[string]any {
	stats := in.trendStats()
	data := map[string]any{
		"root_group": groupData(in.Root),
		"options": map[string]any{
			"summaryTrendStats": stringList(stats),
			"summaryTimeUnit":   in.TimeUnit,
			"noColor":           in.NoColor,
		},
		"state": map[string]any{
			"isStdOutTTY":       in.IsStdOutTTY,
			"isStdErrTTY":       in.IsStdErrTTY,
			"testRunDurationMs": float64(in.Duration) / float64(time.Millisecond),
		},
		"metrics": metricsData(in, stats),
	}
	if in.SetupData != nil {
		data["setup_data"] = in.SetupData
	}
	if in.Streaming != nil {
		data[bucketsKey] = streamingData(in.Streaming, in.Duration)
	}
	return data
}

// metricsData returns the metrics entry of Data, keyed by metric name.
func metricsData(in Input, stats []string) map[string]any {
	out := make(map[string]any)
	for _, m := range in.shownMetrics() {
		entry := map[string]any{
			"type":     m.Type.String(),
			"contains": m.Contains.String(),
			"values":   values(m, stats, in.Duration),
		}
		if len(m.Thresholds) > 0 {
			entry["thresholds"] = thresholdsData(m)
		}
		out[m.Name] = entry
	}
	return out
}

// thresholdsData returns {source: {ok: passed}} for the thresholds of m.
func thresholdsData(m *metrics.Metric) map[string]any {
	out := make(map[string]any, len(m.Thresholds))
	for _, t := range m.Thresholds {
		out[t.Source] = map[string]any{"ok": !t.Failed}
	}
	return out
}

// groupData returns a group and, recursively, its subgroups and checks in
// creation order. A nil group reads as an empty root group.
func groupData(g *metrics.Group) map[string]any {
	if g == nil {
		g = metrics.NewRootGroup()
	}
	groups := []any{}
	for _, sub := range g.Groups() {
		groups = append(groups, groupData(sub))
	}
	checks := []any{}
	for _, c := range g.Checks() {
		passes, fails := c.Counts()
		checks = append(checks, map[string]any{
			"name": c.Name, "path": c.Path, "id": c.ID,
			"passes": passes, "fails": fails,
		})
	}
	return map[string]any{
		"name": g.Name, "path": g.Path, "id": g.ID,
		"groups": groups, "checks": checks,
	}
}

// stringList returns ss as a []any, the list type a JavaScript runtime maps
// to a plain array.
func stringList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
