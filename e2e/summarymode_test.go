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
// widths of the numbers.
var padding = regexp.MustCompile(`[ .]+`)

// sameLayout reports whether two summaries have the same lines once their
// numbers and padding are masked.
func sameLayout(a, b string) bool {
	mask := func(s string) string { return padding.ReplaceAllString(numbers.ReplaceAllString(s, "#"), " ") }
	return mask(a) == mask(b)
}
