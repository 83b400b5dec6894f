package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// example returns the path of a script in the repository's examples/.
func example(name string) string { return filepath.Join(testdata, "..", "..", "examples", name) }

// TestExamples runs every example against the embedded mock (--mock),
// shortened by environment variables, and checks its exit code: the gates
// pass on a healthy assistant, and each fault makes the gate that watches
// it fail with 99.
func TestExamples(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, script string
		env          []string
		code         int
		// failed names a threshold line that must be marked ✗.
		failed string
	}{
		{"aftersales gates pass", "aftersales.js", []string{"DURATION=6s"}, 0, ""},
		{"premature commit fails its gate", "aftersales.js", []string{"DURATION=4s", "FAULTS=premature_commit"}, 99, "premature_commits"},
		{"slow fallback fails its gate", "aftersales.js", []string{"DURATION=4s", "FAULTS=slow_fallback"}, 99, "fallback_delay{bucket:timeout_recovery}"},
		{"openai", "openai.js", []string{"DURATION=3s"}, 0, ""},
		{"anthropic", "anthropic.js", []string{"DURATION=3s"}, 0, ""},
		{"dataset", "dataset.js", []string{"DURATION=3s"}, 0, ""},
		{"dataset from a CSV file", "dataset-csv.js", []string{"DURATION=3s"}, 0, ""},
		{"xk6-sse compat", "xk6-sse-compat.js", nil, 0, ""},
		{"chat page: screen and socket agree", "chat-ui.js", []string{"DURATION=8s"}, 0, ""},
		{"render delay fails the screen's gate", "chat-ui.js", []string{"DURATION=8s", "FAULTS=render_delay"}, 99, "usefulsse_useful{bucket:qa,layer:ui}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := []string{"run", "--mock", "--no-color", example(tc.script)}
			for _, e := range tc.env {
				args = append([]string{args[0], "-e", e}, args[1:]...)
			}
			r := invocation{args: args}.run(t)
			r.wantCode(t, tc.code)
			if !strings.Contains(r.stdout, "WHERE THE TIME GOES") {
				t.Errorf("no per-bucket table in the summary:\n%s", r.stdout)
			}
			if tc.failed != "" && !strings.Contains(r.stdout, tc.failed+"\n     ✗") {
				t.Errorf("threshold %s is not marked failed:\n%s", tc.failed, r.stdout)
			}
		})
	}
}

// TestClosedVersusOpen shows coordinated omission on an overloaded tenant:
// the open model's useful p95 is far above the closed model's.
func TestClosedVersusOpen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mock.json")
	if err := os.WriteFile(cfg, []byte(`{"tenants": {"overloaded": 4}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "export.json")
	r := invocation{args: []string{"run", "-q", "--mock", "--mock-config", cfg, "--summary-export", out,
		"-e", "DURATION=4s", "-e", "RATE=6", "-e", "SLOTS=4", example("closed-vs-open.js")}}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)
	closed := number(t, exp, "usefulsse_buckets", "closed", "useful", "p95")
	open := number(t, exp, "usefulsse_buckets", "open", "useful", "p95")
	if open < closed*1.5 {
		t.Errorf("open useful p95 %.0f ms vs closed %.0f ms: the open model must expose the queueing", open, closed)
	}
	if q := number(t, exp, "usefulsse_buckets", "open", "queue", "p95"); q < 500 {
		t.Errorf("open queue p95 = %.0f ms, want the tenant queue to grow", q)
	}
}
