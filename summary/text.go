package summary

import "strings"

// TextOptions configures Text.
type TextOptions struct {
	// Indent is written before every non-empty line, in front of the
	// summary's own indentation. Defaults to nothing.
	Indent string
	// Color marks passed checks and thresholds with a green ✓ and failed ones
	// with a red ✗, using ANSI escape codes. Without it the text has none.
	Color bool
}

// ANSI escape codes used when TextOptions.Color is set.
const (
	green = "\x1b[32m"
	red   = "\x1b[31m"
	reset = "\x1b[0m"
)

// Text returns the end-of-test summary in k6's v1 layout:
//
//	█ THRESHOLDS     each metric with thresholds, one ✓/✗ line per threshold
//	█ WHERE THE TIME GOES  per bucket: p50/p95/p99 of queue … complete,
//	                 useful-reached and failure rates (streaming runs only)
//	█ TOTAL RESULTS  checks_total/succeeded/failed and the checks, then the
//	                 metric blocks CUSTOM, HTTP, STREAMING, EXECUTION, NETWORK
//	█ GROUP: name    per group with checks: its checks, subgroups as ↳ GROUP
//
// Sections without content are left out, except TOTAL RESULTS. The text
// starts with a blank line and ends with two, as k6 prints it.
func Text(in Input, opts TextOptions) string {
	w := &writer{indent: opts.Indent, color: opts.Color}
	w.blank()
	writeThresholds(w, in)
	writeStreaming(w, in)
	writeTotal(w, in)
	writeGroups(w, in)
	return w.b.String()
}

// writeTotal writes the TOTAL RESULTS section: the checks of the whole run,
// then the metric blocks.
func writeTotal(w *writer, in Input) {
	w.heading("█ TOTAL RESULTS")
	passes, total := totalChecks(in)
	if total > 0 {
		writeCheckTable(w, 4, passes, total, in.Duration)
		writeCheckList(w, 4, allChecks(in.Root))
	}
	writeBlocks(w, 4, metricBlocks(in))
	w.blank()
}

// writer accumulates the lines of the text summary.
type writer struct {
	b      strings.Builder
	indent string
	color  bool
}

// line writes s indented by depth spaces (plus the Indent option).
func (w *writer) line(depth int, s string) {
	w.b.WriteString(w.indent)
	w.b.WriteString(strings.Repeat(" ", depth))
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

// blank writes an empty line.
func (w *writer) blank() { w.b.WriteByte('\n') }

// heading writes a top-level section title followed by a blank line. k6
// ends these titles with a space.
func (w *writer) heading(title string) {
	w.line(2, title+" ")
	w.blank()
}

// mark returns ✓ when ok and ✗ otherwise, coloured when colours are on.
func (w *writer) mark(ok bool) string {
	if ok {
		return w.paint("✓", green)
	}
	return w.paint("✗", red)
}

// paint wraps s in an ANSI colour code when colours are on.
func (w *writer) paint(s, code string) string {
	if !w.color {
		return s
	}
	return code + s + reset
}
