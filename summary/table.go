package summary

import (
	"strings"
	"unicode/utf8"
)

// row is one "name.....: values" line of the text summary.
type row struct {
	// name is the label, with its indentation inside the table
	// ("  { expected_response:true }" for a submetric).
	name string
	// labels are the "avg=", "min=", … prefixes of a trend row's cells, one
	// per cell; nil for every other row.
	labels []string
	// cells are the values: a trend's stats, or a first value followed by
	// extras ("45", "6.56109/s"; "1", "min=1", "max=1").
	cells []string
}

// table holds the widths that align a set of rows, as k6 aligns them: names
// are padded with dots to the longest name plus 3; trend cells are padded to
// the widest value of the same stat; other cells are padded to the widest
// cell of their column, except the last cell of each row.
type table struct {
	name  int
	trend []int
	plain []int
}

// measure returns the table that aligns rows.
func measure(rows []row) table {
	var t table
	for _, r := range rows {
		t.name = max(t.name, width(r.name)+3)
		if r.labels != nil {
			t.trend = widen(t.trend, r.cells)
		} else {
			t.plain = widen(t.plain, r.cells)
		}
	}
	return t
}

// widen returns widths grown to fit cells, column by column.
func widen(widths []int, cells []string) []int {
	for i, c := range cells {
		if i == len(widths) {
			widths = append(widths, 0)
		}
		widths[i] = max(widths[i], width(c))
	}
	return widths
}

// line formats r aligned by t, without indentation.
func (t table) line(r row) string {
	var b strings.Builder
	b.WriteString(r.name)
	b.WriteString(strings.Repeat(".", max(t.name-width(r.name), 0)))
	b.WriteString(": ")
	for i, c := range r.cells {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case r.labels != nil:
			b.WriteString(r.labels[i] + pad(c, t.trend[i]))
		case i < len(r.cells)-1:
			b.WriteString(pad(c, t.plain[i]))
		default:
			b.WriteString(c)
		}
	}
	return b.String()
}

// pad returns s followed by spaces up to n characters.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(n-width(s), 0))
}

// width returns the number of characters of s as a terminal shows them
// ("µs" is 2 wide, not 3 bytes).
func width(s string) int {
	return utf8.RuneCountInString(s)
}
