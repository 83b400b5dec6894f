package e2e

import (
	"path/filepath"
	"testing"
)

// TestEncodingAndCrypto runs encoding_crypto.js, which signs the JWS of
// RFC 7515 with k6/encoding and k6/crypto and checks known digests,
// errors and the global crypto: every check passes, so its checks threshold holds and the run
// exits 0.
func TestEncodingAndCrypto(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := run(t, "run", "-q", "--summary-export", out, script("encoding_crypto.js"))
	r.wantCode(t, 0)
	exp := export(t, out)
	if p, f := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails"); p != 30 || f != 0 {
		t.Errorf("checks passes/fails = %v/%v, want 30/0 (15 checks × 2 iterations)\n%s\n%s", p, f, r.stdout, r.stderr)
	}
	if failed, ok := lookup(exp, "metrics", "checks", "thresholds", "rate==1"); !ok || failed != false {
		t.Errorf("checks threshold rate==1 failed = %v (present %v), want false", failed, ok)
	}
}
