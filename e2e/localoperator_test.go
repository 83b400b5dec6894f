package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// localOperator is the harness that drives local processes as k6-operator
// drives its pods.
const localOperator = "../deploy/local-operator.sh"

// runLocalOperator runs the harness with three runners on
// result/iterations.js with gate and returns its result and the merged
// summary export.
func runLocalOperator(t *testing.T, gate string) (result, map[string]any) {
	t.Helper()
	return harness(t, t.TempDir(), script("result/iterations.js"), "-e", "GATE="+gate, "--summary-trend-stats", exactStats)
}

// harness runs the harness with three runners in dir on args (harness
// flags, the script, run args) and returns its result and the merged
// summary export.
func harness(t *testing.T, dir string, args ...string) (result, map[string]any) {
	t.Helper()
	path, err := filepath.Abs(localOperator)
	if err != nil {
		t.Fatal(err)
	}
	inv := invocation{args: append([]string{path, "-n", "3", "-b", binary, "-d", dir, "-t", "e2e"}, args...),
		env: []string{"AGGREGATE_FLAGS=--interval 200ms", "K6_AGGREGATOR_PUSH_INTERVAL=200ms"}}
	r := inv.runProgram(t, "sh")
	for i := range 3 {
		log, err := os.ReadFile(filepath.Join(dir, string(rune('0'+i))+".log"))
		if err != nil {
			t.Fatalf("runner %d left no log: %v\nharness stderr:\n%s", i, err, r.stderr)
		}
		for line := range strings.SplitSeq(string(log), "\n") {
			if strings.Contains(line, "ERRO") && !strings.Contains(line, "have been crossed") && !strings.Contains(line, "stopped through the REST API") {
				t.Errorf("runner %d logged an error: %s", i, line)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Fatalf("no merged summary export: %v\nharness stderr:\n%s", err, r.stderr)
	}
	return r, export(t, filepath.Join(dir, "summary.json"))
}

// TestLocalOperatorHarness runs deploy/local-operator.sh with three runners
// — the initializer's archive and inspect, paused segmented runners named
// k6, readiness on GET /v1/status, the starter's PATCH, merge — and checks
// that the merged numbers equal one process running the whole test, and
// that the harness exits with the thresholds judged on the whole test:
// gates every share fails pass (0), gates every share passes fail (99).
func TestLocalOperatorHarness(t *testing.T) {
	t.Parallel()
	single := filepath.Join(t.TempDir(), "single.json")
	invocation{env: []string{"GATE=whole"}, args: []string{"run", "-q", "--summary-trend-stats", exactStats,
		"--summary-export", single, script("result/iterations.js")}}.run(t).wantCode(t, 0)
	want := export(t, single)

	r, got := runLocalOperator(t, "whole")
	r.wantCode(t, 0)
	for _, line := range []string{"runner 0 (0:1/3) paused", "runner 2 (2/3:1) paused", "started 3 runners", "runner 1 exited 99", "merged 3 results: exit 0"} {
		if !strings.Contains(r.stderr, line) {
			t.Errorf("harness stderr lacks %q:\n%s", line, r.stderr)
		}
	}
	for _, name := range []string{"iit", "iit{parity:even}", "done", "even", "checks", "iterations"} {
		w, g := object(t, want, "metrics", name), object(t, got, "metrics", name)
		delete(w, "rate") // counters' per-second rates depend on each run's duration
		delete(g, "rate")
		if !reflect.DeepEqual(w, g) {
			t.Errorf("%s: harness %v, single run %v", name, g, w)
		}
	}
	if n := number(t, got, "metrics", "iit", "count"); n != 60 {
		t.Errorf("merged iit count = %v, want 60", n)
	}
	if !strings.Contains(r.stdout, "✓ 'count==60' count=60") {
		t.Errorf("merged summary does not show the whole test's gate passed:\n%s", r.stdout)
	}

	r, _ = runLocalOperator(t, "share")
	r.wantCode(t, 99)
	if !strings.Contains(r.stderr, "execution requirements: totalDuration 50s, maxVUs 3") {
		t.Errorf("harness stderr lacks the initializer's requirements:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "thresholds on metrics 'done' have been crossed") || !strings.Contains(r.stderr, "runner 0 exited 0") {
		t.Errorf("share gates: harness stderr:\n%s", r.stderr)
	}
}

// TestLocalOperatorTooManyRunners: as k6-operator, the harness refuses
// more runners than the test's maxVUs, before starting any.
func TestLocalOperatorTooManyRunners(t *testing.T) {
	t.Parallel()
	path, err := filepath.Abs(localOperator)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ script, runners, want string }{
		{script("result/iterations.js"), "4", "maxVUs 3 is below the 4 runners"},
		// Its scenarios have a maxVUs each; the test's is their sum.
		{"../examples/aftersales.js", "241", "maxVUs 240 is below the 241 runners"},
	} {
		r := invocation{args: []string{path, "-n", tc.runners, "-b", binary, "-d", t.TempDir(), tc.script}}.runProgram(t, "sh")
		r.wantCode(t, 1)
		if !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, "runner 0") || strings.Contains(r.stderr, "local-operator.sh:") {
			t.Errorf("harness stderr:\n%s", r.stderr)
		}
	}
}

// TestLocalOperatorAggregator: with -g the harness also starts the live
// aggregator; on aggregate/count.js (a gate only the whole test crosses)
// it stops the three runners (103), and the merge judges the whole test.
func TestLocalOperatorAggregator(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, got := harness(t, dir, "-g", script("aggregate/count.js"))
	r.wantCode(t, 99)
	for _, line := range []string{"aggregator on http://127.0.0.1:", "runner 0 exited 103", "runner 2 exited 103", "aggregator exited 99", "merged 3 results: exit 99"} {
		if !strings.Contains(r.stderr, line) {
			t.Errorf("harness stderr lacks %q:\n%s", line, r.stderr)
		}
	}
	if n := number(t, got, "metrics", "done", "count"); n < 30 || n >= 60 {
		t.Errorf("done = %v, want the runners stopped after the gate (30) and before the end (60)", n)
	}
	log, err := os.ReadFile(filepath.Join(dir, "aggregate.log"))
	if err != nil || !strings.Contains(string(log), "crossed with abortOnFail: stopping every runner") ||
		strings.Contains(string(log), "no token") || strings.Contains(string(log), "refused") {
		t.Errorf("aggregate.log (%v; want the harness's random token on both sides, no post refused):\n%s", err, log)
	}
}
