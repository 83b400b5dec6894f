package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/compare"
	"github.com/usefullatency/usefullatency/result"
)

// renderCompare renders a comparison's page.
func renderCompare(t *testing.T, r *compare.Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteCompareReport(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// spread returns n sorted values evenly spread over [lo, hi].
func spread(n int, lo, hi float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return out
}

// sampleComparison is a comparison of two buckets: qa's useful time
// regressed by about 10 % against a gate p(95)<2500, tool's improved, an
// error rate without change and too few requests to decide, and a counter
// whose base is 0.
func sampleComparison() *compare.Report {
	return &compare.Report{
		Confidence: 0.95,
		MinEffect:  compare.Effect{Relative: 0.05},
		Effects:    compare.DefaultEffects,
		Resamples:  2000,
		Seed:       7,
		Base:       []string{"base-1.res", "base-2.res"},
		New:        []string{"new.res"},
		Notes:      []string{"The new side ran at 9.5 iterations/s, the base at 10/s."},
		Rows: []compare.Row{
			{Metric: "usefulsse_useful{bucket:qa}", Bucket: "qa", Type: "trend", Stat: "p(95)", Unit: "ms",
				Base: 2250, New: 2475, Diff: 225, Rel: 0.1, Low: 160, High: 300, RelLow: 0.07, RelHigh: 0.13,
				HigherIsWorse: true, Effect: compare.Effect{Relative: 0.05}, Verdict: compare.Regressed, BaseN: 2000, NewN: 1000, BaseRuns: 2, NewRuns: 1, Gated: true, Score: 9},
			{Metric: "usefulsse_useful{bucket:tool}", Bucket: "tool", Type: "trend", Stat: "p(50)", Unit: "ms",
				Base: 3000, New: 2700, Diff: -300, Rel: -0.1, Low: -360, High: -240, RelLow: -0.12, RelHigh: -0.08,
				HigherIsWorse: true, Effect: compare.Effect{Relative: 0.05}, Verdict: compare.Improved, BaseN: 2000, NewN: 1000, BaseRuns: 2, NewRuns: 1, Gated: true, Score: -7},
			{Metric: "usefulsse_failed{bucket:qa}", Bucket: "qa", Type: "rate", Stat: "rate",
				Base: 0.01, New: 0.012, Diff: 0.002, Rel: 0.2, Low: -0.004, High: 0.008, RelLow: -0.4, RelHigh: 0.8,
				HigherIsWorse: true, Effect: compare.Effect{Relative: 0.05}, Verdict: compare.NoChange, Undecided: true, NeedRequests: 12000,
				BaseN: 2000, NewN: 1000, BaseRuns: 2, NewRuns: 1, Gated: true, Score: 0.5},
			{Metric: "dropped_iterations", Type: "counter", Stat: "count",
				Base: 0, New: 3, Diff: 3, Rel: math.NaN(), Low: 0, High: 6, RelLow: math.NaN(), RelHigh: math.NaN(),
				HigherIsWorse: true, Effect: compare.Effect{Relative: 0.05}, Verdict: compare.NoChange, BaseN: 0, NewN: 3, BaseRuns: 2, NewRuns: 1, Gated: false},
		},
		Distributions: map[string][2][]float64{
			"usefulsse_useful{bucket:qa}":   {spread(2000, 1000, 2400), spread(1000, 1100, 2640)},
			"usefulsse_useful{bucket:tool}": {spread(2000, 2000, 4000), spread(1000, 1800, 3600)},
		},
		Gates: map[string][]string{"usefulsse_useful{bucket:qa}": {"p(95)<2500"}},
	}
}

var compareDataRE = regexp.MustCompile(`(?s)<script type="application/json" id="compare-data">(.*?)</script>`)

// compareData reads the page's JSON data block.
func compareDataOf(t *testing.T, page string) compareData {
	t.Helper()
	m := compareDataRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no compare-data block")
	}
	var d compareData
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("the data block is not JSON: %v\n%.300s", err, m[1])
	}
	return d
}

