package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/usefullatency/usefullatency/summary"
)

// ANSI colours of the verdicts, when TextOptions.Color is set.
const (
	red   = "\x1b[31m"
	green = "\x1b[32m"
	reset = "\x1b[0m"
)

// verdict marks, as the summary marks thresholds.
const (
	markRegressed = "✗"
	markImproved  = "✓"
	markNoChange  = "·"
)

// WriteText writes the report for a person: what was compared, the notes,
// the table sorted by significance (bucket, metric, stat, base, new, Δ,
// the interval, the verdict), the undecided rows with the requests that
// would decide them, and a last line naming the gated rows that
// regressed. color paints regressions red and improvements green.
func WriteText(w io.Writer, r *Report, color bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "compare: base %s vs new %s\n", sideText(r.Base), sideText(r.New))
	fmt.Fprintf(&b, "%s intervals from %d resamples (seed %d); a change counts beyond %s\n\n",
		percent(r.Confidence), r.Resamples, r.Seed, effectText(r.Effects))
	if len(r.Notes) > 0 {
		b.WriteString("NOTES (what differs besides the code)\n")
		for _, n := range r.Notes {
			b.WriteString("  ! " + n + "\n")
		}
		b.WriteString("\n")
	}
	if len(r.Rows) == 0 {
		b.WriteString("no row to compare: the sides share no metric with values\n")
	} else {
		writeTable(&b, r, color)
	}
	writeUndecided(&b, r)
	b.WriteString(lastLine(r, color) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// sideText names a side's runs: "base.res" or "3 runs (a.res, b.res, c.res)".
func sideText(paths []string) string {
	if len(paths) == 1 {
		return paths[0]
	}
	return fmt.Sprintf("%d runs (%s)", len(paths), strings.Join(paths, ", "))
}

// writeTable writes the rows in aligned columns.
func writeTable(b *strings.Builder, r *Report, color bool) {
	header := []string{"bucket", "metric", "stat", "base", "new", "Δ", "Δ%", percent(r.Confidence) + " CI", "verdict"}
	cells := [][]string{header}
	for _, row := range r.Rows {
		cells = append(cells, []string{
			orDash(row.Bucket), displayMetric(row), row.Stat, FormatValue(row, row.Base), FormatValue(row, row.New),
			FormatDiff(row, row.Diff), FormatRel(row.Rel), FormatInterval(row), verdictText(row),
		})
	}
	widths := make([]int, len(header))
	for _, line := range cells {
		for i, c := range line {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for li, line := range cells {
		var sb strings.Builder
		for i, c := range line {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case i == len(line)-1:
				sb.WriteString(paint(c, li, r, color))
			case i >= 3 && i <= 6 && li > 0: // numbers right-aligned
				sb.WriteString(pad + c + "  ")
			default:
				sb.WriteString(c + pad + "  ")
			}
		}
		b.WriteString(strings.TrimRight(sb.String(), " ") + "\n")
	}
	b.WriteString("\n")
}

// paint colours the verdict cell of table line li (0 is the header).
func paint(cell string, li int, r *Report, color bool) string {
	if !color || li == 0 {
		return cell
	}
	switch r.Rows[li-1].Verdict {
	case Regressed:
		return red + cell + reset
	case Improved:
		return green + cell + reset
	}
	return cell
}

// displayMetric is the row's metric without the tag its bucket column
// already shows: its bucket tag, else its scenario tag.
func displayMetric(row Row) string {
	k, err := parseKey(row.Metric)
	if err != nil || row.Bucket == "" {
		return row.Metric
	}
	parts := strings.Split(k.sel, ",")
	keep := slices.DeleteFunc(slices.Clone(parts), func(p string) bool { return p == "bucket:"+row.Bucket })
	if len(keep) == len(parts) {
		keep = slices.DeleteFunc(keep, func(p string) bool { return p == "scenario:"+row.Bucket })
	}
	if len(keep) == 0 {
		return k.name
	}
	return k.name + "{" + strings.Join(keep, ",") + "}"
}

// verdictText is the verdict cell: ✗ regressed, ✓ improved, · no clear
// change, · undecided.
func verdictText(row Row) string {
	switch {
	case row.Verdict == Regressed:
		return markRegressed + " regressed"
	case row.Verdict == Improved:
		return markImproved + " improved"
	case row.Undecided:
		return markNoChange + " undecided"
	}
	return markNoChange + " no clear change"
}

// FormatValue writes a value in the row's unit, as the table does: a time
// as the summary writes it, a rate as a percentage, a per-second rate with
// "/s"; "-" when it is not a finite number. The HTML page writes its cells
// with the same functions.
func FormatValue(row Row, v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case row.Unit == "ms":
		return summary.FormatTime(v, "")
	case row.Type == "rate":
		return strconv.FormatFloat(v*100, 'f', 2, 64) + "%"
	case row.Unit == "/s":
		return strconv.FormatFloat(v, 'f', 2, 64) + "/s"
	}
	return summary.FormatNumber(v)
}

// FormatDiff writes a difference with its sign; a rate's in percentage
// points; "-" when it is not a finite number.
func FormatDiff(row Row, d float64) string {
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return "-"
	}
	sign := "+"
	if d < 0 || (d == 0 && math.Signbit(d)) {
		sign = "-"
	}
	if row.Type == "rate" {
		return sign + strconv.FormatFloat(math.Abs(d)*100, 'f', 2, 64) + "pp"
	}
	return sign + FormatValue(row, math.Abs(d))
}

