package e2e

import (
	"path/filepath"
	"testing"

	"github.com/usefullatency/usefullatency/internal/redistest"
)

// TestRedis runs redis/redis.js against a redis-server of its own: every
// check of k6/experimental/redis passes, so the checks threshold holds and
// the run exits 0.
func TestRedis(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{
		args: []string{"run", "-q", "--summary-export", out, script("redis/redis.js")},
		env:  []string{"REDIS_URL=redis://" + addr},
	}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)
	if p, f := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails"); p != 24 || f != 0 {
		t.Errorf("checks passes/fails = %v/%v, want 24/0 (6 checks × 4 iterations)\n%s\n%s", p, f, r.stdout, r.stderr)
	}
	if failed, ok := lookup(exp, "metrics", "checks", "thresholds", "rate==1"); !ok || failed != false {
		t.Errorf("checks threshold rate==1 failed = %v (present %v), want false", failed, ok)
	}
}