func TestCompareReportShowsEveryPart(t *testing.T) {
	raw := renderCompare(t, sampleComparison())
	page := strings.ReplaceAll(raw, "&#43;", "+") // html/template writes + as &#43;
	for _, want := range []string{
		// The header: the sides, the settings, the verdicts, the exit code.
		`<dt>base</dt><dd><code>base-1.res</code>, <code>base-2.res</code></dd>`,
		`<dt>new</dt><dd><code>new.res</code></dd>`,
		`95% confidence intervals (2000 bootstrap resamples, seed 7)`,
		`minimum effect of <b>5%</b>`,
		`<div class="card fail"><div class="value">1</div><div class="label">regressed</div></div>`,
		`<div class="card pass"><div class="value">1</div><div class="label">improved</div></div>`,
		`<div class="value">2</div><div class="label">no clear change</div>`,
		`<div class="card warn"><div class="value">1</div><div class="label">too small to decide</div></div>`,
		`1 gated row regressed (usefulsse_useful{bucket:qa} p(95))`,
		// The notes, prominent.
		`<section id="notes" class="notes differ">`,
		`<li>The new side ran at 9.5 iterations/s, the base at 10/s.</li>`,
		// The table, as the text output formats it.
		`<tr class="fail"><td class="mark">✗</td><td class="name">qa</td><td class="name">usefulsse_useful</td><td>p(95)</td><td class="num">2.25s</td><td class="num">2.47s</td><td class="num">+225ms</td><td class="num">+10.0%</td><td class="num">[+7.0%, +13.0%]</td><td class="verdict">regressed</td><td class="num">2,000 in 2 runs / 1,000</td></tr>`,
		`<tr class="pass"><td class="mark">✓</td><td class="name">tool</td><td class="name">usefulsse_useful</td><td>p(50)</td><td class="num">3s</td><td class="num">2.7s</td><td class="num">-300ms</td><td class="num">-10.0%</td><td class="num">[-12.0%, -8.0%]</td><td class="verdict">improved</td>`,
		`<tr class="same"><td class="mark">·</td><td class="name">qa</td><td class="name">usefulsse_failed</td><td>rate</td><td class="num">1.00%</td><td class="num">1.20%</td><td class="num">+0.20pp</td><td class="num">+20.0%</td><td class="num">[-40.0%, +80.0%]</td><td class="verdict">undecided<div class="warning">too small to decide: run longer or repeat (about 12,000 requests per side would likely decide it)</div></td>`,
		`<tr class="same ungated"><td class="mark">·</td><td class="name"></td><td class="name">dropped_iterations</td><td>count</td><td class="num">0</td><td class="num">3</td><td class="num">+3</td><td class="num">n/a</td><td class="num">[+0, +6]</td><td class="verdict">no clear change</td><td class="num">0 in 2 runs / 3</td></tr>`,
		// The forest plot: one labelled line per row.
		`<g class="fp-row fp-regressed">`,
		`<g class="fp-row fp-improved">`,
		`<g class="fp-row fp-same ungated">`,
		`>qa · usefulsse_useful p(95)<title>usefulsse_useful{bucket:qa} p(95)</title></text>`,
		`>+10.0% [+7.0%, +13.0%]</text>`,
		`<line class="fp-ci dashed"`,
		`>base 0: +3 [+0, +6]</text>`,
		// The distributions, per bucket, with the gate.
		`<h3 class="bucket-name">qa</h3>`,
		`<h3 class="bucket-name">tool</h3>`,
		`<div class="chart" id="ecdf-0"></div>`,
		`<div class="chart" id="ecdf-1"></div>`,
		`· gate <code>p(95)&lt;2500</code>`,
		`<span class="v-regressed">p(95) +10.0% regressed</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(inlineRE.ReplaceAllString(page, ""), "NaN") {
		t.Error("the page shows NaN")
	}

	d := compareDataOf(t, raw)
	if len(d.ECDF) != 2 {
		t.Fatalf("%d ECDF charts, want 2 (qa, tool)", len(d.ECDF))
	}
	qa := d.ECDF[0]
	if qa.ID != "ecdf-0" || qa.Unit != "ms" || len(qa.X) != len(qa.Base) || len(qa.X) != len(qa.New) {
		t.Fatalf("qa's chart: id %q unit %q, %d x, %d base, %d new", qa.ID, qa.Unit, len(qa.X), len(qa.Base), len(qa.New))
	}
	if len(qa.X) > 2*ecdfMaxPoints {
		t.Errorf("qa's chart has %d points, want at most %d", len(qa.X), 2*ecdfMaxPoints)
	}
	if qa.X[0] != 1000 || qa.X[len(qa.X)-1] != 2640 || qa.Base[len(qa.X)-1] != 1 || qa.New[0] != 0 {
		t.Errorf("qa's curves span %v..%v, base ends at %v, new starts at %v; want 1000..2640, 1, 0",
			qa.X[0], qa.X[len(qa.X)-1], qa.Base[len(qa.X)-1], qa.New[0])
	}
	if len(qa.Gates) != 1 || qa.Gates[0].X != 2500 || qa.Gates[0].Y == nil || *qa.Gates[0].Y != 0.95 || qa.Gates[0].Source != "p(95)<2500" {
		t.Errorf("qa's gates = %+v, want p(95)<2500 at x 2500, y 0.95", qa.Gates)
	}
	if len(d.ECDF[1].Gates) != 0 {
		t.Errorf("tool's chart has gates %+v, want none", d.ECDF[1].Gates)
	}
}

// resultRun is a one-run result file whose usefulsse_useful of bucket qa
// holds values, gated by p(95)<2500.
func resultRun(values []float64) *result.File {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	sink := result.Sink{Values: values, Count: int64(len(values))}
	for _, v := range values {
		sink.Sum += v
	}
	return &result.File{
		Format: result.Format, Version: result.Version, TestID: "t", Script: "test.js",
		Segments: []string{"0:1"}, Start: start, End: start.Add(10 * time.Second), Duration: 10 * time.Second,
		Thresholds: map[string][]result.Threshold{"usefulsse_useful{bucket:qa}": {{Source: "p(95)<2500"}}},
		Metrics: []result.Metric{{Name: "usefulsse_useful", Type: "trend", Contains: "time", Sink: sink,
			Submetrics: []result.Submetric{{Selector: "bucket:qa", Sink: sink}}}},
	}
}

// TestCompareReportOfCompare draws what compare.Compare finds in two
// synthetic runs, the new one 10 % slower: the regressed p95 of qa leads
// the table, and qa's chart has both curves and the gate's lines.
func TestCompareReportOfCompare(t *testing.T) {
	base := spread(400, 1000, 2400)
	slower := make([]float64, len(base))
	for i, v := range base {
		slower[i] = v * 1.1
	}
	rep, err := compare.Compare([]*result.File{resultRun(base)}, []*result.File{resultRun(slower)}, compare.Options{Resamples: 500})
	if err != nil {
		t.Fatal(err)
	}
	page := strings.ReplaceAll(renderCompare(t, rep), "&#43;", "+")
	for _, want := range []string{
		`<td class="mark">✗</td><td class="name">qa</td><td class="name">usefulsse_useful</td><td>p(95)</td>`,
		`<td class="num">+10.0%</td>`,
		`<h3 class="bucket-name">qa</h3>`,
		`· gate <code>p(95)&lt;2500</code>`,
		`exit code 111: `,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	var qa *ecdfChart
	d := compareDataOf(t, page)
	for i := range d.ECDF {
		if len(d.ECDF[i].Gates) > 0 {
			qa = &d.ECDF[i]
		}
	}
	if qa == nil {
		t.Fatalf("no chart has the gate: %d charts", len(d.ECDF))
	}
	if g := qa.Gates[0]; g.X != 2500 || g.Y == nil || *g.Y != 0.95 {
		t.Errorf("the gate is drawn at %+v, want x 2500, y 0.95", g)
	}
	if n := len(qa.X); n == 0 || qa.X[0] != 1000 || qa.X[n-1] != slower[len(slower)-1] || qa.Base[n-1] != 1 || qa.New[n-1] != 1 {
		t.Errorf("qa's curves do not span both sides' values: %d points", n)
	}
}

func TestCompareReportEscapesFileText(t *testing.T) {
	r := sampleComparison()
	r.Base = []string{imgInject + ".res"}
	r.Notes = []string{scriptBreak}
	dist := r.Distributions["usefulsse_useful{bucket:qa}"]
	r.Distributions = map[string][2][]float64{}
	const gate = `p(95)<2500</script><img src=x>`
	for i, bucket := range []string{imgInject, scriptBreak} {
		metric := "usefulsse_useful{bucket:" + bucket + "}"
		r.Rows[i].Bucket, r.Rows[i].Metric = bucket, metric
		r.Distributions[metric] = dist
		if i == 1 {
			r.Gates = map[string][]string{metric: {"p(95)<2500", gate}}
		}
	}
	page := renderCompare(t, r)
	for _, raw := range []string{"<img", "<script>alert", "onerror=alert(1)>"} {
		if strings.Contains(strings.ToLower(page), strings.ToLower(raw)) {
			t.Errorf("the page contains %q unescaped", raw)
		}
	}
	if n := strings.Count(page, "<script"); n != 4 {
		t.Errorf("%d <script elements, want 4 (errors, data, uPlot, compare)", n)
	}
	for _, want := range []string{
		`<h3 class="bucket-name">` + html.EscapeString(imgInject) + `</h3>`,
		`<td class="name">` + html.EscapeString(scriptBreak) + `</td>`,
		`<li>` + html.EscapeString(scriptBreak) + `</li>`,
		`<code>` + html.EscapeString(imgInject) + `.res</code>`,
		`· gate <code>` + html.EscapeString(gate) + `</code>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks the file's text as text: %q", want)
		}
	}
	// The charts are in the order of the buckets' names ("</script…"
	// first); a gate's line needs a threshold that parses.
	d := compareDataOf(t, page)
	if len(d.ECDF) != 2 || len(d.ECDF[0].Gates) != 1 || d.ECDF[0].Gates[0].Source != "p(95)<2500" || len(d.ECDF[1].Gates) != 0 {
		t.Errorf("%d charts; their gates: %+v", len(d.ECDF), func() (g [][]ecdfGate) {
			for _, c := range d.ECDF {
				g = append(g, c.Gates)
			}
			return g
		}())
	}
}

