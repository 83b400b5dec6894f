package output

import (
	"bytes"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/search"
)

// renderSearch renders a search's page.
func renderSearch(t *testing.T, a *search.Answer, script string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSearchReport(&buf, a, script); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func fp(v float64) *float64 { return &v }

// Names of the sample search's gates.
const (
	gateUseful = "usefulsse_useful{bucket:qa}"
	gateFailed = "usefulsse_failed"
)

// searchStep is one step of the sample search: p95 of the useful time
// against p(95)<2500 and the failure rate against rate<0.01.
func searchStep(phase string, rate, p95, failed, cpu float64, verdict search.Verdict, limits ...string) search.Step {
	return search.Step{
		Rate: rate, Achieved: rate * 0.99, Phase: phase, Result: verdict,
		Gates: []search.Gate{
			{Metric: gateUseful, Source: "p(95)<2500", Value: fp(p95), Limit: 2500, Pass: p95 < 2500, Samples: 100},
			{Metric: gateFailed, Source: "rate<0.01", Value: fp(failed), Limit: 0.01, Pass: failed < 0.01, Samples: 100},
		},
		Health: search.Health{LagP95: fp(rate / 10), CPU: fp(cpu), CPUMax: fp(cpu + 0.03), Limits: limits},
	}
}

// sampleSearch is a staircase that raised the rate to 40 req/s, where both
// gates failed, bisected down with a runner-limited step at 35 req/s and a
// failing one at 32.5 req/s, and confirmed 30 req/s.
func sampleSearch() *search.Answer {
	steps := []search.Step{
		searchStep(search.PhaseRaise, 10, 900, 0, 0.2, search.Pass),
		searchStep(search.PhaseRaise, 20, 1500, 0.002, 0.4, search.Pass),
		searchStep(search.PhaseRaise, 40, 3100, 0.02, 0.8, search.Fail),
		searchStep(search.PhaseBisect, 30, 2200, 0.004, 0.6, search.Pass),
		searchStep(search.PhaseBisect, 35, 2600, 0.003, 0.95, search.Limited, "runner CPU at 95% of its cores"),
		searchStep(search.PhaseBisect, 32.5, 2550, 0.006, 0.65, search.Fail),
		searchStep(search.PhaseConfirm, 30, 2300, 0.004, 0.6, search.Pass),
	}
	a := &search.Answer{
		Strategy: "staircase", Capacity: fp(30), Bound: search.Found, FailRate: fp(32.5),
		FirstGate: gateUseful + " p(95)<2500", FailedGates: []string{gateUseful + " p(95)<2500"},
		Resolution: 2.5, Min: 10, Max: 100, Repeat: 1, Steps: steps, Seconds: 140,
	}
	a.SetExpect(25)
	return a
}

// svgPoint is one point of a chart as the page draws it.
type svgPoint struct {
	class       string
	step        int
	rate, value float64
	hasValue    bool // data-value is set
	cx, cy      float64
}

var (
	figureRE = regexp.MustCompile(`(?s)<figure class="rate-card" id="([^"]+)">(.*?)</figure>`)
	pointRE  = regexp.MustCompile(`<circle class="pt ([^"]+)" data-step="(\d+)" data-rate="([^"]*)" data-value="([^"]*)" cx="([^"]+)" cy="([^"]+)"`)
	limitRE  = regexp.MustCompile(`<line class="limit" data-value="([^"]+)" x1="[^"]+" x2="[^"]+" y1="([^"]+)" y2="([^"]+)">`)
	vlineRE  = regexp.MustCompile(`<line class="(capacity|failrate)" data-rate="([^"]+)" x1="([^"]+)" x2="([^"]+)"`)
)

// charts returns each chart's SVG by its id, in page order.
func charts(t *testing.T, page string) (ids []string, svg map[string]string) {
	t.Helper()
	svg = map[string]string{}
	for _, m := range figureRE.FindAllStringSubmatch(page, -1) {
		ids = append(ids, m[1])
		svg[m[1]] = m[2]
	}
	return ids, svg
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number: %v", s, err)
	}
	return v
}

// points reads a chart's points.
func points(t *testing.T, chart string) []svgPoint {
	t.Helper()
	var out []svgPoint
	for _, m := range pointRE.FindAllStringSubmatch(chart, -1) {
		step, _ := strconv.Atoi(m[2])
		p := svgPoint{class: m[1], step: step, rate: num(t, m[3]), cx: num(t, m[5]), cy: num(t, m[6])}
		if m[4] != "" {
			p.value, p.hasValue = num(t, m[4]), true
		}
		out = append(out, p)
	}
	return out
}

