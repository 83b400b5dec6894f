package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTrendStatsInExport feeds a Trend 1..100: p(95) interpolates between
// 95 and 96 (i = 0.95·99 = 94.05), med between 50 and 51.
func TestTrendStatsInExport(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := run(t, "run", "-q", "--summary-trend-stats", "avg,med,p(95)", "--summary-export", out, script("trend.js"))
	r.wantCode(t, 0)
	exp := export(t, out)
	tests := []struct {
		name string
		keys []string
		want float64
	}{
		{"p95", []string{"metrics", "my_trend", "p(95)"}, 95.05},
		{"med", []string{"metrics", "my_trend", "med"}, 50.5},
		{"avg", []string{"metrics", "my_trend", "avg"}, 50.5},
		{"iterations", []string{"metrics", "iterations", "count"}, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := number(t, exp, tt.keys...); !near(got, tt.want) {
				t.Errorf("%s = %v, want %v", strings.Join(tt.keys, "."), got, tt.want)
			}
		})
	}
	t.Run("only the requested stats", func(t *testing.T) {
		var keys []string
		for k := range object(t, exp, "metrics", "my_trend") {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if want := []string{"avg", "med", "p(95)"}; !slices.Equal(keys, want) {
			t.Errorf("my_trend keys = %v, want %v", keys, want)
		}
	})
	t.Run("text summary", func(t *testing.T) {
		if !strings.Contains(r.stdout, "p(95)=95.05") {
			t.Errorf("stdout lacks my_trend's p(95)=95.05:\n%s", r.stdout)
		}
	})
}

// TestHandleSummary checks that setup() data reaches iterations and
// teardown, and that handleSummary's result replaces the text summary.
func TestHandleSummary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, exp := filepath.Join(dir, "data.json"), filepath.Join(dir, "export.json")
	r := invocation{
		args: []string{"run", "-q", "--summary-export", exp, script("handle_summary.js")},
		env:  []string{"SUMMARY_JSON=" + data},
	}.run(t)
	r.wantCode(t, 0)
	if r.stdout != "custom summary\n" {
		t.Errorf("stdout = %q, want only handleSummary's %q", r.stdout, "custom summary\n")
	}
	if !strings.Contains(r.stderr, "teardown token=abc") {
		t.Errorf("teardown did not get setup()'s data; stderr:\n%s", r.stderr)
	}
	d := export(t, data)
	numbers := []struct {
		name string
		keys []string
		want float64
	}{
		{"iterations", []string{"metrics", "iterations", "values", "count"}, 4},
		{"setup data reached every iteration", []string{"metrics", "seen_token", "values", "count"}, 8},
		{"setup_data", []string{"setup_data", "n"}, 2},
	}
	for _, tt := range numbers {
		t.Run(tt.name, func(t *testing.T) {
			if got := number(t, d, tt.keys...); got != tt.want {
				t.Errorf("%s = %v, want %v", strings.Join(tt.keys, "."), got, tt.want)
			}
		})
	}
	shape := []struct {
		name string
		keys []string
		want func(any) bool
	}{
		{"root_group.name is empty", []string{"root_group", "name"}, func(v any) bool { return v == "" }},
		{"root_group.checks is a list", []string{"root_group", "checks"}, isList},
		{"root_group.groups is a list", []string{"root_group", "groups"}, isList},
		{"options.summaryTrendStats", []string{"options", "summaryTrendStats"}, func(v any) bool {
			l, ok := v.([]any)
			return ok && slices.Contains(l, any("p(95)"))
		}},
		{"state.testRunDurationMs", []string{"state", "testRunDurationMs"}, func(v any) bool {
			f, ok := v.(float64)
			return ok && f > 0
		}},
		{"metric type", []string{"metrics", "iterations", "type"}, func(v any) bool { return v == "counter" }},
		{"metric contains", []string{"metrics", "iteration_duration", "contains"}, func(v any) bool { return v == "time" }},
	}
	for _, tt := range shape {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := lookup(d, tt.keys...)
			if !ok || !tt.want(v) {
				t.Errorf("%s = %v (present: %v)", strings.Join(tt.keys, "."), v, ok)
			}
		})
	}
	t.Run("summary export still written", func(t *testing.T) {
		if got := number(t, export(t, exp), "metrics", "iterations", "count"); got != 4 {
			t.Errorf("export iterations = %v, want 4", got)
		}
	})
}

func isList(v any) bool { _, ok := v.([]any); return ok }

func TestTextSummary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want []string // substrings of stdout; none means stdout must be empty
	}{
		{"printed without handleSummary", []string{"run", "-q", script("plain_summary.js")},
			[]string{"TOTAL RESULTS", "plain_marker", "iterations"}},
		{"--no-summary prints none", []string{"run", "-q", "--no-summary", script("plain_summary.js")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := run(t, tt.args...)
			r.wantCode(t, 0)
			if tt.want == nil && r.stdout != "" {
				t.Errorf("stdout = %q, want nothing", r.stdout)
			}
			for _, s := range tt.want {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
		})
	}
}