// TestCompareReportContentSecurityPolicy checks that the page forbids the
// network and allows exactly its inline style and scripts.
func TestCompareReportContentSecurityPolicy(t *testing.T) {
	page := renderCompare(t, sampleComparison())
	checkCSP(t, page)
	if regexp.MustCompile(`(?i)(src|href)="(https?:)?//`).MatchString(page) {
		t.Error("the page loads something from the network")
	}
	// The page has the run report's look: its style is inline.
	if !strings.Contains(page, string(compareAssets.Style)[:200]) || !strings.Contains(page, "--pass-bg") {
		t.Error("the page does not carry the run report's style")
	}
}

func TestCompareReportWithoutRows(t *testing.T) {
	page := renderCompare(t, &compare.Report{Confidence: 0.9, Effects: compare.Effects{Relative: 0.05, Time: 50}})
	for _, want := range []string{
		"90% confidence intervals", "minimum effect of <b>50ms for times, 5% otherwise</b>",
		"exit code 0: no gated row regressed.", "No row was compared.", "No distribution to draw",
		`<section id="notes" class="notes">`, "</html>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the empty comparison lacks %q", want)
		}
	}
	if d := compareDataOf(t, page); len(d.ECDF) != 0 {
		t.Errorf("the empty comparison has %d charts", len(d.ECDF))
	}
	if err := WriteCompareReport(&bytes.Buffer{}, nil); err == nil {
		t.Error("a nil comparison was written")
	}
}

