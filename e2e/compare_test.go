package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// compareRuns holds the result files of three runs of
// testdata/compare/buckets.js: two of the built-in assistant as it is, one
// with the qa bucket's model slower to its first token (a median of 2 s
// instead of 0.4 s).
type compareRuns struct {
	base1, base2, slowQA string
}

var (
	compareOnce  sync.Once
	compareFiles compareRuns
	compareErr   string
)

// runsForCompare runs the three runs once for the compare tests.
func runsForCompare(t *testing.T) compareRuns {
	t.Helper()
	compareOnce.Do(func() {
		dir, err := os.MkdirTemp("", "usefullatency-compare-")
		if err != nil {
			compareErr = err.Error()
			return
		}
		slow := filepath.Join(dir, "slow-qa.json")
		if err := os.WriteFile(slow, []byte(`{"buckets": {"qa": {"first_token": {"median_ms": 2000, "p95_ms": 3000}}}}`), 0o644); err != nil {
			compareErr = err.Error()
			return
		}
		compareFiles = compareRuns{filepath.Join(dir, "base1.res"), filepath.Join(dir, "base2.res"), filepath.Join(dir, "slow.res")}
		for _, r := range []struct {
			out   string
			extra []string
		}{{compareFiles.base1, nil}, {compareFiles.base2, nil}, {compareFiles.slowQA, []string{"--mock-config", slow}}} {
			args := append([]string{"run", "-q", "--no-summary", "--mock", "--mock-seed", "7", "-o", "result=" + r.out}, r.extra...)
			res := run(t, append(args, script("compare/buckets.js"))...)
			if res.code != 0 && res.code != 99 { // the slowed run fails qa's gate
				compareErr = fmt.Sprintf("run %s: exit %d\n%s", strings.Join(args, " "), res.code, res.stderr)
				return
			}
		}
	})
	if compareErr != "" {
		t.Fatal(compareErr)
	}
	return compareFiles
}

// comparison is the JSON a compare run wrote on stdout.
type comparison struct {
	Notes []string `json:"notes"`
	Rows  []struct {
		Metric, Bucket, Stat, Verdict string
		Gated                         bool
	} `json:"rows"`
}

func decodeComparison(t *testing.T, stdout string) comparison {
	t.Helper()
	var c comparison
	if err := json.Unmarshal([]byte(stdout), &c); err != nil {
		t.Fatalf("compare --json -: %v\n%s", err, stdout)
	}
	return c
}

// minEffect is the effect the end-to-end comparisons judge times by. Two
// runs of one seeded load differ only by the machine's noise, but on a
// loaded test machine that is tens of milliseconds at the median and
// hundreds at p99 (the notes then say the load generator was saturated):
// the tests judge by half a second, which the slowed bucket exceeds by
// more than a second.
const minEffect = "500ms"

// TestCompareNamesTheSlowBucket checks the CI gate on real runs: with the
// qa bucket's model slower, compare names exactly qa's rows regressed and
// exits 111; two runs of the same load exit 0.
func TestCompareNamesTheSlowBucket(t *testing.T) {
	runs := runsForCompare(t)
	r := run(t, "compare", "--min-effect", minEffect, "--json", "-", runs.base1, "--", runs.slowQA)
	r.wantCode(t, 111)
	c := decodeComparison(t, r.stdout)
	var regressed []string
	for _, row := range c.Rows {
		if row.Verdict != "regressed" {
			continue
		}
		regressed = append(regressed, row.Metric+":"+row.Stat)
		if row.Bucket != "qa" {
			t.Errorf("%s %s regressed: only the qa bucket was slowed", row.Metric, row.Stat)
		}
	}
	for _, want := range []string{"usefulsse_useful{bucket:qa}:p(50)", "usefulsse_useful{bucket:qa}:p(95)", "usefulsse_first_text{bucket:qa}:p(50)"} {
		if !slices.Contains(regressed, want) {
			t.Errorf("%s did not regress; regressed: %q", want, regressed)
		}
	}

	same := run(t, "compare", "--min-effect", minEffect, "--no-color", runs.base1, "--", runs.base2)
	same.wantCode(t, 0)
	if !strings.Contains(same.stdout, "no row regressed beyond 500ms for times, 5% otherwise") || strings.Contains(same.stdout, "✗") {
		t.Errorf("two runs of one load:\n%s", same.stdout)
	}

	// The default effect, 5 %: the text table, no colour off a terminal.
	text := run(t, "compare", runs.base1, "--", runs.slowQA)
	text.wantCode(t, 111)
	lines := strings.Split(strings.TrimSpace(text.stdout), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "✗ ") || !strings.Contains(last, "regressed beyond 5%: ") || !strings.Contains(last, "usefulsse_useful{bucket:qa} p(50)") || strings.Contains(text.stdout, "\x1b[") {
		t.Errorf("last line %q; want the regressed rows named, qa's useful p(50) among them, no colour off a terminal", last)
	}
}

