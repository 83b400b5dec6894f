package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// exactStats are the trend statistics compared between a merge and a
// single run.
const exactStats = "count,avg,min,med,max,p(10),p(33.3),p(90),p(95),p(99),p(99.9)"

// runShares runs result/iterations.js once per segment with -o result and
// returns the result files; gate picks its thresholds, want is the exit
// code of every share.
func runShares(t *testing.T, dir, gate string, want int, flags ...string) []string {
	t.Helper()
	var files []string
	for i, seg := range segments {
		file := filepath.Join(dir, "share"+string(rune('0'+i))+".res")
		inv := invocation{env: []string{"GATE=" + gate}, args: append([]string{
			"run", "-q", "--no-summary", "--execution-segment", seg, "--execution-segment-sequence", sequence,
			"-o", "result=" + file, script("result/iterations.js"),
		}, flags...)}
		inv.run(t).wantCode(t, want)
		files = append(files, file)
	}
	return files
}

// TestMergeEqualsSingleRun: the merged result of three segmented runners
// equals one process running the whole test — counts exact, every Trend
// statistic exact, checks and rates too — in the text summary and in the
// export.
func TestMergeEqualsSingleRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := runShares(t, dir, "loose", 0)
	single, singleRes := filepath.Join(dir, "single.json"), filepath.Join(dir, "single.res")
	one := run(t, "run", "-q", "--summary-trend-stats", exactStats, "--summary-export", single, "-o", "result="+singleRes, script("result/iterations.js"))
	one.wantCode(t, 0)
	// A whole run's file alone gives back the run's own export and summary,
	// rates per second included.
	alone := filepath.Join(dir, "alone.json")
	a := run(t, "merge", "--summary-export", alone, singleRes)
	a.wantCode(t, 0)
	if w, g := export(t, single), export(t, alone); !reflect.DeepEqual(w, g) {
		t.Errorf("merge of a whole run's file: export\n%v\nwant the run's own\n%v", g, w)
	}
	if a.stdout != one.stdout || a.stderr != "" {
		t.Errorf("merge of a whole run's file: summary\n%s\nwant the run's own\n%s\nstderr: %s", a.stdout, one.stdout, a.stderr)
	}
	merged := filepath.Join(dir, "merged.json")
	m := run(t, append([]string{"merge", "--summary-mode", "full", "--summary-trend-stats", exactStats, "--summary-export", merged}, files...)...)
	m.wantCode(t, 0)
	if strings.Contains(m.stderr, "WARN") {
		t.Errorf("merge of all shares warned:\n%s", m.stderr)
	}
	want, got := export(t, single), export(t, merged)
	for _, name := range []string{"iit", "iit{parity:even}", "done", "even", "checks"} {
		w, g := object(t, want, "metrics", name), object(t, got, "metrics", name)
		delete(w, "rate") // counters' per-second rates depend on each run's duration
		delete(g, "rate")
		if !reflect.DeepEqual(w, g) {
			t.Errorf("%s: merged %v, single run %v", name, g, w)
		}
	}
	if n := number(t, got, "metrics", "iit", "count"); n != 60 {
		t.Errorf("merged iit count = %v, want 60", n)
	}
	// Each iteration of the test adds its number once: 0 + … + 59.
	if avg := number(t, got, "metrics", "iit", "avg"); avg != 29.5 {
		t.Errorf("merged iit avg = %v, want 29.5 (iterationInTest partitioned by the segments)", avg)
	}
	if !reflect.DeepEqual(want["root_group"], got["root_group"]) {
		t.Errorf("groups and checks: merged %v, single %v", got["root_group"], want["root_group"])
	}
	for _, line := range []string{"done.................: 60", "is even", "↳  50% — ✓ 30 / ✗ 30", "GROUP: numbers"} {
		if !strings.Contains(m.stdout, line) {
			t.Errorf("merged text summary lacks %q:\n%s", line, m.stdout)
		}
	}
}

