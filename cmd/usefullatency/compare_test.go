package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/result"
)

// writeRun writes a result file of test id with one gated trend,
// usefulsse_useful{bucket:qa}, of 2000 lognormal values of median med.
func writeRun(t *testing.T, dir, name, id string, seed uint64, med float64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	vs := make([]float64, 2000)
	for i := range vs {
		vs[i] = med * math.Exp(0.4*rng.NormFloat64())
	}
	slices.Sort(vs)
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	f := &result.File{
		TestID: id, Script: "t.js", Segments: []string{"0:1"}, Start: start, End: start.Add(10 * time.Second), Duration: 10 * time.Second,
		Thresholds: map[string][]result.Threshold{"usefulsse_useful{bucket:qa}": {{Source: "p(95)<2500"}}},
		Metrics: []result.Metric{{Name: "usefulsse_useful", Type: "trend", Contains: "time",
			Submetrics: []result.Submetric{{Selector: "bucket:qa", Sink: result.Sink{Values: vs}}}}},
	}
	path := filepath.Join(dir, name)
	if err := result.WriteFile(path, f); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompareExitCodes checks compare's exit codes: 0 when nothing
// regressed, 111 when a gated row did, 104 for files that cannot be
// compared, 2 for a wrong command line, each error one ERRO line.
func TestCompareExitCodes(t *testing.T) {
	dir := t.TempDir()
	base := writeRun(t, dir, "base.res", "t", 1, 1000)
	same := writeRun(t, dir, "same.res", "t", 2, 1000)
	slow := writeRun(t, dir, "slow.res", "t", 3, 1200)
	other := writeRun(t, dir, "other.res", "u", 4, 1000)
	junk := filepath.Join(dir, "junk.res")
	if err := os.WriteFile(junk, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
		code int
		err  string // in the one ERRO line; "" for none
	}{
		{"same load", []string{base, "--", same}, 0, ""},
		{"slower", []string{base, "--", slow}, 111, ""},
		{"slower, --base and --new", []string{"--base", base + "," + same, "--new", slow}, 111, ""},
		{"new runs that disagree: undecided", []string{"--base", base, "--new", slow + "," + same}, 0, ""},
		{"slower, not gated", []string{"--fail-on", "usefulsse_useful{bucket:qa}:p(95)", "--min-effect", "50%", base, "--", slow}, 0, ""},
		{"repeats", []string{base, same, "--", slow, slow}, 111, ""},
		{"another test", []string{base, "--", other}, 104, other + " is a result of another test than " + base},
		{"another test allowed", []string{"--allow-different", base, "--", other}, 0, ""},
		{"not a result", []string{base, "--", junk}, 104, junk + ": not a usefullatency result file"},
		{"no --", []string{base, slow}, 2, "needs files on both sides of --"},
		{"nothing after --", []string{base, "--"}, 2, "needs files on both sides of --"},
		{"--base without --new", []string{"--base", base}, 2, "--base FILES and --new FILES together"},
		{"--base and --", []string{"--base", base, "--new", slow, base, "--", slow}, 2, "--base FILES and --new FILES together"},
		{"bad flag", []string{"--frobnicate", base, "--", slow}, 2, "unknown flag: --frobnicate"},
		{"bad resamples", []string{"--resamples", "10", base, "--", slow}, 2, "--resamples 10"},
		{"bad seed", []string{"--seed", "0", base, "--", slow}, 2, "--seed 0"},
		{"bad metric", []string{"--metric", "nope", base, "--", slow}, 2, "--metric nope"},
		{"unwritable json", []string{"--json", filepath.Join(dir, "no", "c.json"), base, "--", slow}, 104, "--json " + filepath.Join(dir, "no", "c.json")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := invoke(append([]string{"compare"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			if tt.err == "" {
				if stderr != "" {
					t.Errorf("stderr %q, want nothing", stderr)
				}
				return
			}
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "ERRO ") || !strings.Contains(lines[0], tt.err) {
				t.Errorf("stderr %q, want one ERRO line with %q", stderr, tt.err)
			}
		})
	}
}

// TestCompareJSONOnStdout checks --json -: the report on stdout, without
// the table, and the --confidence percentage form.
func TestCompareJSONOnStdout(t *testing.T) {
	dir := t.TempDir()
	base, slow := writeRun(t, dir, "base.res", "t", 1, 1000), writeRun(t, dir, "slow.res", "t", 3, 1200)
	code, stdout, _ := invoke("compare", "--json", "-", "--confidence", "90%", "--seed", "3", base, "--", slow)
	if code != 111 {
		t.Fatalf("exit %d, want 111", code)
	}
	var rep struct {
		Confidence float64 `json:"confidence"`
		Seed       uint64  `json:"seed"`
		Base, New  []string
		Rows       []struct{ Metric, Stat, Verdict string } `json:"rows"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("stdout is not the JSON report: %v\n%s", err, stdout)
	}
	if rep.Confidence != 0.9 || rep.Seed != 3 || !slices.Equal(rep.Base, []string{base}) || len(rep.Rows) != 4 || rep.Rows[0].Verdict != "regressed" {
		t.Errorf("report %+v", rep)
	}
}

// TestCompareHelp checks the usage and the manual line.
func TestCompareHelp(t *testing.T) {
	code, _, stderr := invoke("compare", "--help")
	if code != 0 || !strings.HasPrefix(stderr, "Usage: usefullatency compare [flags] BASE... -- NEW...") ||
		!strings.HasSuffix(stderr, "Manual: usefullatency help comparing (docs/comparing.md)\n") {
		t.Errorf("compare --help: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(usage, "usefullatency compare BASE... -- NEW...") {
		t.Error("the usage does not list compare")
	}
}
