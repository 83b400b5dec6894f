package output

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/summary"
)

// hostile are tag values a script or a server may produce.
const (
	scriptBreak = `</script><script>alert(1)</script>`
	imgInject   = `<img src=x onerror=alert(1)>`
)

// reportOf runs samples through an `-o html` output and returns the page.
func reportOf(t *testing.T, reg *metrics.Registry, batches ...[]metrics.Sample) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	o, err := New("html="+path, Params{Registry: reg, Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		o.AddSamples(b)
	}
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hostileRun is a run whose bucket names, check names and a threshold's
// selector come from a hostile server, with one passing and one failing
// threshold.
func hostileRun(t *testing.T) (*metrics.Registry, []metrics.Sample) {
	t.Helper()
	r := newStreamRun(t)
	if err := metrics.ApplyThresholds(r.reg, map[string][]metrics.ThresholdConfig{
		"usefulsse_useful{bucket:" + imgInject + "}": {{Source: "p(95)<2500"}},
		"usefulsse_failed":                           {{Source: "rate<0.01"}},
	}); err != nil {
		t.Fatal(err)
	}
	r.origin = time.Now()
	var samples []metrics.Sample
	for i, bucket := range []string{imgInject, scriptBreak} {
		tags := metrics.Tags{"scenario": "s", "bucket": bucket}
		samples = append(samples, r.request(tags, 10*time.Millisecond, i == 1, 1, 2, 3, 400, 450)...)
		samples = append(samples, r.at("checks", 0, 1, metrics.Tags{"check": bucket, "group": "::" + scriptBreak}))
	}
	// The runner evaluates the thresholds before it stops the outputs.
	sub := r.m["usefulsse_useful"].Submetrics[0].Metric
	sub.Sink.Add(400)
	sub.Thresholds[0].Eval(sub, time.Second)
	failed := r.m["usefulsse_failed"]
	failed.Sink.Add(0)
	failed.Sink.Add(1)
	failed.Thresholds[0].Eval(failed, time.Second)
	return r.reg, samples
}

func TestHTMLEscapesRunText(t *testing.T) {
	reg, samples := hostileRun(t)
	page := reportOf(t, reg, samples)
	for _, raw := range []string{"<img", "<script>alert", "onerror=alert(1)>"} {
		if strings.Contains(strings.ToLower(page), strings.ToLower(raw)) {
			t.Errorf("the page contains %q unescaped", raw)
		}
	}
	if n := strings.Count(page, "<script"); n != 4 {
		t.Errorf("%d <script elements, want 4 (errors, data, uPlot, app)", n)
	}
	if !strings.Contains(page, html.EscapeString(imgInject)) || !strings.Contains(page, html.EscapeString(scriptBreak)) {
		t.Errorf("the hostile names are not shown as escaped text")
	}
	// The chart data round-trips: the names reach the charts as strings.
	var data chartData
	if err := json.Unmarshal([]byte(dataBlock(t, page)), &data); err != nil {
		t.Fatalf("the data block is not JSON: %v", err)
	}
	if len(data.Buckets) != 2 || data.Buckets[0] != scriptBreak || data.Buckets[1] != imgInject {
		t.Errorf("data buckets = %q, want the hostile names verbatim", data.Buckets)
	}
}

var dataRE = regexp.MustCompile(`(?s)<script type="application/json" id="report-data">(.*?)</script>`)

func dataBlock(t *testing.T, page string) string {
	t.Helper()
	m := dataRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no report-data block")
	}
	return m[1]
}

var (
	cspRE    = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
	inlineRE = regexp.MustCompile(`(?s)<(script|style)>(.*?)</(?:script|style)>`)
)

// TestHTMLContentSecurityPolicy checks that the page's policy forbids the
// network and allows exactly its inline style and scripts: a change to
// them that forgets the hashes would leave the page blank.
func TestHTMLContentSecurityPolicy(t *testing.T) {
	page := reportOf(t, newStreamRun(t).reg)
	checkCSP(t, page)
	for _, url := range []string{"http://", "https://", "//cdn"} {
		if strings.Contains(strings.ReplaceAll(page, "https://github.com/leeoniya/uPlot", ""), `src="`+url) {
			t.Errorf("the page loads something from %s", url)
		}
	}
}