// TestSearchReportChartsEveryGate checks that each gate has a chart with a
// point per step at the step's rate and value, coloured by whether the gate
// held or the runner was limited, and a health chart for CPU and lag.
func TestSearchReportChartsEveryGate(t *testing.T) {
	a := sampleSearch()
	ids, svg := charts(t, renderSearch(t, a, "capacity.js"))
	if want := []string{"gate-1", "gate-2", "health-cpu", "health-lag"}; strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Fatalf("charts %v, want %v", ids, want)
	}
	for gi, id := range ids[:2] {
		pts := points(t, svg[id])
		if len(pts) != len(a.Steps) {
			t.Fatalf("%s has %d points, want one per step (%d)", id, len(pts), len(a.Steps))
		}
		for i, p := range pts {
			s := a.Steps[i]
			g := s.Gates[gi]
			want := map[bool]string{true: "pt-pass", false: "pt-fail"}[g.Pass]
			if s.Result == search.Limited {
				want = "pt-limited"
			}
			if p.step != i+1 || p.rate != s.Rate || !p.hasValue || p.value != *g.Value || p.class != want {
				t.Errorf("%s point %d = %+v, want step %d at %v, value %v, class %s", id, i, p, i+1, s.Rate, *g.Value, want)
			}
		}
		checkMonotone(t, id, pts)
	}
	if !strings.Contains(svg["gate-1"], `<text class="ref-label end" x="544.0"`) || !strings.Contains(svg["gate-1"], ">limit 2500</text>") {
		t.Errorf("gate-1 lacks its limit's label")
	}
	cpu := points(t, svg["health-cpu"])
	if len(cpu) != len(a.Steps) || cpu[4].class != "pt-limited" || cpu[2].class != "pt-fail" || cpu[0].class != "pt-pass" {
		t.Errorf("the CPU chart's points = %+v, want one per step, the 5th runner-limited", cpu)
	}
	if !strings.Contains(svg["health-cpu"], `<line class="limit" data-value="0.9"`) {
		t.Errorf("the CPU chart lacks the saturation line at 90%%")
	}
}

// checkMonotone checks that the axes grow right and up: a higher rate lies
// further right, a higher value higher (smaller y).
func checkMonotone(t *testing.T, id string, pts []svgPoint) {
	t.Helper()
	for _, p := range pts {
		for _, q := range pts {
			if p.rate < q.rate && p.cx >= q.cx {
				t.Errorf("%s: rate %v at x %v is not left of rate %v at x %v", id, p.rate, p.cx, q.rate, q.cx)
			}
			if p.value < q.value && p.cy <= q.cy {
				t.Errorf("%s: value %v at y %v is not below value %v at y %v", id, p.value, p.cy, q.value, q.cy)
			}
		}
	}
}

// TestSearchReportLines checks that the limit line lies at the limit on
// the points' own value scale, and that the capacity and failing-rate
// lines lie at the x of the steps run at those rates.
func TestSearchReportLines(t *testing.T) {
	a := sampleSearch()
	_, svg := charts(t, renderSearch(t, a, "capacity.js"))
	for gi, id := range []string{"gate-1", "gate-2"} {
		limit := a.Steps[0].Gates[gi].Limit
		pts := points(t, svg[id])
		m := limitRE.FindStringSubmatch(svg[id])
		if m == nil || m[2] != m[3] || num(t, m[1]) != limit {
			t.Fatalf("%s: limit line %v, want a horizontal line at %v", id, m, limit)
		}
		// The points' values and y fit a line; the limit lies on it.
		lo, hi := pts[0], pts[2]
		want := lo.cy + (limit-lo.value)*(hi.cy-lo.cy)/(hi.value-lo.value)
		if got := num(t, m[2]); math.Abs(got-want) > 0.15 {
			t.Errorf("%s: the limit %v is drawn at y %v, want %.2f", id, limit, got, want)
		}
		checkRateLines(t, id, svg[id], pts, map[string]float64{"capacity": *a.Capacity, "failrate": *a.FailRate})
	}
}

