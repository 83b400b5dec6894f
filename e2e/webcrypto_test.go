package e2e

import (
	"path/filepath"
	"testing"
)

// TestWebCrypto runs the scripts of testdata/webcrypto, each in the shape
// of one of k6's examples/webcrypto scripts, through the binary: every
// check passes, so the checks threshold holds and the run exits 0.
func TestWebCrypto(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		script string
		checks float64 // checks × iterations
	}{
		{"digest.js", 6},
		{"hmac.js", 6},
		{"aes.js", 8},
		{"ecdsa.js", 6},
		{"derive.js", 8},
		{"rsa.js", 4},
		{"errors.js", 5},
	} {
		t.Run(c.script, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "export.json")
			r := run(t, "run", "-q", "--summary-export", out, script("webcrypto/"+c.script))
			r.wantCode(t, 0)
			exp := export(t, out)
			if p, f := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails"); p != c.checks || f != 0 {
				t.Errorf("checks passes/fails = %v/%v, want %v/0\n%s\n%s", p, f, c.checks, r.stdout, r.stderr)
			}
		})
	}
}
