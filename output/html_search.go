package output

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/search"
)

// The search page's chart geometry, in SVG user units (each SVG scales to
// its card's width).
const (
	scWidth  = 560.0
	scHeight = 240.0
	scLeft   = 58.0  // the plot's left edge: the value ticks left of it
	scRight  = 548.0 // the plot's right edge
	scTop    = 14.0
	scBottom = 200.0 // the plot's bottom edge: the rate ticks and title below
	scPad    = 10.0  // no point lies closer than this to the plot's edges
	scTicks  = 4     // about this many tick steps per axis
)

// searchView is everything the search page shows. Strings in it are plain
// text: html/template escapes them where they are placed.
type searchView struct {
	Script, Line, Settings string
	Cards                  []card
	Gates                  []gateHead
	Charts                 []rateChart // one per gate
	Health                 []rateChart // runner CPU and schedule lag; those with a value
	Rows                   []searchRow
	Capacity, FailRate     string // "" when the answer has none
}

// gateHead is one gate of the script: its metric and its expression.
type gateHead struct{ Metric, Source string }

// name is the gate as search.Gate.Name writes it, the key of its values.
func (g gateHead) name() string { return search.Gate{Metric: g.Metric, Source: g.Source}.Name() }

// rateChart is one value per step against the step's rate, drawn as SVG: a
// point per step coloured by verdict, a horizontal line at the limit, and
// vertical lines at the capacity and at the lowest rate that did not pass.
type rateChart struct {
	ID, Title, Source                       string
	Width, Height, Left, Right, Top, Bottom float64
	MidX                                    float64 // the rate axis' title
	XTicks, YTicks                          []searchTick
	HLines, VLines                          []refLine
	Points                                  []ratePoint
}

// searchTick is one tick of an axis at Pos, in SVG units.
type searchTick struct {
	Pos   float64
	Label string
}

// refLine is a reference line at Pos (y for a limit, x for a rate); Data is
// its value unformatted, for the SVG's data attribute. Its label is at
// LabelX, shifted down by DY from the line (a limit) or the plot's top (a
// rate).
type refLine struct {
	Class, Label, Data, Anchor string
	Pos, LabelX, DY            float64
}

// ratePoint is one step's value. Rate and Value are unformatted, for the
// SVG's data attributes; Value is "" when the step had none (the point then
// sits on the plot's bottom edge, hollow).
type ratePoint struct {
	Step         int
	Rate, Value  string
	X, Y         float64
	Class, Title string
}

// searchRow is one step of the table, formatted as search.Answer.WriteTable
// prints it.
type searchRow struct {
	Step                                  int
	Phase, Rate, Achieved, Verdict, Class string
	Gates                                 []gateCell
	Dropped, Lag, CPU, Limits             string
}

// gateCell is a gate's value in one step.
type gateCell struct {
	Value string
	Fail  bool
}

// WriteSearchReport writes the HTML page of a capacity search to w: the
// script and the one-line answer, the headline cards, per gate its value
// in each step against the rate with its limit, the capacity and the lowest
// rate that did not pass, the runner's CPU and schedule lag against the
// rate, and the table of every step. The charts are SVG drawn here, so the
// page runs no script but the error recorder; like the run's report it is
// self-contained and its Content-Security-Policy allows only its inline
// style and that script. Text from the answer (metric names, threshold
// sources, limits, the script's name) is shown as text.
func WriteSearchReport(w io.Writer, a *search.Answer, script string) error {
	if a == nil {
		return errors.New("search report: no answer to write")
	}
	p := searchAssets
	p.View = buildSearchView(a, script)
	return searchTemplate.Execute(w, p)
}

// buildSearchView turns an answer into the page's data.
func buildSearchView(a *search.Answer, script string) searchView {
	v := searchView{Script: script, Line: answerLine(a), Settings: searchSettings(a), Cards: searchCards(a)}
	if a.Capacity != nil {
		v.Capacity = search.FormatRate(*a.Capacity)
	}
	if a.FailRate != nil {
		v.FailRate = search.FormatRate(*a.FailRate)
	}
	v.Gates = searchGates(a)
	if len(a.Steps) > 0 {
		v.Charts, v.Health = searchCharts(a, v.Gates)
	}
	for i, s := range a.Steps {
		v.Rows = append(v.Rows, stepRow(i, s, v.Gates))
	}
	return v
}