// TestMergeGlobalThresholds: thresholds of the whole test fail on every
// share and pass on the merge; thresholds true of every share fail on the
// merge; the merge of 2 of 3 shares fails the count gate and warns.
func TestMergeGlobalThresholds(t *testing.T) {
	t.Parallel()
	t.Run("whole", func(t *testing.T) {
		t.Parallel()
		files := runShares(t, t.TempDir(), "whole", 99)
		r := run(t, append([]string{"merge", "--no-summary"}, files...)...)
		r.wantCode(t, 0)
		partial := run(t, "merge", "--no-summary", files[0], files[2])
		partial.wantCode(t, 99)
		if !strings.Contains(partial.stderr, "WARN the results cover segments 0:1/3, 2/3:1, not the whole test (missing 1/3:2/3)") {
			t.Errorf("no coverage warning:\n%s", partial.stderr)
		}
		if !strings.Contains(partial.stderr, "ERRO thresholds on metrics 'done' have been crossed") {
			t.Errorf("no crossed thresholds line:\n%s", partial.stderr)
		}
	})
	t.Run("share", func(t *testing.T) {
		t.Parallel()
		files := runShares(t, t.TempDir(), "share", 0)
		r := run(t, append([]string{"merge", "--no-summary"}, files...)...)
		r.wantCode(t, 99)
		if !strings.Contains(r.stderr, "ERRO thresholds on metrics 'done' have been crossed") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
		noGate := run(t, append([]string{"merge", "--no-summary", "--no-thresholds"}, files...)...)
		noGate.wantCode(t, 0)
	})
	// Runners started with --no-thresholds judge nothing themselves (exit
	// 0) but still record the test's thresholds: the merge judges the
	// whole test and fails its failing gate; -q is taken as k6 takes it.
	t.Run("runners without thresholds", func(t *testing.T) {
		t.Parallel()
		files := runShares(t, t.TempDir(), "whole", 0, "--no-thresholds")
		r := run(t, append([]string{"merge", "-q", "--no-summary"}, files[:2]...)...)
		r.wantCode(t, 99)
		if !strings.Contains(r.stderr, "ERRO thresholds on metrics 'done") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
		run(t, append([]string{"merge", "--quiet", "--no-summary"}, files...)...).wantCode(t, 0)
	})
}

// TestMergeOutputs: handleSummary of --script gets the merged data, the
// HTML report shows the merged thresholds, and -o writes a result that
// merges again to the same numbers.
func TestMergeOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := runShares(t, dir, "whole", 99)
	report, all := filepath.Join(dir, "report.html"), filepath.Join(dir, "all.res")
	r := run(t, append([]string{"merge", "--script", script("result/handle_summary.js"), "--report", report, "-o", "result=" + all}, files...)...)
	r.wantCode(t, 0)
	var data map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &data); err != nil {
		t.Fatalf("handleSummary's stdout is not its JSON: %v\n%s", err, r.stdout)
	}
	if data["done"] != 60.0 || data["med"] != 29.5 || data["ok"] != true {
		t.Errorf("handleSummary data = %v, want done 60, med 29.5, ok true", data)
	}
	html, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"count==60", "p(50)==29.5", "is even"} {
		if !bytes.Contains(html, []byte(s)) {
			t.Errorf("report lacks %q", s)
		}
	}
	again := filepath.Join(dir, "again.json")
	run(t, "merge", "--no-summary", "--summary-export", again, all).wantCode(t, 0)
	if n := number(t, export(t, again), "metrics", "iit", "med"); n != 29.5 {
		t.Errorf("re-merged median = %v, want 29.5", n)
	}
}

// TestResultWrittenOnSIGINT: a runner stopped by SIGINT still writes a
// result that merges, holding the iterations it ran.
func TestResultWrittenOnSIGINT(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file, own := filepath.Join(dir, "half.res"), filepath.Join(dir, "own.json")
	r := invocation{args: []string{
		"run", "-q", "--execution-segment", "0:1/2", "--execution-segment-sequence", "0,1/2,1",
		"-o", "result=" + file, "--summary-export", own, script("signal.js"),
	}}.interrupted(t)
	r.wantCode(t, 105)
	merged := filepath.Join(dir, "merged.json")
	m := run(t, "merge", "--summary-export", merged, file)
	m.wantCode(t, 0)
	if !strings.Contains(m.stderr, "missing 1/2:1") {
		t.Errorf("no coverage warning for half a test:\n%s", m.stderr)
	}
	want := number(t, export(t, own), "metrics", "iterations", "count")
	if got := number(t, export(t, merged), "metrics", "iterations", "count"); got != want || got < 5 {
		t.Errorf("merged iterations = %v, want the run's own %v (≥ 5)", got, want)
	}
}

