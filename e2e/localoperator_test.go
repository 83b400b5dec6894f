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
	dir := t.TempDir()
	harness, err := filepath.Abs(localOperator)
	if err != nil {
		t.Fatal(err)
	}
	inv := invocation{args: []string{harness, "-n", "3", "-b", binary, "-d", dir, "-t", "e2e",
		script("result/iterations.js"), "-e", "GATE=" + gate, "--summary-trend-stats", exactStats}}
	r := inv.runProgram(t, "sh")
	for i := range 3 {
		log, err := os.ReadFile(filepath.Join(dir, string(rune('0'+i))+".log"))
		if err != nil {
			t.Fatalf("runner %d left no log: %v\nharness stderr:\n%s", i, err, r.stderr)
		}
		if strings.Contains(string(log), "ERRO") && !strings.Contains(string(log), "have been crossed") {
			t.Errorf("runner %d logged an error:\n%s", i, log)
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
	if !strings.Contains(r.stderr, "thresholds on metrics 'done' have been crossed") || !strings.Contains(r.stderr, "runner 0 exited 0") {
		t.Errorf("share gates: harness stderr:\n%s", r.stderr)
	}
}