// answerLine is a.Line(), or what the search lacks when the answer has too
// little for it (Line reads Capacity and FailRate as its bound needs them).
func answerLine(a *search.Answer) string {
	complete := a.Bound == search.BelowMin ||
		(a.Bound == search.AtLeast && a.Capacity != nil) ||
		(a.Capacity != nil && a.FailRate != nil && (a.Bound == search.Found || a.Bound == search.RunnerLimited))
	switch {
	case complete:
		return a.Line()
	case len(a.Steps) == 0:
		return "capacity: unknown (the search ran no step)"
	}
	return "capacity: unknown (the search ended without an answer)"
}

// searchSettings says how the search ran: "staircase search from 10 to 100
// req/s, resolution 1 req/s · took 2m30s".
func searchSettings(a *search.Answer) string {
	head := strings.TrimSpace(a.Strategy + " search")
	if a.Max > 0 {
		head += fmt.Sprintf(" from %s to %s req/s", search.FormatRate(a.Min), search.FormatRate(a.Max))
	}
	if a.Resolution > 0 {
		head += ", resolution " + search.FormatRate(a.Resolution) + " req/s"
	}
	parts := []string{head}
	if a.Repeat > 1 {
		parts = append(parts, fmt.Sprintf("each rate %d times", a.Repeat))
	}
	if a.Seconds > 0 {
		parts = append(parts, "took "+time.Duration(a.Seconds*float64(time.Second)).Round(time.Second).String())
	}
	return strings.Join(parts, " · ")
}

// searchCards are the headline numbers: the capacity, how it is bounded,
// the first gate to fail, the steps and, with --expect, whether it is met.
func searchCards(a *search.Answer) []card {
	cards := []card{capacityCard(a), boundCard(a), firstGateCard(a),
		{Label: "steps", Value: strconv.Itoa(len(a.Steps))}}
	if a.Expect != nil && a.Met != nil {
		c := card{Label: "expected at least " + search.FormatRate(*a.Expect) + " req/s", Value: "met", Class: "pass"}
		if !*a.Met {
			c.Value, c.Class = "not met", "fail"
		}
		cards = append(cards, c)
	}
	return cards
}

// capacityCard shows the capacity, "≥" when the search did not find its
// upper bound.
func capacityCard(a *search.Answer) card {
	if a.Capacity == nil {
		return card{Label: "capacity: no rate passed", Value: "none", Class: "fail"}
	}
	c := card{Label: "capacity", Value: search.FormatRate(*a.Capacity) + " req/s"}
	switch a.Bound {
	case search.AtLeast:
		c.Value, c.Class = "≥ "+c.Value, "pass"
	case search.RunnerLimited:
		c.Value, c.Class = "≥ "+c.Value, "warn"
	}
	return c
}

// boundCard names the bound and says what it means.
func boundCard(a *search.Answer) card {
	c := card{Label: "bound", Value: a.Bound}
	switch a.Bound {
	case search.Found:
		c.Label = "bound: the next rate up did not pass"
	case search.AtLeast:
		c.Label = "bound: every rate passed up to --max"
	case search.BelowMin:
		c.Label, c.Class = "bound: --min did not pass", "fail"
	case search.RunnerLimited:
		c.Label, c.Class = "bound: the runner, not the system, stopped the search", "warn"
	case "":
		c.Value = "none"
	}
	return c
}

// firstGateCard names the gate that failed worst at the lowest failing
// rate.
func firstGateCard(a *search.Answer) card {
	if a.FirstGate == "" {
		c := card{Label: "first gate to fail", Value: "none", Class: "wide"}
		if len(a.Limits) > 0 {
			c.Label = "first gate to fail: the runner was limited first"
		}
		return c
	}
	c := card{Label: "first gate to fail", Value: a.FirstGate, Class: "fail wide"}
	if a.FailRate != nil {
		c.Label += " at " + search.FormatRate(*a.FailRate) + " req/s"
	}
	return c
}

// searchGates lists the gates of the steps in the order they first appear.
func searchGates(a *search.Answer) []gateHead {
	var out []gateHead
	seen := map[string]bool{}
	for _, s := range a.Steps {
		for _, g := range s.Gates {
			if !seen[g.Name()] {
				seen[g.Name()] = true
				out = append(out, gateHead{Metric: g.Metric, Source: g.Source})
			}
		}
	}
	return out
}

