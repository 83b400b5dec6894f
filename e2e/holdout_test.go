package e2e

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hold-out suite: scripts in the shapes other projects' LLM load tests
// take, run unchanged against the built-in assistant, each checked for
// meaning what its author meant, not only for running.

// TestHoldoutTTFTWithXK6SSE runs an xk6-sse benchmark whose time to first
// token is taken in the script: it must agree with the probe's
// usefulsse_first_text for the same streams (the script's clock reads the
// same event a few milliseconds later at most), and VUs and iterations
// given as strings run as numbers.
func TestHoldoutTTFTWithXK6SSE(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{args: []string{"run", "-q", "--mock", "--summary-export", out, script("holdout/ttft_sse.js")},
		env: []string{"VUS=2", "ITERATIONS=6"}}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)
	if n := number(t, exp, "metrics", "iterations", "count"); n != 6 {
		t.Errorf("iterations = %v, want 6 (ITERATIONS=\"6\")", n)
	}
	script, probe := number(t, exp, "metrics", "ttft", "med"), number(t, exp, "metrics", "usefulsse_first_text", "med")
	t.Logf("ttft p50: script %.1f ms, probe %.1f ms", script, probe)
	if probe < 50 || math.Abs(script-probe) > 30 {
		t.Errorf("the script's TTFT p50 %.1f ms and the probe's first_text p50 %.1f ms disagree (or the first token came at once)", script, probe)
	}
	if n := number(t, exp, "metrics", "http_reqs", "count"); n != 6 {
		t.Errorf("http_reqs = %v, want one per sse.open (6)", n)
	}
}

// TestHoldoutGatewayBenchmark runs a gateway benchmark of non-streaming
// chat completions: every answer parses as JSON with its usage, the
// arrival-rate options given as strings run, and handleSummary writes the
// CI report it returns.
func TestHoldoutGatewayBenchmark(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	r := invocation{args: []string{"run", "-q", "--mock", script("holdout/gateway_bench.js")},
		env: []string{"RATE=4", "DURATION=3s", "VUS=8", "REPORT=" + report}}.run(t)
	r.wantCode(t, 0)
	if !strings.Contains(r.stdout, "report written") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("handleSummary's report: %v", err)
	}
	var rep struct {
		Requests           float64 `json:"requests"`
		TokensPerSecondP50 float64 `json:"tokens_per_second_p50"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Requests < 10 || rep.Requests > 13 || rep.TokensPerSecondP50 <= 0 {
		t.Errorf("report %+v: want about 12 requests (4/s for 3 s) and a token rate", rep)
	}
}
