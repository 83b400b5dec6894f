package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLoaderForms runs a TypeScript script, a CommonJS bundle and a script
// of bundler export forms through the binary: every check must pass, as
// many times as the scripts' iterations.
func TestLoaderForms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		script string
		checks float64
	}{
		{"loader/typescript.ts", 1},
		{"loader/bundle.js", 4},
		{"loader/exports.js", 3},
	} {
		t.Run(tc.script, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out := filepath.Join(dir, "export.json")
			r := invocation{args: []string{"run", "-q", "--summary-export", out, script(tc.script)}, dir: dir}.run(t)
			r.wantCode(t, 0)
			exp := export(t, out)
			if p, f := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails"); p != tc.checks || f != 0 {
				t.Errorf("checks passes/fails = %v/%v, want %v/0\n%s", p, f, tc.checks, r.stderr)
			}
		})
	}
}

// TestLoaderMissingSourceMap warns once, naming the missing map, and runs.
func TestLoaderMissingSourceMap(t *testing.T) {
	t.Parallel()
	r := invocation{args: []string{"run", "-q", script("loader/exports.js")}, dir: t.TempDir()}.run(t)
	r.wantCode(t, 0)
	if n := strings.Count(r.stderr, "exports.js.map"); n != 1 || !strings.Contains(r.stderr, "WARN source map") {
		t.Errorf("stderr names exports.js.map %d times in a WARN line, want once:\n%s", n, r.stderr)
	}
}
