package e2e

import (
	"path/filepath"
	"testing"
)

// TestOptionCoerceNumericStrings: numeric options given as strings, as a
// script reading them from __ENV gives them, run as k6 runs them: the
// shortcut's vus "2" and iterations "4" run 4 iterations on 2 VUs, and a
// constant-arrival-rate scenario with rate "5" and preAllocatedVUs "2"
// has its 5 iterations due in 1 s.
func TestOptionCoerceNumericStrings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		script string
		env    []string
		// iterations counts the started and dropped iterations.
		iterations, vusMax float64
	}{
		{"shortcut", "optioncoerce/shortcut.js", []string{"VUS=2", "ITERATIONS=4"}, 4, 2},
		{"arrival-rate scenario", "optioncoerce/arrival.js", nil, 5, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "export.json")
			r := invocation{args: []string{"run", "-q", "--summary-export", out, script(tt.script)}, env: tt.env}.run(t)
			r.wantCode(t, 0)
			m := export(t, out)
			got := number(t, m, "metrics", "iterations", "count")
			if v, ok := lookup(m, "metrics", "dropped_iterations", "count"); ok {
				got += v.(float64)
			}
			if got != tt.iterations {
				t.Errorf("iterations started and dropped = %v, want %v", got, tt.iterations)
			}
			if got := number(t, m, "metrics", "vus_max", "value"); got != tt.vusMax {
				t.Errorf("vus_max = %v, want %v", got, tt.vusMax)
			}
		})
	}
}

// TestOptionCoerceRefused: a string k6 cannot read as a number exits 104
// with one error line naming the option and the value, before the test
// starts.
func TestOptionCoerceRefused(t *testing.T) {
	t.Parallel()
	r := invocation{
		args: []string{"run", "-q", script("optioncoerce/shortcut.js")},
		env:  []string{"VUS=two", "ITERATIONS=4"},
	}.run(t)
	r.wantCode(t, 104)
	assertRejectedBeforeStart(t, r, []string{"vus", `"two"`})
}
