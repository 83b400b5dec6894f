package options

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// consolidated builds options from a script's options object.
func consolidated(t *testing.T, raw map[string]any) Options {
	t.Helper()
	script, err := FromScript(raw)
	checkErrors(t, err)
	o, err := Consolidate(script)
	checkErrors(t, err)
	return o
}

func ramp(grace string) map[string]any {
	return map[string]any{
		"executor": "ramping-vus", "startVUs": int64(0), "gracefulRampDown": grace,
		"stages": []any{
			map[string]any{"duration": "10s", "target": int64(10)},
			map[string]any{"duration": "20s", "target": int64(10)},
			map[string]any{"duration": "10s", "target": int64(0)},
		},
	}
}

// The expected values are computed by hand from k6's rules: a scenario
// holds its VUs from its startTime until its end plus gracefulStop; a
// ramping-vus VU stopped by a ramp-down keeps its place for
// gracefulRampDown, but not past the end of the stages plus gracefulStop.
func TestExecutionRequirements(t *testing.T) {
	arrivals := map[string]any{
		"executor": "constant-arrival-rate", "rate": int64(10), "duration": "1m",
		"preAllocatedVUs": int64(5), "maxVUs": int64(20), "startTime": "30s", "gracefulStop": "10s",
	}
	perVU := map[string]any{"executor": "per-vu-iterations", "vus": int64(3), "maxDuration": "10s", "gracefulStop": "0s"}
	for _, tc := range []struct {
		name   string
		raw    map[string]any
		total  time.Duration
		maxVUs int64
	}{
		// 10 VUs for 30s, then 30s of gracefulStop.
		{"duration shortcut", map[string]any{"vus": int64(10), "duration": "30s"}, time.Minute, 10},
		// shared-iterations: maxDuration 10m + gracefulStop 30s.
		{"iterations shortcut", map[string]any{"vus": int64(4), "iterations": int64(100)}, 10*time.Minute + 30*time.Second, 4},
		// Nothing set: one VU, one iteration, per-vu-iterations 10m + 30s.
		{"no options", map[string]any{}, 10*time.Minute + 30*time.Second, 1},
		// The last VU stops at 40s; gracefulRampDown 30s reaches the
		// stages' end (40s) + gracefulStop (30s).
		{"ramping-vus default graces", map[string]any{"scenarios": map[string]any{"r": ramp("30s")}}, 70 * time.Second, 10},
		// The last VU stops at 40s and keeps its place 5s more.
		{"ramping-vus short ramp-down", map[string]any{"scenarios": map[string]any{"r": ramp("5s")}}, 45 * time.Second, 10},
		{"ramping-vus no ramp-down", map[string]any{"scenarios": map[string]any{"r": ramp("0s")}}, 40 * time.Second, 10},
		// The stages (10s + 20s) + gracefulStop 5s; up to maxVUs.
		{"ramping arrival rate", map[string]any{"scenarios": map[string]any{"ra": map[string]any{
			"executor": "ramping-arrival-rate", "preAllocatedVUs": int64(2), "maxVUs": int64(8), "gracefulStop": "5s",
			"stages": []any{map[string]any{"duration": "10s", "target": int64(5)}, map[string]any{"duration": "20s", "target": int64(0)}},
		}}}, 35 * time.Second, 8},
		// startTime 30s + duration 60s + gracefulStop 10s; maxVUs counts
		// the VUs the executor may add beyond preAllocatedVUs.
		{"arrival rate with startTime", map[string]any{"scenarios": map[string]any{"a": arrivals}}, 100 * time.Second, 20},
		// 3 VUs over 0–10s; the ramp's 10 VUs hold 10s–36s (VU 10 stops at
		// 31s, +5s), the arrivals' 20 from 30s: 30 at once over 30s–36s.
		{"three scenarios overlap", map[string]any{"scenarios": map[string]any{
			"a": arrivals, "r": ramp("5s"), "p": perVU,
		}}, 100 * time.Second, 30},
		// Without the overlap: the arrivals start after the ramp's end.
		{"scenarios in sequence", map[string]any{"scenarios": map[string]any{
			"a": withField(arrivals, "startTime", "45s"), "r": ramp("5s"),
		}}, 115 * time.Second, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := consolidated(t, tc.raw).ExecutionRequirements()
			if r.TotalDuration != tc.total || r.MaxVUs != tc.maxVUs {
				t.Errorf("got totalDuration %v maxVUs %d, want %v and %d", r.TotalDuration, r.MaxVUs, tc.total, tc.maxVUs)
			}
		})
	}
}