// TestMergeRefuses: damaged, truncated, foreign, newer and mismatched
// files are refused with exit 104 and one error line naming the problem.
func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := runShares(t, dir, "loose", 0)
	good, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0xff
	other := filepath.Join(dir, "other.res")
	run(t, "run", "-q", "--no-summary", "--no-thresholds", "-o", "result="+other, script("checks.js")).wantCode(t, 0)
	var newer bytes.Buffer
	gz := gzip.NewWriter(&newer)
	gz.Write([]byte(`{"format":"usefullatency-result","version":2}` + "\n"))
	gz.Close()
	tests := []struct {
		name  string
		files []string
		want  string
	}{
		{"corrupted", []string{write("flipped.res", flipped)}, "flipped.res: corrupted or truncated result file"},
		{"truncated", []string{write("cut.res", good[:len(good)-10])}, "cut.res: corrupted or truncated result file"},
		{"not a result", []string{write("text.res", []byte("hello"))}, "text.res: not a usefullatency result file"},
		{"newer version", []string{write("new.res", newer.Bytes())}, "the file has version 2, this build reads up to 1"},
		{"other test", []string{files[0], other}, "is a result of another test than " + files[0]},
		{"same share twice", []string{files[1], files[1]}, "segments overlap: 1/3:2/3 of " + files[1]},
		{"missing file", []string{filepath.Join(dir, "none.res")}, "none.res: no such file"},
		{"no file", nil, "merge needs result files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, append([]string{"merge"}, tt.files...)...)
			r.wantCode(t, 104)
			line := r.errorLine(t)
			if !strings.Contains(line, tt.want) {
				t.Errorf("error line %q, want it to contain %q", line, tt.want)
			}
			if r.stdout != "" {
				t.Errorf("stdout = %q, want nothing", r.stdout)
			}
		})
	}
}

// TestResultOutputBadPath: -o result without a path, or into a missing
// directory, stops the run before it starts with 104.
func TestResultOutputBadPath(t *testing.T) {
	t.Parallel()
	for _, spec := range []string{"result", "result=" + filepath.Join(t.TempDir(), "missing", "r.res")} {
		r := run(t, "run", "-q", "-o", spec, script("result/iterations.js"))
		r.wantCode(t, 104)
		if line := r.errorLine(t); !strings.Contains(line, "--out result") {
			t.Errorf("-o %s: error line %q does not name the output", spec, line)
		}
	}
}

// TestMergeStreamingBuckets: two runners of a streaming example against
// the mock merge into one "where the time goes" table whose buckets hold
// the requests of both.
func TestMergeStreamingBuckets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	halves := []string{"0:1/2", "1/2:1"}
	files, exports := make([]string, 2), make([]string, 2)
	// The parallel subtests run together; t.Run returns when both ended.
	t.Run("runners", func(t *testing.T) {
		for i, seg := range halves {
			files[i], exports[i] = filepath.Join(dir, seg[:1]+".res"), filepath.Join(dir, seg[:1]+".json")
			t.Run(seg[:1], func(t *testing.T) {
				t.Parallel()
				invocation{args: []string{"run", "-q", "--no-summary", "--mock", "-e", "DURATION=2s",
					"--execution-segment", seg, "--execution-segment-sequence", "0,1/2,1",
					"-o", "result=" + files[i], "--summary-export", exports[i], example("openai.js")}}.run(t).wantCode(t, 0)
			})
		}
	})
	if t.Failed() {
		return
	}
	merged := filepath.Join(dir, "merged.json")
	r := run(t, "merge", "--summary-export", merged, files[0], files[1])
	r.wantCode(t, 0)
	if !strings.Contains(r.stdout, "WHERE THE TIME GOES") {
		t.Errorf("no per-bucket table in the merged summary:\n%s", r.stdout)
	}
	var want float64
	for _, e := range exports {
		want += number(t, export(t, e), "usefulsse_buckets", "single_tool", "requests")
	}
	m := export(t, merged)
	if got := number(t, m, "usefulsse_buckets", "single_tool", "requests"); got != want || got == 0 {
		t.Errorf("merged single_tool requests = %v, want the shares' sum %v", got, want)
	}
	if got := number(t, m, "metrics", "http_reqs", "count"); got != want {
		t.Errorf("merged http_reqs = %v, want %v", got, want)
	}
}