// FormatRel writes a ratio as a signed percentage, "+9.5%"; "n/a" when
// it is not a number (a base of 0).
func FormatRel(v float64) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case math.IsInf(v, 1):
		return "+∞"
	case math.IsInf(v, -1):
		return "-∞"
	}
	return fmt.Sprintf("%+.1f%%", v*100)
}

// FormatInterval writes the row's interval in the scale of its effect: relative
// "[+8.4%, +10.5%]" or absolute "[+191.9ms, +237.3ms]"; absolute when the
// base is 0, which has no relative difference.
func FormatInterval(row Row) string {
	if (row.Effect.Relative > 0 || row.Effect.Absolute == 0) && !math.IsNaN(row.Rel) {
		return "[" + FormatRel(row.RelLow) + ", " + FormatRel(row.RelHigh) + "]"
	}
	return "[" + FormatDiff(row, row.Low) + ", " + FormatDiff(row, row.High) + "]"
}

// writeUndecided lists the rows whose interval is too wide to decide, with
// the requests per side that would likely decide them.
func writeUndecided(b *strings.Builder, r *Report) {
	var lines []string
	for _, row := range r.Rows {
		if !row.Undecided {
			continue
		}
		need := "more runs would"
		if row.NeedRequests > 0 {
			need = "about " + FormatCount(row.NeedRequests) + " requests per side would likely"
		}
		lines = append(lines, fmt.Sprintf("    %s %s: %s decide it (now %s and %s)", row.Metric, row.Stat, need,
			FormatCount(row.BaseN), FormatCount(row.NewN)))
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "⚠ %d %s too small to decide (the interval is wider than the effect): run longer or repeat\n", len(lines), plural(len(lines), "row is", "rows are"))
	b.WriteString(strings.Join(lines, "\n") + "\n\n")
}

// lastLine names the gated rows that regressed, or says none did.
func lastLine(r *Report, color bool) string {
	eff := effectText(r.Effects)
	reg := r.Regressed()
	if len(reg) == 0 {
		line := markImproved + " no row regressed beyond " + eff
		if color {
			return green + line + reset
		}
		return line
	}
	names := make([]string, len(reg))
	for i, row := range reg {
		names[i] = fmt.Sprintf("%s %s %s", row.Metric, row.Stat, change(row))
	}
	line := fmt.Sprintf("%s %d %s regressed beyond %s: %s", markRegressed, len(reg), plural(len(reg), "row", "rows"), eff, strings.Join(names, ", "))
	if color {
		return red + line + reset
	}
	return line
}

// change writes a row's difference in a few characters: "+9.5%", or
// "+25 from 0" when the base is 0.
func change(row Row) string {
	if math.IsNaN(row.Rel) {
		return FormatDiff(row, row.Diff) + " from " + FormatValue(row, row.Base)
	}
	return FormatRel(row.Rel)
}

// effectText writes the effects: "5%", "50ms for times, 5% otherwise".
func effectText(e Effects) string {
	rel := strconv.FormatFloat(math.Round(e.Relative*100*1e4)/1e4, 'f', -1, 64) + "%" // 7%, not 7.000000000000001%
	var parts []string
	if e.Time > 0 {
		parts = append(parts, time.Duration(e.Time*float64(time.Millisecond)).String()+" for times")
	}
	if e.Value > 0 {
		parts = append(parts, strconv.FormatFloat(e.Value, 'f', -1, 64)+" for rates and counts")
	}
	if len(parts) == 0 {
		return rel
	}
	if e.Time == 0 || e.Value == 0 {
		parts = append(parts, rel+" otherwise")
	}
	return strings.Join(parts, ", ")
}

// percent writes a level "95%".
func percent(v float64) string { return strconv.FormatFloat(v*100, 'f', -1, 64) + "%" }

// FormatCount writes n with thousands separators, "12,000".
func FormatCount(n int) string {
	if n < 0 {
		return "-" + FormatCount(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
