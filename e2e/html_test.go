package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/summary"
)

// TestHTMLReport runs a short streaming test with -o html and opens the
// report in headless Chromium: the page renders with no error, shows the
// thresholds' state and the bucket percentiles of the summary export, and a
// screenshot of it is kept as an artifact.
func TestHTMLReport(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	srv := sseServer(t)
	dir := t.TempDir()
	report, exportPath := filepath.Join(dir, "report.html"), filepath.Join(dir, "export.json")
	r := invocation{args: []string{"run", "-q", "--summary-export", exportPath, "-o", "html=" + report, script("html/stream.js")},
		env: []string{"SSE_URL=" + srv.URL}}.run(t)
	r.wantCode(t, 99) // the openai first_text threshold is meant to fail
	exp := export(t, exportPath)

	dom := renderedDOM(t, browser, report)
	for _, want := range []string{
		`<h3 class="bucket-name">qa</h3>`,
		`<h3 class="bucket-name">openai</h3>`,
		`<td class="mark">✓ pass</td><td class="name">usefulsse_useful{bucket:qa}</td>`,
		`<td class="mark">✗ fail</td><td class="name">usefulsse_first_text{bucket:openai}</td>`,
		`<td class="name">useful reached</td>`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
	// The bucket tables show the summary export's numbers, formatted as
	// the text summary formats them.
	for _, k := range [][]string{{"qa", "useful", "p95"}, {"qa", "first_text", "p50"}, {"openai", "complete", "p99"}} {
		cell := `<td class="num">` + summary.FormatTime(number(t, exp, append([]string{"usefulsse_buckets"}, k...)...), "") + `</td>`
		if !strings.Contains(dom, cell) {
			t.Errorf("usefulsse_buckets.%s: the page lacks %q", strings.Join(k, "."), cell)
		}
	}
	if n := strings.Count(dom, "<canvas"); n != 3 {
		t.Errorf("%d chart canvases, want 3 (useful, first text, load)", n)
	}

	shot := screenshot(t, browser, report)
	// The waterfall's "useful → complete" green is used nowhere else: its
	// pixels show the SVG was drawn with the page's style.
	if n := countColor(shot, 0x59, 0xa1, 0x4f); n < 500 {
		t.Errorf("the screenshot has %d pixels of the waterfall's green, want the waterfall drawn", n)
	}
}

// TestHTMLReportEscapesServerText streams HTML and script from the server
// into bucket names, check names and tags: the report shows them as text
// and the page holds no element they could have injected.
func TestHTMLReportEscapesServerText(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	const img, breakout = `<img src=x onerror=alert(1)>`, `</script><script>alert(1)</script>`
	event, err := json.Marshal(map[string]any{"delta": img, "business_state": map[string]string{
		"decision": breakout, "reason": "r", "next_step": "n"}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/inject", streamHandler([]step{
		{0, "data: " + string(event) + "\n\n"},
		{5 * time.Millisecond, "event: done\ndata: {}\n\n"},
	}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	report := filepath.Join(t.TempDir(), "report.html")
	r := invocation{args: []string{"run", "-q", "-o", "html=" + report, script("html/inject.js")},
		env: []string{"SSE_URL=" + srv.URL}}.run(t)
	r.wantCode(t, 0)

	dom := renderedDOM(t, browser, report)
	if strings.Contains(strings.ToLower(dom), "<img") {
		t.Errorf("the rendered page has an <img> element: the server's text was injected")
	}
	if n := strings.Count(strings.ToLower(dom), "<script"); n != 4 {
		t.Errorf("the rendered page has %d <script> elements, want the report's own 4", n)
	}
	for _, want := range []string{
		`<h3 class="bucket-name">&lt;img src=x onerror=alert(1)&gt;</h3>`,
		`<td class="name">&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td>`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks the server's text as text: %q", want)
		}
	}
	// uPlot's legend shows the bucket name too, as text.
	if !regexp.MustCompile(`class="u-label">&lt;img src=x onerror=alert\(1\)&gt;<`).MatchString(dom) {
		t.Errorf("the chart legend does not show the hostile bucket name as text")
	}
}

// TestHTMLReportWrittenOnInterrupt stops a run with SIGINT: the report is
// still written, whole.
func TestHTMLReportWrittenOnInterrupt(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.html")
	inv := invocation{args: []string{"run", "-q", "-o", "html=" + report, script("signal.js")}}
	inv.interrupted(t).wantCode(t, 105)
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if !strings.HasSuffix(page, "</html>\n") {
		t.Errorf("the report is cut short: it ends %q", page[max(0, len(page)-80):])
	}
	m := regexp.MustCompile(`<div class="value">(\d+)</div><div class="label">iterations</div>`).FindStringSubmatch(page)
	if m == nil || m[1] == "0" {
		t.Errorf("the report counts no iteration (%v)", m)
	}
}

// chromium returns the path of Debian's chromium (or $CHROMIUM). The test
// fails, rather than skips, without one.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no headless Chromium: make deps installs Debian's chromium, or set CHROMIUM")
	return ""
}

// headless runs Chromium on a file with a fresh profile and no network
// service, giving the page 5 s of virtual time to settle. Every console
// message of the page (an uncaught exception, a CSP violation,
// console.error) fails the test: the report logs nothing.
func headless(t *testing.T, browser, file string, args ...string) []byte {
	t.Helper()
	profile, err := os.MkdirTemp("", "usefullatency-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(profile)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", "--hide-scrollbars",
		"--virtual-time-budget=5000"}, args...)
	cmd := exec.CommandContext(ctx, browser, append(all, "file://"+file)...)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	t.Logf("chromium %s: %s", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	for line := range strings.SplitSeq(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			t.Errorf("the page logged to the console: %s", line)
		}
	}
	return stdout.Bytes()
}

// renderedDOM returns the page's DOM after its scripts ran, failing the
// test if the scripts did not finish or the page recorded an error.
func renderedDOM(t *testing.T, browser, file string) string {
	t.Helper()
	dom := string(headless(t, browser, file, "--dump-dom"))
	if !strings.Contains(dom, `data-rendered="true"`) {
		t.Errorf("the page's script did not finish rendering")
	}
	if m := regexp.MustCompile(`(?s)<pre id="errors"( hidden="")?>(.*?)</pre>`).FindStringSubmatch(dom); m == nil || m[2] != "" {
		t.Errorf("the page recorded errors: %v", m)
	}
	return dom
}

// screenshot renders the page at 1280×2200 into a PNG kept at a stable path
// under the temporary directory, logged as the test's artifact, and returns
// it decoded.
func screenshot(t *testing.T, browser, file string) image.Image {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "usefullatency-e2e")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "html-report.png")
	_ = os.Remove(path)
	headless(t, browser, file, "--window-size=1280,2200", "--screenshot="+path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 2200 {
		t.Errorf("screenshot is %v, want 1280×2200", b)
	}
	t.Logf("screenshot of the report: %s", path)
	return img
}

// countColor counts the pixels of exactly this colour.
func countColor(img image.Image, r, g, b uint8) int {
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if uint8(pr>>8) == r && uint8(pg>>8) == g && uint8(pb>>8) == b {
				n++
			}
		}
	}
	return n
}