// findGate returns the step's gate of this name.
func findGate(s search.Step, name string) (search.Gate, bool) {
	for _, g := range s.Gates {
		if g.Name() == name {
			return g, true
		}
	}
	return search.Gate{}, false
}

// searchCharts draws a chart per gate and the runner's health charts, all
// on one rate axis spanning the steps, the capacity and the failing rate.
func searchCharts(a *search.Answer, gates []gateHead) (charts, health []rateChart) {
	rates := []float64{}
	for _, s := range a.Steps {
		rates = append(rates, s.Rate)
	}
	for _, r := range []*float64{a.Capacity, a.FailRate} {
		if r != nil {
			rates = append(rates, *r)
		}
	}
	x, ticks, step := niceLinear(rates, scLeft+scPad, scRight-scPad)
	var xt []searchTick
	for _, v := range ticks {
		xt = append(xt, searchTick{Pos: x.at(v), Label: plainTick(v, step)})
	}
	vlines := rateLines(a, x)
	for i, g := range gates {
		charts = append(charts, drawChart(gateSpec(a, g, i), a, x, xt, vlines))
	}
	for _, sp := range healthSpecs(a) {
		health = append(health, drawChart(sp, a, x, xt, vlines))
	}
	return charts, health
}

// rateLines are the vertical lines at the capacity (labelled left of it)
// and at the lowest rate that did not pass (labelled right of it).
func rateLines(a *search.Answer, x linear) []refLine {
	var out []refLine
	if a.Capacity != nil {
		c := *a.Capacity
		out = append(out, refLine{Class: "capacity", Label: "capacity " + search.FormatRate(c), Data: raw(c),
			Anchor: "end", Pos: x.at(c), LabelX: x.at(c) - 4, DY: 8})
	}
	if a.FailRate != nil {
		f := *a.FailRate
		out = append(out, refLine{Class: "failrate", Label: "not passed " + search.FormatRate(f), Data: raw(f),
			Anchor: "start", Pos: x.at(f), LabelX: x.at(f) + 4, DY: 8})
	}
	return out
}

// chartSpec is what one chart draws: a value per step (nil: none), each
// point's class, the limit line (nil: none), values the value axis always
// spans, and how values and ticks read.
type chartSpec struct {
	ID, Title, Source string
	Values            []*float64
	Classes           []string
	Notes             []string // per step, added to its point's tooltip; nil: none
	Limit             *float64
	LimitLabel        string
	Include           []float64
	Format            func(float64) string
	Tick              func(v, step float64) string
}

// gateSpec is a gate's chart: its value in each step, green where it held,
// red where it did not, amber where the runner was limited (whatever the
// gate read, the step says nothing of the system).
func gateSpec(a *search.Answer, g gateHead, i int) chartSpec {
	sp := chartSpec{ID: "gate-" + strconv.Itoa(i+1), Title: g.Metric, Source: g.Source, Format: formatGate, Tick: plainTick}
	for _, s := range a.Steps {
		gate, ok := findGate(s, g.name())
		class := "pt-fail"
		switch {
		case s.Result == search.Limited:
			class = "pt-limited"
		case ok && gate.Pass:
			class = "pt-pass"
		}
		sp.Values, sp.Classes = append(sp.Values, gate.Value), append(sp.Classes, class)
		if ok && sp.Limit == nil {
			sp.Limit, sp.LimitLabel = &gate.Limit, "limit "+formatGate(gate.Limit)
		}
	}
	return sp
}

