package output

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/usefullatency/usefullatency/compare"
	"github.com/usefullatency/usefullatency/summary"
)

// compareView is everything the comparison page shows. Strings in it are
// plain text: html/template escapes them where they are placed.
type compareView struct {
	Base, New  []string
	Confidence string // "95%"
	MinEffect  string // "5%", "50ms"
	Resamples  int
	Seed       uint64
	Cards      []card
	Exit       string // what the exit code says
	ExitFail   bool   // a gated row regressed
	Notes      []string
	Forest     *forestView
	Buckets    []ecdfBucket
	Rows       []compareRow
	Data       compareData
	// ECDFMaxPoints is the most points a curve is drawn through.
	ECDFMaxPoints int
}

// compareRow is one row of the table, formatted as the text output shows it.
type compareRow struct {
	Bucket, Metric, Stat string
	Base, New, Diff, Rel string
	CI                   string
	Verdict, Mark, Class string
	Warning              string // "too small to decide: …"; "" when decided
	BaseN, NewN          string
	Gated                bool
}

// compareData is the page's JSON data block: the ECDF curves compare.js
// draws with uPlot.
type compareData struct {
	ECDF []ecdfChart `json:"ecdf"`
}

// WriteCompareReport writes the HTML page of a comparison to w: the two
// sides' files, the verdicts and what the exit code says, the notes on what
// differs besides the code, a forest plot of every row's relative difference
// with its confidence interval and the effect band, per bucket the two
// sides' distributions overlaid as ECDF curves with the gates' lines, and
// the full table. Like the run's report, the page is self-contained: its
// style, scripts and chart library are inline and its
// Content-Security-Policy allows only those; text from the result files
// (bucket and metric names, notes, paths) is shown as text.
func WriteCompareReport(w io.Writer, r *compare.Report) error {
	if r == nil {
		return errors.New("compare report: no comparison to write")
	}
	p := compareAssets
	p.View = buildCompareView(r)
	return compareTemplate.Execute(w, p)
}

// buildCompareView turns a comparison into the page's data.
func buildCompareView(r *compare.Report) compareView {
	v := compareView{
		Base:       r.Base,
		New:        r.New,
		Confidence: trimPercent(r.Confidence),
		MinEffect:  effectText(r),
		Resamples:  r.Resamples,
		Seed:       r.Seed,
		Notes:      r.Notes,

		ECDFMaxPoints: ecdfMaxPoints,
	}
	v.Rows = make([]compareRow, 0, len(r.Rows))
	for _, row := range r.Rows {
		v.Rows = append(v.Rows, tableRow(row))
	}
	v.Cards, v.Exit, v.ExitFail = verdictCards(r)
	v.Forest = buildForest(r)
	v.Buckets, v.Data.ECDF = buildECDFs(r)
	return v
}

// verdictCards counts the rows by verdict and says what the exit code
// means for this comparison.
func verdictCards(r *compare.Report) ([]card, string, bool) {
	var regressed, improved, same, undecided, gated int
	for _, row := range r.Rows {
		switch row.Verdict {
		case compare.Regressed:
			regressed++
		case compare.Improved:
			improved++
		default:
			same++
		}
		if row.Undecided {
			undecided++
		}
		if row.Gated {
			gated++
		}
	}
	cards := []card{
		{Label: "regressed", Value: strconv.Itoa(regressed), Class: passClass(regressed == 0)},
		{Label: "improved", Value: strconv.Itoa(improved), Class: improvedClass(improved)},
		{Label: "no clear change", Value: strconv.Itoa(same)},
	}
	if undecided > 0 {
		cards = append(cards, card{Label: "too small to decide", Value: strconv.Itoa(undecided), Class: "warn"})
	}
	failing := r.Regressed()
	scope := "no gated row regressed"
	if gated < len(r.Rows) {
		scope = fmt.Sprintf("none of the %d gated rows (of %d) regressed", gated, len(r.Rows))
	}
	if len(failing) == 0 {
		return cards, fmt.Sprintf("exit code 0: %s.", scope), false
	}
	names := make([]string, 0, min(3, len(failing)))
	for _, row := range failing[:min(3, len(failing))] {
		names = append(names, row.Metric+" "+row.Stat)
	}
	more := ""
	if len(failing) > 3 {
		more = fmt.Sprintf(" and %d more", len(failing)-3)
	}
	return cards, fmt.Sprintf("exit code %d: %d gated %s regressed (%s%s).",
		compare.ExitRegressed, len(failing), plural(len(failing), "row", "rows"), strings.Join(names, ", "), more), true
}