// TestChecksGroupsAndTags reads the export's root_group (groups and checks
// keyed by name) and proves --tag reaches samples through a threshold on
// a tagged submetric: without the tag the submetric stays empty and fails.
func TestChecksGroupsAndTags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		tag      []string
		wantCode int
	}{
		{"tagged", []string{"--tag", "env=ci"}, 0},
		{"untagged", nil, 99},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "export.json")
			args := append([]string{"run", "-q", "--summary-export", out}, tt.tag...)
			r := run(t, append(args, script("checks.js"))...)
			r.wantCode(t, tt.wantCode)
			exp := export(t, out)
			if tt.wantCode == 0 {
				checkRootGroup(t, exp)
			}
			failed, ok := lookup(exp, "metrics", "iterations{env:ci}", "thresholds", "count==3")
			if !ok || failed != (tt.wantCode != 0) {
				t.Errorf("iterations{env:ci} threshold failed = %v (present %v), want %v", failed, ok, tt.wantCode != 0)
			}
		})
	}
}

// checkRootGroup asserts the pass and fail counts of checks.js.
func checkRootGroup(t *testing.T, exp map[string]any) {
	t.Helper()
	counts := []struct {
		name         string
		path         []string
		passes, fail float64
	}{
		{"always", []string{"root_group", "checks", "always"}, 3, 0},
		{"first only", []string{"root_group", "checks", "first only"}, 1, 2},
		{"in outer", []string{"root_group", "groups", "outer", "checks", "in outer"}, 3, 0},
		{"in inner", []string{"root_group", "groups", "outer", "groups", "inner", "checks", "in inner"}, 0, 3},
		{"checks metric", []string{"metrics", "checks"}, 7, 5},
	}
	for _, c := range counts {
		t.Run(c.name, func(t *testing.T) {
			p, f := number(t, exp, append(c.path, "passes")...), number(t, exp, append(c.path, "fails")...)
			if p != c.passes || f != c.fail {
				t.Errorf("%s: passes/fails = %v/%v, want %v/%v", strings.Join(c.path, "."), p, f, c.passes, c.fail)
			}
		})
	}
	t.Run("group path", func(t *testing.T) {
		if v, _ := lookup(exp, "root_group", "groups", "outer", "groups", "inner", "path"); v != "::outer::inner" {
			t.Errorf("inner group path = %v, want ::outer::inner", v)
		}
	})
	t.Run("group_duration", func(t *testing.T) {
		if avg := number(t, exp, "metrics", "group_duration", "avg"); avg <= 0 {
			t.Errorf("group_duration avg = %v, want > 0", avg)
		}
	})
}

// TestIterationErrorsLoggedOnce: 40 iterations throw one of two messages;
// each message is printed once, the run goes on and exits 0.
func TestIterationErrorsLoggedOnce(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := run(t, "run", "-q", "--summary-export", out, script("iteration_errors.js"))
	r.wantCode(t, 0)
	for _, msg := range []string{"even iteration failed", "odd iteration failed"} {
		if n := strings.Count(r.stderr, msg); n != 1 {
			t.Errorf("%q appears %d times in stderr, want once:\n%s", msg, n, r.stderr)
		}
	}
	if got := number(t, export(t, out), "metrics", "iterations", "count"); got != 40 {
		t.Errorf("iterations = %v, want 40 (the run must continue past exceptions)", got)
	}
}

// TestExportShapeAsK6 checks three details of the export k6 users diff
// against: a submetric keeps the selector as the script spelled it, the
// network counters are there (at 0 B) although nothing was sent, and the
// vus gauge ends at the VUs that ran, not at 0.
func TestExportShapeAsK6(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := run(t, "run", "-q", "--summary-export", out, script("export_shape.js"))
	r.wantCode(t, 0)
	exp := export(t, out)
	metrics := object(t, exp, "metrics")
	if _, ok := metrics["latency{kind: odd}"]; !ok {
		t.Errorf("export lacks %q; has %v", "latency{kind: odd}", keysOf(metrics))
	}
	for _, name := range []string{"data_sent", "data_received"} {
		if got := number(t, exp, "metrics", name, "count"); got != 0 {
			t.Errorf("%s count = %v, want 0", name, got)
		}
	}
	if got := number(t, exp, "metrics", "vus", "value"); got != 3 {
		t.Errorf("vus value = %v, want 3 (the VUs of the run, as k6 samples it)", got)
	}
}

// keysOf returns the keys of m, sorted.
func keysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