func TestCompareReportExitCodeLine(t *testing.T) {
	r := sampleComparison()
	r.Rows[0].Gated = false // --fail-on leaves the regression out
	page := renderCompare(t, r)
	if want := `<p class="exit" id="exit">exit code 0: none of the 2 gated rows (of 4) regressed.</p>`; !strings.Contains(page, want) {
		t.Errorf("the page lacks %q", want)
	}
}

func TestCompareECDFPoints(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		limit  int
		want   []ecdfPoint
	}{
		{"empty", nil, 5, nil},
		{"each distinct value", []float64{1, 2, 3, 4}, 5, []ecdfPoint{{1, .25}, {2, .5}, {3, .75}, {4, 1}}},
		{"ties step once, to the share at or below", []float64{1, 1, 1, 2}, 5, []ecdfPoint{{1, .75}, {2, 1}}},
		{"NaN left out", []float64{1, 2, math.NaN()}, 5, []ecdfPoint{{1, .5}, {2, 1}}},
		{"quantiles above the limit", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 4,
			[]ecdfPoint{{1, 1.0 / 9}, {3, 3.0 / 9}, {6, 6.0 / 9}, {9, 1}}},
		{"a quantile on a tie takes the whole tie", []float64{1, 2, 2, 2, 2, 2, 3, 4, 5}, 4,
			[]ecdfPoint{{1, 1.0 / 9}, {2, 6.0 / 9}, {5, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ecdfPoints(tt.values, tt.limit)
			if len(got) != len(tt.want) {
				t.Fatalf("ecdfPoints = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i].X != tt.want[i].X || math.Abs(got[i].Y-tt.want[i].Y) > 1e-6 {
					t.Fatalf("ecdfPoints = %v, want %v", got, tt.want)
				}
			}
		})
	}
}

