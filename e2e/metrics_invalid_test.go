package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestInvalidSamplesDropped adds undefined, NaN, null and a word to custom
// metrics: the samples are dropped with one warning per metric, the
// thresholds on the valid values pass and the summary export is written.
func TestInvalidSamplesDropped(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "summary.json")
	r := run(t, "run", "-q", "--summary-export", out, script("invalid_samples.js"))
	r.wantCode(t, 0)
	m := export(t, out)
	if avg := number(t, m, "metrics", "bad_trend", "avg"); avg != 50 {
		t.Errorf("bad_trend avg = %v, want 50", avg)
	}
	if rate := number(t, m, "metrics", "checks", "value"); rate != 1 {
		t.Errorf("checks rate = %v, want 1 (invalid add() returns false)", rate)
	}
	for _, name := range []string{"bad_trend", "bad_counter", "bad_rate", "bad_gauge"} {
		if n := strings.Count(r.stderr, "WARN "+name+".add()"); n != 1 {
			t.Errorf("%d warnings for %s, want 1:\n%s", n, name, r.stderr)
		}
	}
}

// TestInvalidSampleThrows checks that with the throw option an invalid
// value is an exception in the iteration.
func TestInvalidSampleThrows(t *testing.T) {
	t.Parallel()
	r := invocation{args: []string{"run", "-q", "--no-summary", script("invalid_samples.js")},
		env: []string{"THROW=1"}}.run(t)
	if !strings.Contains(r.stderr, `bad_trend.add(): "undefined" is not a valid value`) {
		t.Errorf("no exception for the invalid value:\n%s", r.stderr)
	}
}

// TestEmptyGroupAndTagValues runs a group with an empty name and a metric tagged with an
// object, which throws; every check passes and the threshold on the
// number tag holds.
func TestEmptyGroupAndTagValues(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "summary.json")
	r := run(t, "run", "-q", "--summary-export", out, script("group_tags.js"))
	r.wantCode(t, 0)
	if n := number(t, export(t, out), "metrics", "checks", "passes"); n != 2 {
		t.Errorf("checks passed = %v, want 2\n%s", n, r.stderr)
	}
}
