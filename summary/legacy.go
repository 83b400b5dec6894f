package summary

import (
	"strconv"

	"github.com/usefullatency/usefullatency/metrics"
)

// writeLegacy writes k6's pre-v1 summary (--summary-mode legacy): the
// checks of the root group, each group as "█ name" with its checks and
// subgroups two spaces deeper, then one alphabetical list of every shown
// metric and submetric, the ones with thresholds marked ✓ or ✗ in the
// margin. The per-bucket streaming table keeps its place above the list.
func writeLegacy(w *writer, in Input) {
	if in.Root != nil {
		writeLegacyGroup(w, 4, in.Root)
	}
	writeStreaming(w, in)
	var rows []row
	var marks []string
	for _, m := range topLevel(in.Metrics) {
		subs := shownSubmetrics(m)
		if !shown(m) && len(subs) == 0 {
			continue
		}
		rows, marks = append(rows, legacyRow(m, m.Name, in)), append(marks, legacyMark(w, m))
		for _, sub := range subs {
			rows, marks = append(rows, legacyRow(sub, "  "+subLabel(sub), in)), append(marks, legacyMark(w, sub))
		}
	}
	t := measure(rows)
	for i, r := range rows {
		if marks[i] != "" {
			w.line(2, marks[i]+" "+t.line(r))
		} else {
			w.line(4, t.line(r))
		}
	}
	w.blank()
	w.blank()
}

// writeLegacyGroup writes the checks of g at depth, then its subgroups.
func writeLegacyGroup(w *writer, depth int, g *metrics.Group) {
	if checks := directChecks(g); len(checks) > 0 {
		writeCheckList(w, depth, checks)
	}
	for _, sub := range g.Groups() {
		w.line(depth, "█ "+sub.Name)
		w.blank()
		writeLegacyGroup(w, depth+2, sub)
	}
}

// legacyMark returns ✓ or ✗ for a metric with thresholds, "" otherwise.
func legacyMark(w *writer, m *metrics.Metric) string {
	if len(m.Thresholds) == 0 {
		return ""
	}
	failed := false
	for _, t := range m.Thresholds {
		failed = failed || t.Failed
	}
	return w.mark(!failed)
}

// legacyRow is metricRow with a rate shown as the legacy layout shows it:
// "100.00% ✓ 45 ✗ 0" (passes and fails).
func legacyRow(m *metrics.Metric, name string, in Input) row {
	if s, ok := m.Sink.(*metrics.RateSink); ok {
		return row{name: name, cells: []string{
			FormatPercent(s.Rate()), "✓ " + strconv.FormatInt(s.Trues, 10), "✗ " + strconv.FormatInt(s.Total-s.Trues, 10),
		}}
	}
	return metricRow(m, name, in)
}
