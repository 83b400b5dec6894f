package options

import (
	"reflect"
	"testing"
	"time"
)

// parseOne parses a scripts's scenarios object holding one scenario "s".
func parseOne(t *testing.T, raw map[string]any) (Scenario, error) {
	t.Helper()
	o, err := FromScript(map[string]any{"scenarios": map[string]any{"s": raw}})
	if len(o.Scenarios) != 1 {
		t.Fatalf("got %d scenarios", len(o.Scenarios))
	}
	return o.Scenarios[0], err
}

func TestScenarioDefaults(t *testing.T) {
	sec := func(n int) Duration { return Duration(time.Duration(n) * time.Second) }
	common := Scenario{Name: "s", GracefulStop: sec(30), Exec: "default"}
	with := func(executor string, f func(*Scenario)) Scenario {
		sc := common
		sc.Executor = executor
		f(&sc)
		return sc
	}
	tests := []struct {
		name string
		raw  map[string]any
		want Scenario
	}{
		{"constant-arrival-rate", map[string]any{
			"executor": "constant-arrival-rate", "rate": int64(10), "duration": "1m", "preAllocatedVUs": int64(5)},
			with(ConstantArrivalRate, func(sc *Scenario) {
				sc.Rate, sc.TimeUnit, sc.Duration, sc.PreAllocatedVUs, sc.MaxVUs = 10, sec(1), sec(60), 5, 5
			})},
		{"ramping-arrival-rate", map[string]any{
			"executor": "ramping-arrival-rate", "preAllocatedVUs": 2.0,
			"stages": []any{map[string]any{"duration": "10s", "target": int64(5)}}},
			with(RampingArrivalRate, func(sc *Scenario) {
				sc.TimeUnit, sc.PreAllocatedVUs, sc.MaxVUs, sc.Stages = sec(1), 2, 2, []Stage{{sec(10), 5}}
			})},
		{"constant-vus", map[string]any{"executor": "constant-vus", "duration": int64(1500)},
			with(ConstantVUs, func(sc *Scenario) { sc.VUs, sc.Duration = 1, Duration(1500*time.Millisecond) })},
		{"ramping-vus", map[string]any{"executor": "ramping-vus",
			"stages": []any{map[string]any{"duration": "1m", "target": 3.0}}},
			with(RampingVUs, func(sc *Scenario) {
				sc.StartVUs, sc.GracefulRampDown, sc.Stages = 1, sec(30), []Stage{{sec(60), 3}}
			})},
		{"per-vu-iterations", map[string]any{"executor": "per-vu-iterations"},
			with(PerVUIterations, func(sc *Scenario) { sc.VUs, sc.Iterations, sc.MaxDuration = 1, 1, sec(600) })},
		{"shared-iterations with common fields", map[string]any{
			"executor": "shared-iterations", "startTime": "10s", "gracefulStop": "5s", "exec": "api",
			"env": map[string]any{"A": "1"}, "tags": map[string]any{"t": "x"}, "maxVUs": nil},
			with(SharedIterations, func(sc *Scenario) {
				sc.VUs, sc.Iterations, sc.MaxDuration = 1, 1, sec(600)
				sc.StartTime, sc.GracefulStop, sc.Exec = sec(10), sec(5), "api"
				sc.Env, sc.Tags = map[string]string{"A": "1"}, map[string]string{"t": "x"}
			})},
		{"explicit maxVUs", map[string]any{
			"executor": "constant-arrival-rate", "rate": int64(1), "duration": "1s",
			"preAllocatedVUs": int64(1), "maxVUs": int64(9), "timeUnit": "1m"},
			with(ConstantArrivalRate, func(sc *Scenario) {
				sc.Rate, sc.TimeUnit, sc.Duration, sc.PreAllocatedVUs, sc.MaxVUs = 1, sec(60), sec(1), 1, 9
			})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseOne(t, tt.raw)
			checkErrors(t, err)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestScenarioParseErrors(t *testing.T) {
	tests := []struct {
		name string
		raw  any
		want []string
	}{
		{"not an object", "fast", []string{"scenarios.s: expected an object"}},
		{"missing executor", map[string]any{"vus": int64(1)}, []string{"scenarios.s.executor: required, one of"}},
		{"unknown executor", map[string]any{"executor": "constant-iterations"},
			[]string{`scenarios.s.executor: unsupported executor "constant-iterations"`}},
		{"executor not a string", map[string]any{"executor": int64(1)},
			[]string{"scenarios.s.executor: expected a string, got number 1"}},
		{"unknown field", map[string]any{"executor": "constant-vus", "duration": "1s", "rate": int64(1)},
			[]string{`scenarios.s: unknown field "rate" for executor constant-vus`}},
		{"fractional integer", map[string]any{"executor": "per-vu-iterations", "vus": 1.5},
			[]string{"scenarios.s.vus: 1.5 is not an integer"}},
		{"word for integer", map[string]any{"executor": "per-vu-iterations", "iterations": "ten"},
			[]string{`scenarios.s.iterations: expected an integer, got string "ten"`}},
		{"bad duration", map[string]any{"executor": "constant-vus", "duration": "forever"},
			[]string{`scenarios.s.duration: invalid duration "forever"`}},
		{"required fields", map[string]any{"executor": "constant-arrival-rate"}, []string{
			"scenarios.s.rate: required for executor constant-arrival-rate",
			"scenarios.s.duration: required",
			"scenarios.s.preAllocatedVUs: required"}},
		{"ramping stages required", map[string]any{"executor": "ramping-vus"},
			[]string{"scenarios.s.stages: required for executor ramping-vus"}},
		{"bad stage", map[string]any{"executor": "ramping-vus", "stages": []any{
			map[string]any{"duration": "1s", "target": int64(1)}, map[string]any{"duration": "1s"}}},
			[]string{"scenarios.s.stages[1]: a stage needs both duration and target"}},
		{"stage unknown field", map[string]any{"executor": "ramping-vus", "stages": []any{
			map[string]any{"duration": "1s", "target": int64(1), "vus": int64(2)}}},
			[]string{`scenarios.s.stages[0]: unknown field "vus"`}},
		{"tags not strings", map[string]any{"executor": "per-vu-iterations", "tags": map[string]any{"a": int64(1)}},
			[]string{"scenarios.s.tags: a: expected a string"}},
		{"several problems at once", map[string]any{"executor": "constant-vus", "vus": 0.5, "foo": true}, []string{
			`scenarios.s: unknown field "foo"`,
			"scenarios.s.vus: 0.5 is not an integer",
			"scenarios.s.duration: required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromScript(map[string]any{"scenarios": map[string]any{"s": tt.raw}})
			checkErrors(t, err, tt.want...)
		})
	}
}

func TestScenarioNames(t *testing.T) {
	tests := []struct {
		name, scenario string
		want           []string
	}{
		{"letters digits dash underscore", "api_v2-load", nil},
		{"space", "my scenario", []string{`scenarios.my scenario: invalid scenario name "my scenario"`}},
		{"dot", "a.b", []string{`invalid scenario name "a.b"`}},
		{"empty", "", []string{`invalid scenario name ""`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromScript(map[string]any{"scenarios": map[string]any{
				tt.scenario: map[string]any{"executor": "per-vu-iterations"}}})
			checkErrors(t, err, tt.want...)
		})
	}
}

func TestScenarioValidate(t *testing.T) {
	ok := func(executor string, f func(*Scenario)) Scenario {
		sc := NewScenario("s", executor)
		sc.Duration, sc.Rate, sc.PreAllocatedVUs, sc.MaxVUs = Duration(time.Second), 1, 1, 1
		sc.Stages = []Stage{{Duration(time.Second), 1}}
		f(&sc)
		return sc
	}
	tests := []struct {
		name string
		sc   Scenario
		want []string
	}{
		{"valid constant-vus", ok(ConstantVUs, func(*Scenario) {}), nil},
		{"valid ramping-arrival-rate", ok(RampingArrivalRate, func(*Scenario) {}), nil},
		{"zero vus", ok(ConstantVUs, func(sc *Scenario) { sc.VUs = 0 }), []string{"scenarios.s.vus: must be more than 0"}},
		{"zero duration", ok(ConstantVUs, func(sc *Scenario) { sc.Duration = 0 }), []string{"scenarios.s.duration: must be more than 0"}},
		{"negative start and stop", ok(ConstantVUs, func(sc *Scenario) { sc.StartTime, sc.GracefulStop = -1, -1 }),
			[]string{"scenarios.s.startTime: must not be negative", "scenarios.s.gracefulStop: must not be negative"}},
		{"empty exec", ok(PerVUIterations, func(sc *Scenario) { sc.Exec = "" }), []string{"scenarios.s.exec: must name"}},
		{"iterations below vus", ok(SharedIterations, func(sc *Scenario) { sc.VUs, sc.Iterations = 5, 3 }),
			[]string{"scenarios.s.iterations: 3 iterations cannot be shared by 5 VUs"}},
		{"per-vu zero iterations", ok(PerVUIterations, func(sc *Scenario) { sc.Iterations = 0 }),
			[]string{"scenarios.s.iterations: must be more than 0"}},
		{"zero maxDuration", ok(PerVUIterations, func(sc *Scenario) { sc.MaxDuration = 0 }),
			[]string{"scenarios.s.maxDuration: must be more than 0"}},
		{"zero rate", ok(ConstantArrivalRate, func(sc *Scenario) { sc.Rate = 0 }), []string{"scenarios.s.rate: must be more than 0"}},
		{"maxVUs below preAllocated", ok(ConstantArrivalRate, func(sc *Scenario) { sc.PreAllocatedVUs = 3 }),
			[]string{"scenarios.s.maxVUs: 1 is less than preAllocatedVUs (3)"}},
		{"no VUs at all", ok(ConstantArrivalRate, func(sc *Scenario) { sc.PreAllocatedVUs, sc.MaxVUs = 0, 0 }),
			[]string{"scenarios.s.maxVUs: must be more than 0"}},
		{"zero timeUnit", ok(RampingArrivalRate, func(sc *Scenario) { sc.TimeUnit = 0 }),
			[]string{"scenarios.s.timeUnit: must be more than 0"}},
		{"no stages", ok(RampingVUs, func(sc *Scenario) { sc.Stages = nil }),
			[]string{"scenarios.s.stages: at least one stage is required"}},
		{"negative stage", ok(RampingVUs, func(sc *Scenario) { sc.Stages = []Stage{{-1, -1}, {1, 2}} }), []string{
			"scenarios.s.stages[0].duration: must not be negative", "scenarios.s.stages[0].target: must not be negative"}},
		{"all zero load", ok(RampingArrivalRate, func(sc *Scenario) { sc.Stages = []Stage{{Duration(time.Second), 0}} }),
			[]string{"scenarios.s.stages: the start value or one of the stage targets must be more than 0"}},
		{"start VUs count as load", ok(RampingVUs, func(sc *Scenario) { sc.Stages = []Stage{{Duration(time.Second), 0}} }), nil},
		{"unknown executor", Scenario{Name: "s", Executor: "x"}, []string{`scenarios.s.executor: unsupported executor "x"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErrors(t, joinErrs(tt.sc.Validate()), tt.want...)
		})
	}
}
