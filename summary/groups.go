package summary

import "github.com/usefullatency/usefullatency/metrics"

// writeGroups writes one "█ GROUP: name" section per top-level group that
// holds checks, itself or in a subgroup, as k6's full summary lays out
// groups. Only checks are shown per group: metrics are aggregated over the
// whole run.
func writeGroups(w *writer, in Input) {
	if in.Root == nil {
		return
	}
	for _, g := range in.Root.Groups() {
		if !hasChecks(g) {
			continue
		}
		w.heading("█ GROUP: " + g.Name)
		writeGroupBody(w, 4, g, in)
		w.blank()
	}
}

// writeGroupBody writes the checks of g at depth, then each subgroup that
// holds checks as "↳ GROUP: name" with its body 2 spaces deeper.
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
	for _, sub := range g.Groups() {
		if !hasChecks(sub) {
			continue
		}
		w.line(depth, "↳ GROUP: "+sub.Name)
		w.blank()
		writeGroupBody(w, depth+2, sub, in)
	}
}

// hasChecks reports whether g or one of its subgroups has a check.
func hasChecks(g *metrics.Group) bool {
	if len(g.Checks()) > 0 {
		return true
	}
	for _, sub := range g.Groups() {
		if hasChecks(sub) {
			return true
		}
	}
	return false
}