// healthSpecs are the runner's CPU and schedule lag p95 in each step, with
// the bounds beyond which a step is runner-limited; a chart with no value
// in any step is left out.
func healthSpecs(a *search.Answer) []chartSpec {
	lim := search.DefaultLimits
	cpu := chartSpec{ID: "health-cpu", Title: "runner CPU", Source: "mean of its cores", Limit: &lim.CPU,
		LimitLabel: "limited at " + formatCPU(lim.CPU), Include: []float64{0, 1}, Format: formatCPU, Tick: percentTick}
	lag := chartSpec{ID: "health-lag", Title: "schedule lag p95", Source: "ms", Limit: &lim.LagP95,
		LimitLabel: "limited above " + raw(lim.LagP95) + "ms", Include: []float64{0}, Format: formatMs, Tick: plainTick}
	for _, s := range a.Steps {
		class := "pt-" + verdictName(s.Result)
		cpu.Values, cpu.Classes = append(cpu.Values, s.Health.CPU), append(cpu.Classes, class)
		lag.Values, lag.Classes = append(lag.Values, s.Health.LagP95), append(lag.Classes, class)
		note := ""
		if s.Health.CPUMax != nil {
			note = "max " + formatCPU(*s.Health.CPUMax)
		}
		cpu.Notes = append(cpu.Notes, note)
	}
	var out []chartSpec
	for _, sp := range []chartSpec{cpu, lag} {
		if anyValue(sp.Values) {
			out = append(out, sp)
		}
	}
	return out
}

// drawChart lays a chart out on the shared rate axis x (its ticks xt, its
// vertical lines vlines) and a value axis spanning the chart's values.
func drawChart(sp chartSpec, a *search.Answer, x linear, xt []searchTick, vlines []refLine) rateChart {
	c := rateChart{ID: sp.ID, Title: sp.Title, Source: sp.Source,
		Width: scWidth, Height: scHeight, Left: scLeft, Right: scRight, Top: scTop, Bottom: scBottom,
		MidX: (scLeft + scRight) / 2, XTicks: xt, VLines: vlines}
	span := append(present(sp.Values), sp.Include...)
	if sp.Limit != nil {
		span = append(span, *sp.Limit)
	}
	y, ticks, step := niceLinear(span, scBottom-scPad, scTop+scPad)
	for _, v := range ticks {
		c.YTicks = append(c.YTicks, searchTick{Pos: y.at(v), Label: sp.Tick(v, step)})
	}
	if sp.Limit != nil {
		l := refLine{Class: "limit", Label: sp.LimitLabel, Data: raw(*sp.Limit), Anchor: "end",
			Pos: y.at(*sp.Limit), LabelX: scRight - 4, DY: -4}
		if l.Pos-scTop < 20 { // above, it would meet the rate lines' labels
			l.DY = 12
		}
		c.HLines = []refLine{l}
	}
	for i, s := range a.Steps {
		c.Points = append(c.Points, stepPoint(i, s, sp, x, y))
	}
	return c
}

// stepPoint is step i's point on a chart; its tooltip says the step, its
// value and its verdict.
func stepPoint(i int, s search.Step, sp chartSpec, x, y linear) ratePoint {
	p := ratePoint{Step: i + 1, Rate: raw(s.Rate), X: x.at(s.Rate), Y: scBottom, Class: sp.Classes[i]}
	value := "n/a"
	if v := sp.Values[i]; v != nil {
		p.Value, p.Y, value = raw(*v), y.at(*v), sp.Format(*v)
	} else {
		p.Class += " pt-na"
	}
	if sp.Notes != nil && sp.Notes[i] != "" {
		value += " (" + sp.Notes[i] + ")"
	}
	p.Title = fmt.Sprintf("step %d, %s, %s req/s: %s · %s", i+1, s.Phase, search.FormatRate(s.Rate), value, s.Result)
	if len(s.Health.Limits) > 0 {
		p.Title += ": " + strings.Join(s.Health.Limits, "; ")
	}
	return p
}

// stepRow formats step i for the table, its gates in the order of gates.
func stepRow(i int, s search.Step, gates []gateHead) searchRow {
	r := searchRow{Step: i + 1, Phase: s.Phase, Rate: search.FormatRate(s.Rate), Achieved: search.FormatRate(s.Achieved),
		Verdict: string(s.Result), Class: verdictName(s.Result), Dropped: strconv.FormatInt(s.Health.Dropped, 10),
		Lag: "-", CPU: "-", Limits: strings.Join(s.Health.Limits, "; ")}
	if s.Health.LagP95 != nil {
		r.Lag = formatMs(*s.Health.LagP95)
	}
	if s.Health.CPU != nil {
		r.CPU = formatCPU(*s.Health.CPU)
		if s.Health.CPUMax != nil {
			r.CPU += " (max " + formatCPU(*s.Health.CPUMax) + ")"
		}
	}
	for _, g := range gates {
		gate, ok := findGate(s, g.name())
		cell := gateCell{Value: "-"}
		if ok {
			cell = gateCell{Value: formatPtr(gate.Value), Fail: !gate.Pass}
		}
		r.Gates = append(r.Gates, cell)
	}
	return r
}