func TestHTMLThresholdsAndWaterfall(t *testing.T) {
	r := newStreamRun(t)
	if err := metrics.ApplyThresholds(r.reg, map[string][]metrics.ThresholdConfig{
		"usefulsse_useful": {{Source: "p(95)<300"}, {Source: "max<1000"}},
	}); err != nil {
		t.Fatal(err)
	}
	r.origin = time.Now()
	var samples []metrics.Sample
	qa := metrics.Tags{"bucket": "qa"}
	for i := range 20 {
		samples = append(samples, r.request(qa, time.Duration(i)*50*time.Millisecond, false,
			2, 5+float64(i), 100+float64(i), 200+float64(i*10), 300+float64(i*10))...)
	}
	useful := r.m["usefulsse_useful"]
	for _, s := range samples {
		if s.Metric == useful {
			useful.Sink.Add(s.Value)
		}
	}
	for _, th := range useful.Thresholds {
		th.Eval(useful, time.Second)
	}
	page := reportOf(t, r.reg, samples[:30], samples[30:])
	for _, want := range []string{
		`<td class="mark">✗ fail</td><td class="name">usefulsse_useful</td><td><code>p(95)&lt;300</code></td><td class="num">p(95)=380.5ms</td>`,
		`<td class="mark">✓ pass</td><td class="name">usefulsse_useful</td><td><code>max&lt;1000</code></td><td class="num">max=390ms</td>`,
		`<h3 class="bucket-name">qa</h3>`,
		"20 requests · useful reached <b>100.00%</b> · failed <b>0.00%</b>",
		`<div class="value">1 / 2</div><div class="label">thresholds passed</div>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// The bucket table holds the exact percentiles, as the summary.
	ts := &metrics.TrendSink{}
	for i := range 20 {
		ts.Add(200 + float64(i*10))
	}
	if want := `<td class="num">` + summary.FormatTime(ts.P(0.95), "") + `</td>`; !strings.Contains(page, want) {
		t.Errorf("the page lacks the useful p95 cell %q", want)
	}
}

func TestHTMLWithoutSamplesStillWritesAPage(t *testing.T) {
	page := reportOf(t, metrics.NewRegistry())
	for _, want := range []string{"The script declares no thresholds.", "No streaming request was measured", "The script ran no checks.", "</html>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the empty report lacks %q", want)
		}
	}
	var data chartData
	if err := json.Unmarshal([]byte(dataBlock(t, page)), &data); err != nil {
		t.Errorf("the empty report's data is not JSON: %v", err)
	}
}

func TestHTMLDescriptionAndBadPath(t *testing.T) {
	o, err := New("html", Params{Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Description(); got != "html (report.html)" {
		t.Errorf("description = %q", got)
	}
	_ = o.Stop()
	_ = os.Remove(defaultReportName)
	var buf bytes.Buffer
	o, err = New("html=-", Params{Stdout: &buf})
	if err != nil {
		t.Fatal(err)
	}
	_ = o.Start()
	if err := o.Stop(); err != nil || !strings.HasSuffix(buf.String(), "</html>\n") {
		t.Errorf("html=- wrote %d bytes to stdout (err %v), want the page", buf.Len(), err)
	}
	if _, err := New("html="+filepath.Join(t.TempDir(), "missing", "r.html"), Params{}); err == nil {
		t.Error("a report in a missing directory was accepted")
	}
}

func TestWaterfallBar(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	identity := func(v float64) float64 { return v }
	tests := []struct {
		name     string
		values   []*float64
		want     []string // class:start-end
		wantNote string
	}{
		{"every stage", []*float64{f(10), f(20), f(100), f(400), f(450)},
			[]string{"seg-queue:0-10", "seg-wait:10-20", "seg-first:20-100", "seg-useful:100-400", "seg-done:400-450"},
			"useful 400ms · complete 450ms"},
		{"no queue, no useful", []*float64{nil, f(20), f(100), nil, f(450)},
			[]string{"seg-wait:0-20", "seg-first:20-100", "seg-done:100-450"}, "complete 450ms"},
		{"a percentile below the previous one draws nothing", []*float64{nil, f(50), f(40), f(60), nil},
			[]string{"seg-wait:0-50", "seg-useful:50-60"}, "useful 60ms"},
		{"never reached", []*float64{nil, nil, nil, nil, nil}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			segs, note := bar("b", "p50", tt.values, identity)
			var got []string
			for _, s := range segs {
				got = append(got, s.Class+":"+summary.FormatNumber(s.X)+"-"+summary.FormatNumber(s.X+s.W))
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") || note != tt.wantNote {
				t.Errorf("bar = %v, %q; want %v, %q", got, note, tt.want, tt.wantNote)
			}
		})
	}
}

func TestNiceStep(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{0, 1}, {-3, 1}, {0.7, 1}, {1, 1}, {1.2, 2}, {3, 5}, {7, 10}, {140, 200}, {1000, 1000}, {2600, 5000},
	} {
		if got := niceStep(tt.in); got != tt.want {
			t.Errorf("niceStep(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// checkCSP checks that page's Content-Security-Policy forbids everything
// by default and allows exactly its 4 inline style and script elements,
// each by its SHA-256 hash.
func checkCSP(t *testing.T, page string) { checkInlineCSP(t, page, 4) }

// checkInlineCSP is checkCSP for a page of want inline style and script
// elements: its policy forbids everything by default and allows each of
// them by its SHA-256 hash, and nothing else.
func checkInlineCSP(t *testing.T, page string, want int) {
	t.Helper()
	m := cspRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no Content-Security-Policy meta element")
	}
	csp := html.UnescapeString(m[1])
	if !strings.HasPrefix(csp, "default-src 'none';") {
		t.Errorf("CSP %q does not start by forbidding everything", csp)
	}
	inline := inlineRE.FindAllStringSubmatch(page, -1)
	if len(inline) != want {
		t.Fatalf("%d inline style/script elements, want %d", len(inline), want)
	}
	allowed := 0
	for _, el := range inline {
		sum := sha256.Sum256([]byte(el[2]))
		src := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		directive := map[string]string{"style": "style-src ", "script": "script-src "}[el[1]]
		part := csp[strings.Index(csp, directive):]
		part = part[:strings.Index(part, ";")]
		if !strings.Contains(part, src) {
			t.Errorf("the %s starting %q is not allowed by %q", el[1], el[2][:min(40, len(el[2]))], part)
		}
		allowed++
	}
	if n := strings.Count(csp, "'sha256-"); n != allowed || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP %q allows %d hashes or unsafe sources, want exactly the %d inline elements", csp, n, allowed)
	}
}
