package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestSummaryModes checks the three layouts of --summary-mode through the
// binary: compact (the default) has no group sections and no
// group_duration, full has both, legacy lists the metrics with a ✓ in the
// margin of those with thresholds.
func TestSummaryModes(t *testing.T) {
	t.Parallel()
	runMode := func(args ...string) string {
		r := run(t, append(append([]string{"run"}, args...), script("group_tags.js"))...)
		r.wantCode(t, 0)
		return r.stdout
	}
	compact := runMode()
	if strings.Contains(compact, "GROUP") || strings.Contains(compact, "SCENARIO") || strings.Contains(compact, "group_duration") {
		t.Errorf("default (compact) summary has a group or scenario section or group_duration:\n%s", compact)
	}
	if !strings.Contains(compact, "█ TOTAL RESULTS") || !strings.Contains(compact, "iteration_duration") {
		t.Errorf("compact summary lacks TOTAL RESULTS or iteration_duration:\n%s", compact)
	}
	if explicit := runMode("--summary-mode", "compact"); !sameLayout(explicit, compact) {
		t.Errorf("--summary-mode compact differs from the default:\n%s\n---\n%s", explicit, compact)
	}

	full := runMode("--summary-mode", "full")
	for _, want := range []string{"█ GROUP:", "group_duration", "✓ inside an empty group", "█ SCENARIO: default"} {
		if !strings.Contains(full, want) {
			t.Errorf("full summary lacks %q:\n%s", want, full)
		}
	}

	legacy := runMode("--summary-mode", "legacy")
	for _, re := range []string{`(?m)^ +✓ checks\.+: 100\.00% +✓ 2 +✗ 0$`, `(?m)^ +iterations\.+: 1 `} {
		if !regexp.MustCompile(re).MatchString(legacy) {
			t.Errorf("legacy summary does not match %s:\n%s", re, legacy)
		}
	}
	if strings.Contains(legacy, "TOTAL RESULTS") {
		t.Errorf("legacy summary has v1 sections:\n%s", legacy)
	}
}

// numbers are the measured values of a summary, which differ run to run.
var numbers = regexp.MustCompile(`[0-9][0-9.]*(µs|ns|ms|s|/s)?`)

// padding is the alignment between columns and dots, which follows the
// widths of the numbers; trailing is the padding at a line's end, which a
// row gets only when another row's value in its last column is wider.
var (
	padding  = regexp.MustCompile(`[ .]+`)
	trailing = regexp.MustCompile(`(?m) +$`)
)

// sameLayout reports whether two summaries have the same lines once their
// numbers and padding are masked.
func sameLayout(a, b string) bool {
	mask := func(s string) string {
		return trailing.ReplaceAllString(padding.ReplaceAllString(numbers.ReplaceAllString(s, "#"), " "), "")
	}
	return mask(a) == mask(b)
}

// Two summaries of one layout whose widest value in the last column sits
// on another row (so another row carries the trailing padding) have the
// same layout; a missing row does not.
func TestSameLayoutIgnoresTrailingPadding(t *testing.T) {
	a := "     iteration_duration...: avg=585.29µs p(95)=585.29µs\n     schedule_lag.........: avg=70ns     p(95)=70ns    \n"
	b := "     iteration_duration...: avg=1ms    p(95)=1ms   \n     schedule_lag.........: avg=9.96µs p(95)=9.96µs\n"
	if !sameLayout(a, b) {
		t.Error("summaries differing only in where the trailing padding falls are told apart")
	}
	if sameLayout(a, "     iteration_duration...: avg=1ms    p(95)=1ms   \n") {
		t.Error("a summary without the schedule_lag row has the same layout")
	}
}
