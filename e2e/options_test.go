package e2e

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOptionPrecedence shows each layer overriding the one below:
// defaults < script options < K6_* environment < command-line flags, and
// k6's rule that an execution shortcut in a higher layer replaces the
// lower layers' duration, iterations, stages and scenarios.
func TestOptionPrecedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		script string
		env    []string
		flags  []string
		// want are values in inspect's JSON; nil means the key is absent.
		want map[string]any
		// wantScenarios are the scenario names.
		wantScenarios []string
	}{
		{name: "defaults", script: "config.js", wantScenarios: []string{"default"}, want: map[string]any{
			"scenarios.default.executor": "per-vu-iterations", "scenarios.default.vus": 1.0,
			"scenarios.default.iterations": 1.0, "vus": nil}},
		{name: "script", script: "precedence.js", wantScenarios: []string{"default"}, want: map[string]any{
			"vus": 2.0, "duration": "1s", "scenarios.default.executor": "constant-vus", "scenarios.default.vus": 2.0}},
		{name: "env over script", script: "precedence.js", env: []string{"K6_VUS=3"}, want: map[string]any{
			"vus": 3.0, "duration": "1s", "scenarios.default.vus": 3.0}},
		{name: "flag over env", script: "precedence.js", env: []string{"K6_VUS=3"}, flags: []string{"-u", "4"},
			want: map[string]any{"vus": 4.0, "scenarios.default.vus": 4.0}},
		{name: "env iterations replace script duration", script: "precedence.js", env: []string{"K6_ITERATIONS=7"},
			want: map[string]any{"iterations": 7.0, "duration": nil, "scenarios.default.executor": "shared-iterations",
				"scenarios.default.iterations": 7.0, "scenarios.default.vus": 2.0}},
		{name: "flag iterations over env", script: "precedence.js", env: []string{"K6_ITERATIONS=7"},
			flags: []string{"-i", "9"}, want: map[string]any{"iterations": 9.0, "scenarios.default.iterations": 9.0}},
		{name: "flag duration over env and script", script: "precedence.js", env: []string{"K6_DURATION=5s"},
			flags: []string{"-d", "2s"}, want: map[string]any{"duration": "2s", "scenarios.default.duration": "2s"}},
		{name: "--iterations replaces script scenarios", script: "named_scenario.js", flags: []string{"-i", "3"},
			wantScenarios: []string{"default"}, want: map[string]any{
				"scenarios.default.executor": "shared-iterations", "scenarios.default.iterations": 3.0}},
		{name: "K6_DURATION replaces script scenarios", script: "named_scenario.js", env: []string{"K6_DURATION=2s"},
			wantScenarios: []string{"default"}, want: map[string]any{
				"scenarios.default.executor": "constant-vus", "scenarios.default.duration": "2s"}},
		{name: "--vus alone keeps script scenarios", script: "named_scenario.js", flags: []string{"-u", "5"},
			wantScenarios: []string{"mine"}, want: map[string]any{"scenarios.mine.vus": 2.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"inspect"}, tt.flags...), script(tt.script))
			r := invocation{args: args, env: tt.env}.run(t)
			r.wantCode(t, 0)
			var opts map[string]any
			if err := json.Unmarshal([]byte(r.stdout), &opts); err != nil {
				t.Fatalf("inspect output is not JSON: %v\n%s", err, r.stdout)
			}
			for key, want := range tt.want {
				got, ok := lookup(opts, strings.Split(key, ".")...)
				if want == nil && ok || want != nil && got != want {
					t.Errorf("%s = %v (present: %v), want %v", key, got, ok, want)
				}
			}
			if tt.wantScenarios != nil {
				var names []string
				for name := range object(t, opts, "scenarios") {
					names = append(names, name)
				}
				slices.Sort(names)
				if !slices.Equal(names, tt.wantScenarios) {
					t.Errorf("scenarios = %v, want %v", names, tt.wantScenarios)
				}
			}
		})
	}
}

// TestFlagsDriveTheRun checks that what inspect shows is what runs: -i on
// the command line replaces the script's 1 s constant-vus shortcut.
func TestFlagsDriveTheRun(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{
		args: []string{"run", "-q", "-i", "3", "--summary-export", out, script("precedence.js")},
		env:  []string{"K6_ITERATIONS=7"},
	}.run(t)
	r.wantCode(t, 0)
	if got := number(t, export(t, out), "metrics", "iterations", "count"); got != 3 {
		t.Errorf("iterations = %v, want 3 from -i", got)
	}
}

// TestScriptEnv: -e overrides the process environment in __ENV, and
// --include-system-env-vars=false hides the process environment.
func TestScriptEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		flags []string
		want  string
	}{
		{"process environment", nil, "FOO=from-process"},
		{"-e over process environment", []string{"-e", "FOO=from-flag"}, "FOO=from-flag"},
		{"system env vars excluded", []string{"--include-system-env-vars=false"}, "FOO=undefined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"run", "-q", "--no-summary"}, tt.flags...), script("env.js"))
			r := invocation{args: args, env: []string{"FOO=from-process"}}.run(t)
			r.wantCode(t, 0)
			if !strings.Contains(r.stderr, tt.want+" ") {
				t.Errorf("stderr lacks %q:\n%s", tt.want, r.stderr)
			}
		})
	}
}