// TestCompareECDFPointsLarge checks the bound and the exactness of a downsampled
// curve: at most ecdfMaxPoints points, from the smallest to the largest
// value, each Y the exact share of values at or below its X.
func TestCompareECDFPointsLarge(t *testing.T) {
	values := make([]float64, 100_000)
	for i := range values {
		values[i] = math.Floor(math.Pow(float64(i)/1000, 2)) // many ties, long tail
	}
	pts := ecdfPoints(values, ecdfMaxPoints)
	if len(pts) > ecdfMaxPoints || len(pts) < ecdfMaxPoints/2 {
		t.Fatalf("%d points, want at most %d and not far fewer", len(pts), ecdfMaxPoints)
	}
	if pts[0].X != values[0] || pts[len(pts)-1].X != values[len(values)-1] || pts[len(pts)-1].Y != 1 {
		t.Errorf("the curve runs from %v to %v (y %v)", pts[0], pts[len(pts)-1].X, pts[len(pts)-1].Y)
	}
	for i, p := range pts {
		n := 0
		for _, v := range values {
			if v <= p.X {
				n++
			}
		}
		if p.Y != float64(n)/float64(len(values)) || (i > 0 && !(p.X > pts[i-1].X && p.Y > pts[i-1].Y)) {
			t.Fatalf("point %d = %v, want y %v, increasing", i, p, float64(n)/float64(len(values)))
		}
	}
}

func TestCompareRoundSignificant(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{0, 0}, {1234.56789, 1234.568}, {-1234.56789, -1234.568}, {0.000123456789, 0.0001234568},
		{123456789, 123456800}, {2500, 2500}, {math.Inf(1), math.Inf(1)},
	} {
		if got := roundSignificant(tt.in, 7); got != tt.want {
			t.Errorf("roundSignificant(%v, 7) = %v, want %v", tt.in, got, tt.want)
		}
	}
	// Values that round to one X make one step, to the share of the last.
	got := ecdfPoints([]float64{1000.00001, 1000.00002, 1001}, 10)
	if len(got) != 2 || got[0] != (ecdfPoint{1000, round(2.0/3, 6)}) || got[1] != (ecdfPoint{1001, 1}) {
		t.Errorf("ecdfPoints = %v", got)
	}
}

