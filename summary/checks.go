package summary

import (
	"strconv"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// checkCount is the result of one named check.
type checkCount struct {
	name          string
	passes, fails int64
}

// ok reports whether the check never failed.
func (c checkCount) ok() bool { return c.fails == 0 }

// totalChecks returns the passes and the total of all checks: from the
// checks metric when it has samples, else summed over the group tree.
func totalChecks(in Input) (passes, total int64) {
	for _, m := range in.Metrics {
		if m == nil || m.Name != checksMetric {
			continue
		}
		if s, ok := m.Sink.(*metrics.RateSink); ok && s.Total > 0 {
			return s.Trues, s.Total
		}
	}
	for _, c := range allChecks(in.Root) {
		passes += c.passes
		total += c.passes + c.fails
	}
	return passes, total
}

// allChecks returns the checks of the whole tree under root, depth first in
// creation order, with checks of the same name in different groups merged
// into one.
func allChecks(root *metrics.Group) []checkCount {
	var out []checkCount
	index := make(map[string]int)
	var walk func(g *metrics.Group)
	walk = func(g *metrics.Group) {
		for _, c := range directChecks(g) {
			if i, ok := index[c.name]; ok {
				out[i].passes += c.passes
				out[i].fails += c.fails
				continue
			}
			index[c.name] = len(out)
			out = append(out, c)
		}
		for _, sub := range g.Groups() {
			walk(sub)
		}
	}
	if root != nil {
		walk(root)
	}
	return out
}

// directChecks returns the checks of g itself, in creation order.
func directChecks(g *metrics.Group) []checkCount {
	var out []checkCount
	for _, c := range g.Checks() {
		passes, fails := c.Counts()
		out = append(out, checkCount{name: c.Name, passes: passes, fails: fails})
	}
	return out
}

// writeCheckTable writes checks_total, checks_succeeded and checks_failed at
// depth, aligned among themselves, and a blank line.
func writeCheckTable(w *writer, depth int, passes, total int64, d time.Duration) {
	fails := total - passes
	perSecond := 0.0
	if d > 0 {
		perSecond = float64(total) / d.Seconds()
	}
	rows := []row{
		{name: "checks_total", cells: []string{strconv.FormatInt(total, 10), FormatNumber(perSecond) + "/s"}},
		{name: "checks_succeeded", cells: []string{FormatPercent(ratio(passes, total)), outOf(passes, total)}},
		{name: "checks_failed", cells: []string{FormatPercent(ratio(fails, total)), outOf(fails, total)}},
	}
	t := measure(rows)
	for _, r := range rows {
		w.line(depth, t.line(r))
	}
	w.blank()
}

// writeCheckList writes one ✓/✗ line per check at depth and, under a check
// that failed, its pass percentage (rounded down) and counts; then a blank
// line. Nothing is written for no checks.
func writeCheckList(w *writer, depth int, checks []checkCount) {
	if len(checks) == 0 {
		return
	}
	for _, c := range checks {
		w.line(depth, w.mark(c.ok())+" "+c.name)
		if c.ok() {
			continue
		}
		pct := 100 * c.passes / (c.passes + c.fails)
		w.line(depth+2, "↳  "+strconv.FormatInt(pct, 10)+"% — "+
			w.paint("✓ "+strconv.FormatInt(c.passes, 10), green)+" / "+
			w.paint("✗ "+strconv.FormatInt(c.fails, 10), red))
	}
	w.blank()
}

// ratio returns part ÷ total, 0 when total is 0.
func ratio(part, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(part) / float64(total)
}
