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
	// Mode is the layout, k6's --summary-mode: compact (the default), full
	// or legacy.
	Mode Mode
}

// Mode is one of k6's summary layouts.
type Mode string

// The summary modes of k6 v1.
const (
	// Compact shows thresholds, checks and the key metrics of each block:
	// HTTP without its phase timings, EXECUTION without group_duration.
	Compact Mode = "compact"
	// Full adds every metric and a section per group.
	Full Mode = "full"
	// Legacy is k6's pre-v1 layout: the checks by group, then one
	// alphabetical list of metrics with ✓/✗ before those with thresholds.
	Legacy Mode = "legacy"
)

// ParseMode reads a summaryMode option; "" (and "disabled", for which no
// summary is printed) read as Compact.
func ParseMode(s string) Mode {
	switch Mode(s) {
	case Full, Legacy:
		return Mode(s)
	}
	return Compact
}

// ANSI escape codes used when TextOptions.Color is set.
const (
	green = "\x1b[32m"
	red   = "\x1b[31m"
	reset = "\x1b[0m"
)

// Text returns the end-of-test summary in k6's v1 layout (full mode shown;
// compact leaves out the GROUP sections and the metrics listed in
// fullOnlyMetrics, legacy is written by writeLegacy):
//
//	█ THRESHOLDS     each metric with thresholds, one ✓/✗ line per threshold
//	█ WHERE THE TIME GOES  per bucket: p50/p95/p99 of queue … complete,
//	                 useful-reached and failure rates (streaming runs only)
//	█ TOTAL RESULTS  checks_total/succeeded/failed and the checks, then the
//	                 metric blocks CUSTOM, HTTP, STREAMING, EXECUTION, NETWORK, WEBSOCKET, GRPC
//	█ GROUP: name    per group with checks: its checks, subgroups as ↳ GROUP
//
// Sections without content are left out, except TOTAL RESULTS. The text
// starts with a blank line and ends with two, as k6 prints it.
func Text(in Input, opts TextOptions) string {
	w := &writer{indent: opts.Indent, color: opts.Color, mode: opts.Mode}
	if w.mode == "" {
		w.mode = Compact
	}
	w.blank()
	if w.mode == Legacy {
		writeLegacy(w, in)
		return w.b.String()
	}
	writeThresholds(w, in)
	writeStreaming(w, in)
	writeTotal(w, in)
	if w.mode == Full {
		writeScenarios(w, in)
		writeGroups(w, in)
	}
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
	writeBlocks(w, 4, metricBlocks(in, w.mode))
	w.blank()
}

// writer accumulates the lines of the text summary.
type writer struct {
	b      strings.Builder
	indent string
	color  bool
	mode   Mode
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
