package e2e

import (
	"path/filepath"
	"testing"
)

// TestWebAPIs runs webapis.js: timers, TextEncoder/TextDecoder, URL,
// URLSearchParams and structuredClone through the binary. The check in a
// timer callback is counted only when each iteration waited for it.
func TestWebAPIs(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := run(t, "run", "-q", "--summary-export", out, script("webapis.js"))
	r.wantCode(t, 0)
	exp := export(t, out)
	if p, f := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails"); p != 27 || f != 0 {
		t.Errorf("checks passes/fails = %v/%v, want 27/0 (9 checks × 3 iterations)\n%s", p, f, r.stdout)
	}
}
