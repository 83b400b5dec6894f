package summary

import (
	"encoding/json"
	"fmt"

	"github.com/usefullatency/usefullatency/metrics"
)

// Export returns the JSON file k6 writes with --summary-export, indented with
// four spaces. It is Data without options and state, reshaped as k6 does:
//
//   - each metric is flattened to its values, plus "thresholds":
//     {source: failed} when it has thresholds — true means the threshold
//     FAILED, a k6 quirk kept for compatibility;
//   - a rate's "rate" is called "value";
//   - the groups and checks of root_group (and of every group) are objects
//     keyed by name instead of arrays.
func Export(in Input) ([]byte, error) {
	out := map[string]any{
		"root_group": exportGroup(groupData(in.Root)),
		"metrics":    exportMetrics(in),
	}
	if in.SetupData != nil {
		out["setup_data"] = in.SetupData
	}
	if in.Streaming != nil {
		out[bucketsKey] = streamingData(in.Streaming, in.Duration)
	}
	b, err := json.MarshalIndent(out, "", "    ")
	if err != nil {
		return nil, fmt.Errorf("summary export: %w", err)
	}
	return b, nil
}

// exportMetrics returns the metrics of the export, keyed by name.
func exportMetrics(in Input) map[string]any {
	stats := in.trendStats()
	out := make(map[string]any)
	for _, m := range in.shownMetrics() {
		entry := values(m, stats, in.Duration)
		if _, isRate := m.Sink.(*metrics.RateSink); isRate {
			r := entry["rate"]
			delete(entry, "rate")
			entry["value"] = r
		}
		if len(m.Thresholds) > 0 {
			failed := make(map[string]any, len(m.Thresholds))
			for _, t := range m.Thresholds {
				failed[t.Source] = t.Failed
			}
			entry["thresholds"] = failed
		}
		out[m.Name] = entry
	}
	return out
}

// exportGroup turns a group of Data into its export form, with subgroups and
// checks keyed by name.
func exportGroup(g map[string]any) map[string]any {
	groups := make(map[string]any)
	for _, sub := range g["groups"].([]any) {
		sg := sub.(map[string]any)
		groups[sg["name"].(string)] = exportGroup(sg)
	}
	checks := make(map[string]any)
	for _, c := range g["checks"].([]any) {
		checks[c.(map[string]any)["name"].(string)] = c
	}
	return map[string]any{
		"name": g["name"], "path": g["path"], "id": g["id"],
		"groups": groups, "checks": checks,
	}
}
