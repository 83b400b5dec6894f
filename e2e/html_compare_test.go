package e2e

import (
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/summary"
)

// compareJSON is what the test reads of `compare --json`.
type compareJSON struct {
	Rows []struct {
		Metric, Bucket, Type, Stat, Unit, Verdict string
		Base, New, Rel                            *float64
	} `json:"rows"`
}

// TestHTMLCompareReport runs a streaming test twice, the second time with
// the tool bucket slowed from about 40 ms to about 500 ms, compares the two
// result files with --json and --report, and opens the page in headless
// Chromium: it renders with no error, the forest plot has a line per row,
// every ECDF chart is drawn with both curves, the JSON's numbers are on the
// page, and the exit code the page names is the command's.
func TestHTMLCompareReport(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	srv := compareServer(t)
	dir := t.TempDir()
	baseRes, newRes := filepath.Join(dir, "base.res"), filepath.Join(dir, "new.res")
	for _, side := range []struct {
		file, path string
		code       int
	}{{baseRes, "/fast", 0}, {newRes, "/slow", 99}} { // the slow run fails tool's gate
		invocation{args: []string{"run", "-q", "--no-summary", "-o", "result=" + side.file, script("html/compare.js")},
			env: []string{"SSE_URL=" + srv.URL, "TOOL_PATH=" + side.path}}.run(t).wantCode(t, side.code)
	}
	page, jsonPath := filepath.Join(dir, "compare.html"), filepath.Join(dir, "compare.json")
	c := run(t, "compare", "--json", jsonPath, "--report", page, baseRes, "--", newRes)
	c.wantCode(t, 111)
	var rep compareJSON
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("compare --json: %v", err)
	}

	dom := renderedDOM(t, browser, page)
	for _, want := range []string{
		"exit code 111: ",
		`<h3 class="bucket-name">tool</h3>`,
		`<h3 class="bucket-name">qa</h3>`,
		"· gate <code>p(95)&lt;300</code>",
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
	// Every row of the JSON is on the page, its numbers formatted as the
	// text output formats them, with its line in the forest plot.
	slowed, trends := false, map[string]bool{}
	for _, row := range rep.Rows {
		if row.Unit != "ms" || row.Base == nil || row.New == nil || row.Rel == nil {
			continue
		}
		trends[row.Metric] = true
		cells := `<td>` + row.Stat + `</td><td class="num">` + summary.FormatTime(*row.Base, "") + `</td><td class="num">` +
			summary.FormatTime(*row.New, "") + `</td>`
		if !strings.Contains(dom, cells) {
			t.Errorf("%s %s: the page lacks %q", row.Metric, row.Stat, cells)
		}
		if rel := fmt.Sprintf(`<td class="num">%+.1f%%</td>`, *row.Rel*100); !strings.Contains(dom, rel) {
			t.Errorf("%s %s: the page lacks %q", row.Metric, row.Stat, rel)
		}
		slowed = slowed || (row.Metric == "usefulsse_useful{bucket:tool}" && row.Verdict == "regressed")
	}
	if !slowed {
		t.Errorf("no regressed row of usefulsse_useful{bucket:tool} in the JSON: %+v", rep.Rows)
	}
	if n := strings.Count(dom, `<g class="fp-row `); n != len(rep.Rows) {
		t.Errorf("the forest plot has %d lines, want one per row (%d)", n, len(rep.Rows))
	}
	if n := strings.Count(dom, "<canvas"); n != len(trends) || n == 0 {
		t.Errorf("%d ECDF canvases, want one per compared time (%d)", n, len(trends))
	}

	shot := screenshotAs(t, browser, page, "html-compare.png", 1280, 5000)
	// Both curves' colours are used nowhere else on the page but in the
	// legends' small swatches; the forest plot's band colour only there.
	for _, c := range []struct {
		what    string
		r, g, b uint8
		least   int
	}{
		{"the base curves' blue", 0x4e, 0x79, 0xa7, 300 * len(trends)},
		{"the new curves' orange", 0xf2, 0x8e, 0x2b, 300 * len(trends)},
		{"the forest plot's band", 0xe6, 0xeb, 0xf3, 1000},
	} {
		if n := countColor(shot, c.r, c.g, c.b); n < c.least {
			t.Errorf("the screenshot has %d pixels of %s, want at least %d", n, c.what, c.least)
		}
	}
}

// compareServer streams the business dialect's useful answer after about
// 40 ms on /fast and 500 ms on /slow.
func compareServer(t *testing.T) *httptest.Server {
	t.Helper()
	answer := func(think time.Duration) http.HandlerFunc {
		return streamHandler([]step{
			{0, `data: {"delta": "", "business_state": {"queue_ms": 3}}` + "\n\n"},
			{10 * time.Millisecond, `data: {"delta": "Checking your order "}` + "\n\n"},
			{think, `data: {"delta": "- refundable.", "business_state": {"decision": "refund", "reason": "within 30 days"}}` + "\n\n"},
			{5 * time.Millisecond, `data: {"business_state": {"next_step": "click refund"}}` + "\n\n"},
			{5 * time.Millisecond, "event: done\ndata: {}\n\n"},
		})
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/fast", answer(20*time.Millisecond))
	mux.HandleFunc("/slow", answer(480*time.Millisecond))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// screenshotAs renders the page at width×height into a PNG kept at a
// stable path under the temporary directory (usefullatency-e2e/name),
// logged as the test's artifact, and returns it decoded.
func screenshotAs(t *testing.T, browser, file, name string, width, height int) image.Image {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "usefullatency-e2e")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	_ = os.Remove(path)
	headless(t, browser, file, fmt.Sprintf("--window-size=%d,%d", width, height), "--screenshot="+path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Errorf("screenshot is %v, want %d×%d", b, width, height)
	}
	t.Logf("screenshot of the comparison: %s", path)
	return img
}