// TestCompareFailOnAndReport checks --fail-on (a gate on a bucket that did
// not change passes although qa regressed), --report and --json FILE.
func TestCompareFailOnAndReport(t *testing.T) {
	runs := runsForCompare(t)
	dir := t.TempDir()
	page, js := filepath.Join(dir, "compare.html"), filepath.Join(dir, "compare.json")
	r := run(t, "compare", "--min-effect", minEffect, "--fail-on", "usefulsse_useful{bucket:retrieval}:p(95)", "--report", page, "--json", js, runs.base1, "--", runs.slowQA)
	r.wantCode(t, 0)
	if !strings.Contains(r.stdout, "no row regressed") {
		t.Errorf("with the gate on retrieval only:\n%s", r.stdout)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	c := decodeComparison(t, string(b))
	for _, row := range c.Rows {
		if row.Gated != (row.Metric == "usefulsse_useful{bucket:retrieval}" && row.Stat == "p(95)") {
			t.Errorf("%s %s gated %v", row.Metric, row.Stat, row.Gated)
		}
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "<html") {
		t.Errorf("--report: %v, %d bytes", err, len(html))
	}
	gated := run(t, "compare", "--min-effect", minEffect, "--fail-on", "usefulsse_useful{bucket:qa}:p(95)", runs.base1, "--", runs.slowQA)
	gated.wantCode(t, 111)
}

// TestCompareRefusesFiles checks exit 104 with one ERRO line naming the
// file, and 2 for a command line that cannot be run.
func TestCompareRefusesFiles(t *testing.T) {
	runs := runsForCompare(t)
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.res")
	if err := os.WriteFile(junk, []byte("not a result"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.res")
	r := run(t, "run", "-q", "--no-summary", "--mock", "-e", "DURATION=1s", "-e", "RATE=2", "-o", "result="+other, script("compare/buckets.js"))
	r.wantCode(t, 0)
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"not a result", []string{runs.base1, "--", junk}, 104, junk + ": not a usefullatency result file"},
		{"missing", []string{runs.base1, "--", filepath.Join(dir, "none.res")}, 104, "none.res"},
		{"another test", []string{runs.base1, "--", other}, 104, other + " is a result of another test than " + runs.base1},
		{"no --", []string{runs.base1, runs.base2}, 2, "needs files on both sides of --"},
		{"bad effect", []string{"--min-effect", "fast", runs.base1, "--", runs.base2}, 2, `--min-effect "fast"`},
		{"bad gate", []string{"--fail-on", "nope:p(95)", runs.base1, "--", runs.base2}, 2, "--fail-on nope:p(95)"},
		{"bad confidence", []string{"--confidence", "95", runs.base1, "--", runs.base2}, 2, `--confidence "95"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, append([]string{"compare"}, tt.args...)...)
			r.wantCode(t, tt.code)
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "ERRO ") || !strings.Contains(lines[0], tt.want) {
				t.Errorf("stderr %q, want one ERRO line with %q", r.stderr, tt.want)
			}
		})
	}
	// --allow-different compares the other test's runs, and says so.
	r = run(t, "compare", "--allow-different", runs.base1, "--", other)
	if r.code != 0 && r.code != 111 {
		t.Errorf("--allow-different: exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "results of different tests") {
		t.Errorf("--allow-different: no note on the different tests:\n%s", r.stdout)
	}
}