// verdictName is a verdict's CSS name: pass, fail or limited.
func verdictName(v search.Verdict) string {
	if v == search.Limited {
		return "limited"
	}
	return string(v)
}

// linear maps the domain [lo, hi] onto the SVG coordinates [from, to].
type linear struct{ lo, hi, from, to float64 }

// at is v's coordinate.
func (l linear) at(v float64) float64 { return l.from + (v-l.lo)/(l.hi-l.lo)*(l.to-l.from) }

// niceLinear maps a domain spanning vs, rounded out to whole tick steps
// (1, 2 or 5 times a power of ten, about scTicks of them), onto [from, to];
// it returns the scale, its ticks and their step. A single value is
// widened by 10 % of itself (by 1 when it is 0); no value spans [0, 1].
func niceLinear(vs []float64, from, to float64) (linear, []float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if finite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	if lo == hi {
		pad := math.Abs(lo) / 10
		if pad == 0 {
			pad = 1
		}
		lo, hi = lo-pad, hi+pad
	}
	step := niceStep((hi - lo) / scTicks)
	lo, hi = math.Floor(lo/step+1e-9)*step, math.Ceil(hi/step-1e-9)*step
	var ticks []float64
	for i := 0; lo+float64(i)*step <= hi+step*1e-9; i++ {
		ticks = append(ticks, lo+float64(i)*step)
	}
	return linear{lo, hi, from, to}, ticks, step
}

// plainTick labels a tick with as many decimals as the step needs.
func plainTick(v, step float64) string {
	if math.Abs(v) < step*1e-9 {
		v = 0
	}
	return strconv.FormatFloat(v, 'f', max(0, int(math.Ceil(-math.Log10(step)-1e-9))), 64)
}

// percentTick labels a tick of a fraction as a percentage: 0.25 → "25%".
func percentTick(v, step float64) string { return plainTick(v*100, step*100) + "%" }

// formatGate formats a gate's value or limit as the search's table does.
func formatGate(v float64) string { return fmt.Sprintf("%.4g", v) }

// formatPtr formats a gate's value, "n/a" for none.
func formatPtr(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return formatGate(*v)
}

func formatCPU(f float64) string { return fmt.Sprintf("%.0f%%", f*100) }

func formatMs(ms float64) string { return fmt.Sprintf("%.1fms", ms) }

// raw is v for a data attribute: the shortest text that reads back as v.
func raw(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// present returns the values that are set.
func present(vs []*float64) []float64 {
	var out []float64
	for _, v := range vs {
		if v != nil {
			out = append(out, *v)
		}
	}
	return out
}

func anyValue(vs []*float64) bool { return len(present(vs)) > 0 }

//go:embed report/style.css report/errors.js report/search.css report/search.html.tmpl
var searchFiles embed.FS

// searchPage is what the search template receives: the view and the inline
// assets.
type searchPage struct {
	View     searchView
	CSP      string
	Style    template.CSS
	ErrorsJS template.JS
}

// The search page's template and assets are parsed and hashed once; it
// shares the run report's style and error recorder.
var (
	searchTemplate = template.Must(template.New("search").Funcs(template.FuncMap{
		"n": func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) },
	}).Parse(readSearchFile("search.html.tmpl")))
	searchAssets = loadSearchAssets()
)

// loadSearchAssets reads the inline style and script of the search page and
// builds the Content-Security-Policy that allows exactly them.
func loadSearchAssets() searchPage {
	style := readSearchFile("style.css") + "\n" + readSearchFile("search.css")
	p := searchPage{Style: template.CSS(style), ErrorsJS: template.JS(readSearchFile("errors.js"))}
	p.CSP = "default-src 'none'; style-src " + hash(style) + "; script-src " + hash(string(p.ErrorsJS)) +
		"; base-uri 'none'; form-action 'none'"
	return p
}

// readSearchFile returns an embedded file of the search page.
func readSearchFile(name string) string {
	b, err := searchFiles.ReadFile("report/" + name)
	if err != nil {
		panic(err) // embedded: a missing file is a build error
	}
	return string(b)
}
