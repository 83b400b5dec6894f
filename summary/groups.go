package summary

import "github.com/usefullatency/usefullatency/metrics"

// writeGroups writes one "█ GROUP: name" section per top-level group that
// holds checks or, with in.ByGroup, samples — itself or in a subgroup — as
// k6's full summary lays out groups: the group's checks, then the metrics
// of the samples taken directly in it.
func writeGroups(w *writer, in Input) {
	if in.Root == nil {
		return
	}
	for _, g := range in.Root.Groups() {
		if !hasContent(g, in) {
			continue
		}
		w.heading("█ GROUP: " + g.Name)
		writeGroupBody(w, 4, g, in)
		w.blank()
	}
}

// writeGroupBody writes the checks of g at depth and its metrics, then
// each subgroup with content as "↳ GROUP: name" with its body 2 spaces
// deeper.
func writeGroupBody(w *writer, depth int, g *metrics.Group, in Input) {
	if checks := directChecks(g); len(checks) > 0 {
		var passes, total int64
		for _, c := range checks {
			passes += c.passes
			total += c.passes + c.fails
		}
		writeCheckTable(w, depth, passes, total, in.Duration)
		writeCheckList(w, depth, checks)
	}
	if in.ByGroup != nil {
		part := in
		part.Metrics = partMetrics(in.ByGroup, g.Path, in.Metrics)
		writeBlocks(w, depth, metricBlocks(part, w.mode))
	}
	for _, sub := range g.Groups() {
		if !hasContent(sub, in) {
			continue
		}
		w.line(depth, "↳ GROUP: "+sub.Name)
		w.blank()
		writeGroupBody(w, depth+2, sub, in)
	}
}

// hasContent reports whether g or one of its subgroups has a check or,
// with in.ByGroup, a sample.
func hasContent(g *metrics.Group, in Input) bool {
	if len(g.Checks()) > 0 || in.ByGroup != nil && len(partMetrics(in.ByGroup, g.Path, in.Metrics)) > 0 {
		return true
	}
	for _, sub := range g.Groups() {
		if hasContent(sub, in) {
			return true
		}
	}
	return false
}