// checkRateLines checks that a chart has one vertical line of each class
// at its rate, drawn at the x of the points of that rate.
func checkRateLines(t *testing.T, id, chart string, pts []svgPoint, want map[string]float64) {
	t.Helper()
	lines := vlineRE.FindAllStringSubmatch(chart, -1)
	if len(lines) != len(want) {
		t.Fatalf("%s: vertical lines %v, want %v", id, lines, want)
	}
	for _, l := range lines {
		rate := want[l[1]]
		if num(t, l[2]) != rate || l[3] != l[4] {
			t.Errorf("%s: %s line %v, want a vertical line at %v req/s", id, l[1], l, rate)
		}
		for _, p := range pts {
			if p.rate == rate && strconv.FormatFloat(p.cx, 'f', 1, 64) != l[3] {
				t.Errorf("%s: the %s line at x %s, but the step at %v req/s at x %v", id, l[1], l[3], rate, p.cx)
			}
		}
	}
}

// TestSearchReportHeaderAndTable checks the answer line, the cards and the
// table of every step.
func TestSearchReportHeaderAndTable(t *testing.T) {
	a := sampleSearch()
	page := strings.ReplaceAll(renderSearch(t, a, "examples/capacity.js"), "&#43;", "+")
	line := html.EscapeString(a.Line())
	for _, want := range []string{
		`<code id="script">examples/capacity.js</code>`,
		`<p class="answer" id="answer">` + line + `</p>`,
		`staircase search from 10 to 100 req/s, resolution 2.5 req/s · took 2m20s`,
		`<div class="card "><div class="value">30 req/s</div><div class="label">capacity</div></div>`,
		`<div class="value">found</div><div class="label">bound: the next rate up did not pass</div>`,
		`<div class="card fail wide"><div class="value">usefulsse_useful{bucket:qa} p(95)&lt;2500</div><div class="label">first gate to fail at 32.5 req/s</div></div>`,
		`<div class="value">7</div><div class="label">steps</div>`,
		`<div class="card pass"><div class="value">met</div><div class="label">expected at least 25 req/s</div></div>`,
		`<th class="num">usefulsse_useful{bucket:qa} <code>p(95)&lt;2500</code></th><th class="num">usefulsse_failed <code>rate&lt;0.01</code></th>`,
		`<tr class="fail"><td class="num">3</td><td>raise</td><td class="num">40</td><td class="num">39.6</td><td class="mark">fail</td><td class="num gate-fail">3100 ✗</td><td class="num gate-fail">0.02 ✗</td><td class="num">0</td><td class="num">4.0ms</td><td class="num">80% (max 83%)</td><td class="limits"></td></tr>`,
		`<tr class="limited"><td class="num">5</td><td>bisect</td><td class="num">35</td><td class="num">34.65</td><td class="mark">runner-limited</td><td class="num gate-fail">2600 ✗</td><td class="num">0.003</td><td class="num">0</td><td class="num">3.5ms</td><td class="num">95% (max 98%)</td><td class="limits">runner CPU at 95% of its cores</td></tr>`,
		`<span><i class="sw sw-capacity"></i>capacity 30 req/s</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(page, "<tr class="); n != len(a.Steps) {
		t.Errorf("%d table rows, want one per step (%d)", n, len(a.Steps))
	}
	a.SetExpect(31)
	if page := renderSearch(t, a, "s.js"); !strings.Contains(page, `<div class="card fail"><div class="value">not met</div><div class="label">expected at least 31 req/s</div></div>`) {
		t.Error("an expectation above the capacity is not shown as not met")
	}
}

// Hostile text a script or a server may put in metric names, threshold
// sources, limits and the script's path.
func hostileSearch() *search.Answer {
	a := sampleSearch()
	for i := range a.Steps {
		g := &a.Steps[i].Gates[0]
		g.Metric = "usefulsse_useful{bucket:" + scriptBreak + "}"
		g.Source = "p(95)<2500" + imgInject
		a.Steps[i].Health.Limits = append(a.Steps[i].Health.Limits, scriptBreak)
	}
	a.FirstGate = a.Steps[0].Gates[0].Name()
	a.Limits = []string{imgInject}
	return a
}

func TestSearchReportEscapesAnswerText(t *testing.T) {
	page := renderSearch(t, hostileSearch(), "x"+scriptBreak+imgInject+".js")
	for _, raw := range []string{"<img", "<script>alert", "onerror=alert(1)>", "</script><script>"} {
		if strings.Contains(strings.ToLower(page), strings.ToLower(raw)) {
			t.Errorf("the page contains %q unescaped", raw)
		}
	}
	if n := strings.Count(page, "<script"); n != 1 {
		t.Errorf("%d <script elements, want 1 (the error recorder)", n)
	}
	for _, want := range []string{html.EscapeString(scriptBreak), html.EscapeString(imgInject)} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q as escaped text", want)
		}
	}
	ids, svg := charts(t, page)
	if len(ids) != 4 || len(points(t, svg["gate-1"])) != 7 {
		t.Errorf("with hostile names, charts %v and %d points in gate-1", ids, len(points(t, svg["gate-1"])))
	}
}

// TestSearchReportContentSecurityPolicy checks that the page forbids the
// network and allows exactly its inline style and script. checkCSP wants
// the run report's 4 inline elements; this page has 2 (no chart script).
func TestSearchReportContentSecurityPolicy(t *testing.T) {
	page := renderSearch(t, sampleSearch(), "capacity.js")
	checkInlineCSP(t, page, 2)
	for _, url := range []string{"http:", "https:", "//"} {
		for _, attr := range []string{`src="`, `href="`} {
			if strings.Contains(page, attr+url) {
				t.Errorf("the page loads something from %s", url)
			}
		}
	}
}

// TestSearchReportWithoutAnswer checks that answers without steps, without
// a capacity or without any bound render and say so.
func TestSearchReportWithoutAnswer(t *testing.T) {
	belowMin := sampleSearch()
	belowMin.Steps = belowMin.Steps[2:3] // 40 req/s failed
	belowMin.Capacity, belowMin.FailRate, belowMin.Bound, belowMin.Min = nil, fp(40), search.BelowMin, 40
	belowMin.SetExpect(25)
	tests := []struct {
		name   string
		a      *search.Answer
		charts int
		want   []string
	}{
		{"no step", &search.Answer{Bound: search.BelowMin, Min: 10, Max: 100}, 0,
			[]string{"capacity: below 10 req/s (--min did not pass)", "No step ran: nothing to chart.", "No step ran.",
				`<div class="value">none</div><div class="label">capacity: no rate passed</div>`}},
		{"no bound", &search.Answer{}, 0,
			[]string{"capacity: unknown (the search ran no step)", "No step ran: nothing to chart.", `<p class="sub">search</p>`}},
		{"found without a fail rate", &search.Answer{Bound: search.Found, Capacity: fp(10), Steps: belowMin.Steps}, 4,
			[]string{"capacity: unknown (the search ended without an answer)"}},
		{"below min", belowMin, 4,
			[]string{"capacity: below 40 req/s (--min did not pass); first gate to fail: ", "(none here: no rate passed)",
				`<div class="card fail"><div class="value">not met</div>`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := renderSearch(t, tt.a, "s.js")
			for _, want := range append(tt.want, "</html>") {
				if !strings.Contains(page, want) {
					t.Errorf("the page lacks %q", want)
				}
			}
			ids, svg := charts(t, page)
			if len(ids) != tt.charts {
				t.Errorf("charts %v, want %d", ids, tt.charts)
			}
			if tt.name == "below min" && (strings.Contains(svg["gate-1"], `class="capacity"`) || !strings.Contains(svg["gate-1"], `<line class="failrate" data-rate="40"`)) {
				t.Errorf("below --min, the chart should have the failing-rate line and no capacity line")
			}
		})
	}
	if err := WriteSearchReport(&bytes.Buffer{}, nil, "s.js"); err == nil {
		t.Error("a nil answer was written")
	}
}

// TestSearchNiceLinear checks the value axes: whole tick steps spanning
// every value, a single value widened, no value spanning [0, 1].
func TestSearchNiceLinear(t *testing.T) {
	for _, tt := range []struct {
		name   string
		in     []float64
		lo, hi float64
		ticks  int
	}{
		{"rates", []float64{10, 20, 40, 32.5}, 10, 40, 4},
		{"latencies and a limit", []float64{900, 3100, 2500}, 0, 4000, 5},
		{"a rate", []float64{0, 0.02, 0.01}, 0, 0.02, 5},
		{"one value", []float64{30}, 26, 34, 5},
		{"zero", []float64{0}, -1, 1, 5},
		{"none", nil, 0, 1, 3},
		{"NaN left out", []float64{math.NaN(), 5, 15}, 5, 15, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, ticks, _ := niceLinear(tt.in, 0, 100)
			if math.Abs(l.lo-tt.lo) > 1e-9 || math.Abs(l.hi-tt.hi) > 1e-9 || len(ticks) != tt.ticks {
				t.Errorf("niceLinear(%v) = [%v, %v] with %d ticks %v, want [%v, %v] with %d", tt.in, l.lo, l.hi, len(ticks), ticks, tt.lo, tt.hi, tt.ticks)
			}
			if l.at(l.lo) != 0 || l.at(l.hi) != 100 {
				t.Errorf("the domain maps onto [%v, %v], want [0, 100]", l.at(l.lo), l.at(l.hi))
			}
		})
	}
}