func withField(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for key, val := range m {
		out[key] = val
	}
	out[k] = v
	return out
}

// A ramp that goes down and back up within gracefulRampDown keeps its VUs
// reserved throughout: 10 → 2 → 10 over 4s with a 10s grace never frees one.
func TestRampDownClimbsBackWithinGrace(t *testing.T) {
	sc := NewScenario("r", RampingVUs)
	sc.StartVUs, sc.GracefulRampDown, sc.GracefulStop = 10, Duration(10*time.Second), 0
	sc.Stages = []Stage{{Duration(2 * time.Second), 2}, {Duration(2 * time.Second), 10}, {Duration(time.Second), 10}}
	plan := ScenarioPlan(sc)
	want := []PlanStep{{At: 0, Planned: 10}, {At: 5 * time.Second}}
	if len(plan) != len(want) || plan[0] != want[0] || plan[1] != want[1] {
		t.Errorf("plan = %+v, want %+v", plan, want)
	}
}

func TestExecutionRequirementsJSON(t *testing.T) {
	o := consolidated(t, map[string]any{
		"scenarios":  map[string]any{"r": ramp("5s")},
		"thresholds": map[string]any{"checks": []any{"rate>0.9"}},
	})
	b, err := o.ExecutionRequirementsJSON()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		TotalDuration string              `json:"totalDuration"`
		MaxVUs        int64               `json:"maxVUs"`
		Scenarios     map[string]any      `json:"scenarios"`
		Thresholds    map[string][]string `json:"thresholds"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if d, err := time.ParseDuration(got.TotalDuration); err != nil || d != 45*time.Second {
		t.Errorf("totalDuration %q (%v), want 45s for time.ParseDuration", got.TotalDuration, err)
	}
	if got.MaxVUs != 10 || got.Scenarios["r"] == nil || got.Thresholds["checks"][0] != "rate>0.9" {
		t.Errorf("got %s", b)
	}
}

// steps builds a plan from (seconds, VUs) pairs.
func steps(pairs ...int64) []PlanStep {
	var out []PlanStep
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, PlanStep{At: time.Duration(pairs[i]) * time.Second, Planned: pairs[i+1]})
	}
	return out
}

// The plan of a ramping-vus scenario that goes up and down several
// times, under several gracefulStop and gracefulRampDown values: the
// expectations are the ones k6 documents in its executor tests for the
// same stages (ramping down, VUs stay reserved until the count has been
// lower for gracefulRampDown; nothing outlives the stages + gracefulStop).
func TestRampingVUsPlan(t *testing.T) {
	sc := NewScenario("r", RampingVUs)
	sc.StartVUs = 4
	for _, st := range [][2]int64{{2, 6}, {5, 1}, {4, 5}, {4, 1}, {3, 4}, {2, 4}, {0, 1}, {3, 1}} {
		sc.Stages = append(sc.Stages, Stage{Duration(time.Duration(st[0]) * time.Second), st[1]})
	}
	raw := steps(0, 4, 1, 5, 2, 6, 3, 5, 4, 4, 5, 3, 6, 2, 7, 1, 8, 2, 9, 3, 10, 4, 11, 5,
		12, 4, 13, 3, 14, 2, 15, 1, 16, 2, 17, 3, 18, 4, 20, 1)
	if got := rampRawSteps(sc.StartVUs, sc.Stages); !slices.Equal(got, raw) {
		t.Errorf("raw steps:\n%v\nwant\n%v", got, raw)
	}
	for _, tc := range []struct {
		stop, rampDown int64
		want           []PlanStep
	}{
		{30, 30, steps(0, 4, 1, 5, 2, 6, 33, 5, 42, 4, 50, 1, 53, 0)},
		{80, 30, steps(0, 4, 1, 5, 2, 6, 33, 5, 42, 4, 50, 1, 103, 0)},
		{3, 30, steps(0, 4, 1, 5, 2, 6, 26, 0)},
		{0, 30, steps(0, 4, 1, 5, 2, 6, 23, 0)},
		{0, 0, append(raw, PlanStep{At: 23 * time.Second})},
	} {
		sc.GracefulStop = Duration(time.Duration(tc.stop) * time.Second)
		sc.GracefulRampDown = Duration(time.Duration(tc.rampDown) * time.Second)
		if got := ScenarioPlan(sc); !slices.Equal(got, tc.want) {
			t.Errorf("gracefulStop %ds gracefulRampDown %ds:\n%v\nwant\n%v", tc.stop, tc.rampDown, got, tc.want)
		}
	}
}
