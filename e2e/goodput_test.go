package e2e

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestGoodputPerBucket runs usefulsse/goodput.js against the built-in
// assistant: 9 qa requests with objectives, 6 of them good, and 3 plain
// requests without. In one process, usefulsse_good{bucket:qa} fails a
// rate>=0.95 gate (exit 99) and is in the summary, the export and the HTML
// report, with no goodput for the plain bucket; two segmented runners
// merged give the same goodput, and pass the script's rate>=0.5 gate on
// the whole test.
func TestGoodputPerBucket(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	single, report := filepath.Join(dir, "single.json"), filepath.Join(dir, "report.html")
	halves := []string{"0:1/2", "1/2:1"}
	files := make([]string, len(halves))
	var one result
	// The parallel subtests run together; t.Run returns when all ended.
	t.Run("runs", func(t *testing.T) {
		t.Run("single", func(t *testing.T) {
			t.Parallel()
			one = invocation{env: []string{"GATE=rate>=0.95"}, args: []string{"run", "-q", "--mock",
				"--summary-export", single, "-o", "html=" + report, script("usefulsse/goodput.js")}}.run(t)
			one.wantCode(t, 99)
		})
		for i, seg := range halves {
			files[i] = filepath.Join(dir, fmt.Sprintf("share%d.res", i))
			t.Run(seg, func(t *testing.T) {
				t.Parallel()
				invocation{args: []string{"run", "-q", "--no-summary", "--mock",
					"--execution-segment", seg, "--execution-segment-sequence", "0,1/2,1",
					"-o", "result=" + files[i], script("usefulsse/goodput.js")}}.run(t).wantCode(t, 0)
			})
		}
	})
	if t.Failed() {
		return
	}
	want := export(t, single)
	checkGoodput(t, "single run", one.stdout, want)
	if v, ok := lookup(want, "metrics", "usefulsse_good{bucket:qa}", "thresholds", "rate>=0.95"); v != true || !ok {
		t.Errorf("single run: the rate>=0.95 gate on usefulsse_good{bucket:qa} = %v, want failed", v)
	}
	if !strings.Contains(one.stdout, "✗ 'rate>=0.95' rate=66.66%") {
		t.Errorf("single run: the summary lacks the failed goodput gate:\n%s", one.stdout)
	}
	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "· good <b>66.66% (") {
		t.Errorf("the HTML report's qa card lacks its goodput")
	}

	merged := filepath.Join(dir, "merged.json")
	m := run(t, "merge", "--summary-export", merged, files[0], files[1])
	m.wantCode(t, 0)
	got := export(t, merged)
	checkGoodput(t, "merged", m.stdout, got)
	if v, ok := lookup(got, "metrics", "usefulsse_good{bucket:qa}", "thresholds", "rate>=0.5"); v != false || !ok {
		t.Errorf("merged: the rate>=0.5 gate on usefulsse_good{bucket:qa} = %v, want passed", v)
	}
	for _, name := range []string{"usefulsse_good", "usefulsse_good{bucket:qa}"} {
		w, g := object(t, want, "metrics", name), object(t, got, "metrics", name)
		delete(w, "thresholds") // the single run was given another gate
		delete(g, "thresholds")
		if !reflect.DeepEqual(w, g) {
			t.Errorf("%s: merged %v, single run %v", name, g, w)
		}
	}
	for _, key := range []string{"requests", "good"} {
		if w, g := number(t, want, "usefulsse_buckets", "qa", key), number(t, got, "usefulsse_buckets", "qa", key); w != g {
			t.Errorf("usefulsse_buckets.qa.%s: merged %v, single run %v", key, g, w)
		}
	}
}

// goodLine reads the goodput of the qa line of "where the time goes".
var goodLine = regexp.MustCompile(`(?m)^\s*qa: 9 requests, useful reached [0-9.]+%, failed 0\.00%, good 66\.66% \(([0-9.]+)/s\)$`)

// checkGoodput checks the goodput of a run of usefulsse/goodput.js in its
// text summary and export: 6 good of the 9 qa requests with objectives, at
// the export's good requests per second; no goodput for the plain bucket.
func checkGoodput(t *testing.T, what, summaryText string, exp map[string]any) {
	t.Helper()
	if r := number(t, exp, "metrics", "usefulsse_good{bucket:qa}", "passes"); r != 6 || number(t, exp, "metrics", "usefulsse_good{bucket:qa}", "fails") != 3 {
		t.Errorf("%s: usefulsse_good{bucket:qa} = %v, want 6 passes and 3 fails", what, object(t, exp, "metrics", "usefulsse_good{bucket:qa}"))
	}
	if g := number(t, exp, "usefulsse_buckets", "qa", "good"); !near(g, 6.0/9) {
		t.Errorf("%s: usefulsse_buckets.qa.good = %v, want 6/9", what, g)
	}
	if n := number(t, exp, "usefulsse_buckets", "qa", "requests"); n != 9 {
		t.Errorf("%s: usefulsse_buckets.qa.requests = %v, want 9", what, n)
	}
	perSecond := number(t, exp, "usefulsse_buckets", "qa", "good_per_second")
	if plain := object(t, exp, "usefulsse_buckets", "plain"); plain["requests"] != 3.0 || plain["good"] != nil || plain["good_per_second"] != nil {
		t.Errorf("%s: usefulsse_buckets.plain = %v, want no goodput: its requests named no objective", what, plain)
	}
	match := goodLine.FindStringSubmatch(summaryText)
	if match == nil {
		t.Errorf("%s: the summary lacks the qa goodput line:\n%s", what, summaryText)
		return
	}
	if shown, _ := strconv.ParseFloat(match[1], 64); perSecond <= 0 || math.Abs(shown-perSecond) > 0.005 {
		t.Errorf("%s: the summary shows %s good requests per second, the export %v", what, match[1], perSecond)
	}
	if !regexp.MustCompile(`(?m)^\s*usefulsse_good\.{3,}: 66\.66%\s+6 out of 9$`).MatchString(textBlock(summaryText, "STREAMING")) {
		t.Errorf("%s: the STREAMING block lacks usefulsse_good:\n%s", what, textBlock(summaryText, "STREAMING"))
	}
}