// improvedClass marks the improved card green when something improved.
func improvedClass(n int) string {
	if n > 0 {
		return "pass"
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// tableRow formats one row as the text output (compare.WriteText) does.
func tableRow(row compare.Row) compareRow {
	out := compareRow{
		Bucket:  row.Bucket,
		Metric:  metricName(row),
		Stat:    row.Stat,
		Base:    compare.FormatValue(row, row.Base),
		New:     compare.FormatValue(row, row.New),
		Diff:    compare.FormatDiff(row, row.Diff),
		Rel:     compare.FormatRel(row.Rel),
		CI:      compare.FormatInterval(row),
		Verdict: string(row.Verdict),
		BaseN:   sideCount(row.BaseN, row.BaseRuns),
		NewN:    sideCount(row.NewN, row.NewRuns),
		Gated:   row.Gated,
	}
	switch {
	case row.Verdict == compare.Regressed:
		out.Mark, out.Class = "✗", "fail"
	case row.Verdict == compare.Improved:
		out.Mark, out.Class = "✓", "pass"
	case row.Undecided:
		out.Mark, out.Class, out.Verdict = "·", "same", "undecided"
	default:
		out.Mark, out.Class = "·", "same"
	}
	if row.Undecided {
		out.Warning = "too small to decide: run longer or repeat"
		if row.NeedRequests > 0 {
			out.Warning += " (about " + compare.FormatCount(row.NeedRequests) + " requests per side would likely decide it)"
		}
	}
	return out
}

// metricName is the row's metric without the tag its bucket column
// already shows (its bucket tag, else its scenario tag), as the text
// output writes it: "usefulsse_useful{bucket:qa}" → "usefulsse_useful".
func metricName(row compare.Row) string {
	name, sel, ok := strings.Cut(row.Metric, "{")
	sel, closed := strings.CutSuffix(sel, "}")
	if row.Bucket == "" || !ok || !closed {
		return row.Metric
	}
	parts := strings.Split(sel, ",")
	keep := slices.DeleteFunc(slices.Clone(parts), func(p string) bool { return p == "bucket:"+row.Bucket })
	if len(keep) == len(parts) {
		keep = slices.DeleteFunc(keep, func(p string) bool { return p == "scenario:"+row.Bucket })
	}
	if len(keep) == 0 {
		return name
	}
	return name + "{" + strings.Join(keep, ",") + "}"
}

// sideCount says how many values and runs a side had: "1,200", "3,600 in
// 3 runs".
func sideCount(n, runs int) string {
	s := compare.FormatCount(n)
	if runs > 1 {
		s += fmt.Sprintf(" in %d runs", runs)
	}
	return s
}

// relCI is the row's relative interval for the forest plot's note.
func relCI(row compare.Row) string {
	return "[" + compare.FormatRel(row.RelLow) + ", " + compare.FormatRel(row.RelHigh) + "]"
}

// effectText is the minimum effect as the text output writes it: "5%",
// "50ms for times, 5% otherwise".
func effectText(r *compare.Report) string {
	e := r.Effects
	if e == (compare.Effects{}) { // a Report built without Effects
		e.Relative = r.MinEffect.Relative
		if r.MinEffect.Relative == 0 {
			e.Time = r.MinEffect.Absolute
		}
	}
	return e.String()
}

// trimPercent formats a fraction as a percentage without trailing zeros:
// 0.95 → "95%", 0.025 → "2.5%".
func trimPercent(f float64) string {
	return summary.FormatNumber(round(f*100, 4)) + "%"
}

// round rounds v to d decimals.
func round(v float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

//go:embed report/compare.html.tmpl report/compare.css report/compare.js report/style.css report/errors.js report/vendor/uPlot.iife.min.js report/vendor/uPlot.min.css
var compareFiles embed.FS

// comparePage is what the comparison template receives: the view and the
// inline assets.
type comparePage struct {
	View                         compareView
	CSP                          string
	Style                        template.CSS
	ErrorsJS, UPlotJS, CompareJS template.JS
}

// The comparison's template and assets are parsed and hashed once; the page
// shares the run report's style, error recorder and chart library.
var (
	compareTemplate = template.Must(template.New("compare.html.tmpl").Funcs(template.FuncMap{
		"n": func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) },
	}).ParseFS(compareFiles, "report/compare.html.tmpl"))
	compareAssets = loadCompareAssets()
)

// loadCompareAssets reads the inline style and scripts of the comparison
// page and builds the Content-Security-Policy that allows exactly them.
func loadCompareAssets() comparePage {
	read := func(name string) string {
		b, err := compareFiles.ReadFile("report/" + name)
		if err != nil {
			panic(err) // embedded: a missing file is a build error
		}
		return string(b)
	}
	style := read("vendor/uPlot.min.css") + "\n" + read("style.css") + "\n" + read("compare.css")
	p := comparePage{
		Style:     template.CSS(style),
		ErrorsJS:  template.JS(read("errors.js")),
		UPlotJS:   template.JS(read("vendor/uPlot.iife.min.js")),
		CompareJS: template.JS(read("compare.js")),
	}
	p.CSP = "default-src 'none'; img-src data:; style-src " + hash(style) +
		"; script-src " + hash(string(p.ErrorsJS)) + " " + hash(string(p.UPlotJS)) + " " + hash(string(p.CompareJS)) +
		"; base-uri 'none'; form-action 'none'"
	return p
}
