package e2e

import (
	"path/filepath"
	"testing"
)

// TestStreams runs streams.js, which reads a timer-fed pull stream and
// cancels a start()-fed one with k6/experimental/streams: every check
// passes, so its checks threshold holds and the run exits 0.
func TestStreams(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := run(t, "run", "-q", "--summary-export", out, script("streams.js"))
	r.wantCode(t, 0)
	exp := export(t, out)
	if p, f := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails"); p != 10 || f != 0 {
		t.Errorf("checks passes/fails = %v/%v, want 10/0 (5 checks × 2 iterations)\n%s\n%s", p, f, r.stdout, r.stderr)
	}
	if failed, ok := lookup(exp, "metrics", "checks", "thresholds", "rate==1"); !ok || failed != false {
		t.Errorf("checks threshold rate==1 failed = %v (present %v), want false", failed, ok)
	}
}
