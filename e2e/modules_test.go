package e2e

import (
	"path/filepath"
	"testing"
)

// TestESModules runs esm/main.js from an unrelated working directory, so
// its import and open() paths must resolve against the script: every
// check passing is what makes its thresholds hold.
func TestESModules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "export.json")
	r := invocation{
		args: []string{"run", "-q", "--summary-export", out, script("esm/main.js")},
		dir:  dir,
	}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)
	if p, f := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails"); p != 15 || f != 0 {
		t.Errorf("checks passes/fails = %v/%v, want 15/0 (5 checks × 3 iterations)\n%s", p, f, r.stdout)
	}
	if p := number(t, exp, "root_group", "checks", "awaited", "passes"); p != 3 {
		t.Errorf("the awaited check passed %v times, want 3", p)
	}
}
