package mock

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDefaultConfigValid(t *testing.T) {
	cfg := DefaultConfig()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	// The defaults round-trip through JSON.
	b, _ := json.Marshal(cfg)
	back, err := ParseConfig(b)
	if err != nil {
		t.Fatal(err)
	}
	if mustJSON(back) != mustJSON(cfg) {
		t.Errorf("round trip changed the config")
	}
}

func TestLoadConfigOverlaysDefaults(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mock.json")
	os.WriteFile(p, []byte(`{"buckets":{"qa":{"routing":{"median_ms":5}}},"tenant_slots":2,
		"hold_headers_until_dequeue":true,"faults":["stall"],"seed":9,"tenants":{"vip":100},"model_slots":0}`), 0o644)
	cfg, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	def := DefaultConfig()
	if cfg.Buckets.QA.Routing.MedianMS != 5 || cfg.Buckets.QA.Routing.P95MS != def.Buckets.QA.Routing.P95MS {
		t.Errorf("routing %+v: the median should change, the p95 stay", cfg.Buckets.QA.Routing)
	}
	if cfg.Buckets.QA.FirstToken != def.Buckets.QA.FirstToken || cfg.Buckets.SingleTool != def.Buckets.SingleTool {
		t.Errorf("untouched fields changed")
	}
	if def.ModelSlots != 100 || cfg.ModelSlots != 0 {
		t.Errorf("model_slots %d (default %d), want 0 (default 100)", cfg.ModelSlots, def.ModelSlots)
	}
	if cfg.TenantSlots != 2 || !cfg.HoldHeadersUntilDequeue || cfg.Seed != 9 || cfg.Faults[0] != "stall" || cfg.Tenants["vip"] != 100 {
		t.Errorf("top-level fields %+v", cfg)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ json, want string }{
		{`{"tenant_slot":3}`, `unknown field "tenant_slot"`},
		{`{"buckets":{"qa":{"routing":{"medain_ms":3}}}}`, `unknown field "medain_ms"`},
		{`{"buckets":{"chitchat":{}}}`, `unknown field "chitchat"`},
		{`{"tenant_slots":0,"heartbeat_ms":-1}`, "tenant_slots: must be > 0"},
		{`{"tenant_slots":0,"heartbeat_ms":-1}`, "heartbeat_ms: must be > 0"},
		{`{"buckets":{"qa":{"safety":{"median_ms":50,"p95_ms":10}}}}`, "buckets.qa.safety: p95_ms 10 is below median_ms 50"},
		{`{"model_slots":-1}`, "model_slots: must be >= 0 (0 for unlimited)"},
		{`{"faults":["stal"]}`, `unknown fault "stal"`},
		{`{} {}`, "trailing data"},
		{`{"seed":"x"}`, "cannot unmarshal"},
	} {
		p := filepath.Join(dir, "c.json")
		os.WriteFile(p, []byte(c.json), 0o644)
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want it to contain %q and the path", c.json, err, c.want)
		}
	}
	if _, err := LoadConfig(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
}

// TestDistSample checks the lognormal: median and p95 hit over many draws,
// clamps hold, and a constant Dist is exact.
func TestDistSample(t *testing.T) {
	r := newRand(1, 1)
	d := Dist{MedianMS: 100, P95MS: 300}
	var below100, below300 int
	const n = 20000
	for range n {
		x := d.Sample(r)
		if x < 100*time.Millisecond {
			below100++
		}
		if x < 300*time.Millisecond {
			below300++
		}
	}
	if f := float64(below100) / n; f < 0.48 || f > 0.52 {
		t.Errorf("P(x < median) = %.3f", f)
	}
	if f := float64(below300) / n; f < 0.94 || f > 0.96 {
		t.Errorf("P(x < p95) = %.3f", f)
	}
	c := Dist{MedianMS: 100, P95MS: 1000, MinMS: 90, MaxMS: 110}
	for range 1000 {
		if x := c.Sample(r); x < 90*time.Millisecond || x > 110*time.Millisecond {
			t.Fatalf("clamped sample %v", x)
		}
	}
	if x := (Dist{MedianMS: 42}).Sample(r); x != 42*time.Millisecond {
		t.Errorf("constant sample %v", x)
	}
}

func TestLateBuckets(t *testing.T) {
	prev := -1
	for us := uint64(0); us < 1<<20; us = us*9/8 + 1 {
		i := lateBucket(us)
		if i < prev || us >= lateUpper(i) || (i > 0 && us < lateUpper(i-1)) {
			t.Fatalf("%d µs in bucket %d [%d, %d)", us, i, lateUpper(i-1), lateUpper(i))
		}
		if up := lateUpper(i); i >= 8 && float64(up-lateUpper(i-1)) > 0.125*float64(up)+1 {
			t.Fatalf("bucket %d too wide", i)
		}
		prev = i
	}
}