func TestCompareECDFTable(t *testing.T) {
	xs, a, b := ecdfTable([]ecdfPoint{{1, .5}, {3, 1}}, []ecdfPoint{{2, .25}, {3, .5}, {4, 1}})
	got := fmt.Sprint("x ", xs, " a ", a, " b ", b)
	if want := "x [1 2 3 4] a [0.5 0.5 1 1] b [0 0.25 0.5 1]"; got != want {
		t.Errorf("ecdfTable = %s, want %s", got, want)
	}
}

func TestCompareGateLine(t *testing.T) {
	level := func(v float64) *float64 { return &v }
	tests := []struct {
		src string
		ok  bool
		x   float64
		y   *float64
	}{
		{"p(95)<2500", true, 2500, level(0.95)},
		{"p( 99.9 ) <= 4000", true, 4000, level(0.999)},
		{"med<800", true, 800, level(0.5)},
		{"max<10000", true, 10000, level(1)},
		{"avg<1200", true, 1200, nil},
		{"min>1", true, 1, nil},
		{"count>100", false, 0, nil},
		{"rate<0.01", false, 0, nil},
		{"not a threshold", false, 0, nil},
	}
	for _, tt := range tests {
		g, ok := gateLine(tt.src)
		if ok != tt.ok || (ok && (g.X != tt.x || (g.Y == nil) != (tt.y == nil) || (g.Y != nil && math.Abs(*g.Y-*tt.y) > 1e-12) || g.Source != tt.src)) {
			t.Errorf("gateLine(%q) = %+v, %v; want x %v y %v, %v", tt.src, g, ok, tt.x, tt.y, tt.ok)
		}
	}
}

func TestCompareForestAxisAndBands(t *testing.T) {
	ms100 := compare.Effect{Absolute: 100} // the band is 100/base per row
	r := &compare.Report{
		Rows: []compare.Row{
			{Metric: "a", Stat: "p(95)", Unit: "ms", Base: 1000, Effect: ms100, Rel: 0.5, RelLow: 0.2, RelHigh: 3, Verdict: compare.Regressed, Gated: true},
			{Metric: "b", Stat: "p(95)", Unit: "ms", Base: 4000, Effect: ms100, Rel: -0.02, RelLow: -0.05, RelHigh: 0.01, Verdict: compare.NoChange, Gated: true},
		},
	}
	f := buildForest(r)
	if f.Ticks[0].Label != "−100%" || f.Ticks[len(f.Ticks)-1].Label != "+100%" {
		t.Errorf("the axis runs %q..%q, want −100%%..+100%% (capped)", f.Ticks[0].Label, f.Ticks[len(f.Ticks)-1].Label)
	}
	a, b := f.Rows[0], f.Rows[1]
	if !a.ClipHigh || a.ClipLow || a.High != fpPlotRight {
		t.Errorf("row a: clip %v/%v, high %v; want its interval cut at the right end %v", a.ClipLow, a.ClipHigh, a.High, fpPlotRight)
	}
	scale := (fpPlotRight - fpPlotLeft) / 2 // per 100%
	if math.Abs(a.BandW-2*0.1*scale) > 1e-9 || math.Abs(b.BandW-2*0.025*scale) > 1e-9 {
		t.Errorf("bands %v and %v wide, want ±10%% and ±2.5%% of the base", a.BandW, b.BandW)
	}
	if math.Abs(b.Point-(f.ZeroX-0.02*scale)) > 1e-9 || a.Class != "fp-regressed" || b.Class != "fp-same" {
		t.Errorf("row b's point at %v (zero at %v), classes %q %q", b.Point, f.ZeroX, a.Class, b.Class)
	}

	small := buildForest(&compare.Report{Rows: []compare.Row{
		{Metric: "c", Stat: "avg", Rel: 0.01, RelLow: -0.02, RelHigh: 0.04, Effect: compare.Effect{Relative: 0.05}}}})
	if first, last := small.Ticks[0].Label, small.Ticks[len(small.Ticks)-1].Label; first != "−6%" || last != "+6%" {
		t.Errorf("a small comparison's axis runs %q..%q, want the effect band in view (−6%%..+6%%)", first, last)
	}
	if buildForest(&compare.Report{}) != nil {
		t.Error("a comparison without rows has a forest plot")
	}
}
