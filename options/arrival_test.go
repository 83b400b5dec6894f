package options

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// arrivalRaw is a valid constant-arrival-rate scenario with extra fields.
func arrivalRaw(extra map[string]any) map[string]any {
	raw := map[string]any{"executor": "constant-arrival-rate", "rate": int64(50), "duration": "3s", "preAllocatedVUs": int64(5)}
	for k, v := range extra {
		raw[k] = v
	}
	return raw
}

// consolidateOne parses and consolidates a script with scenario "s".
func consolidateOne(raw map[string]any) (Options, error) {
	script, err := FromScript(map[string]any{"scenarios": map[string]any{"s": raw}})
	if err != nil {
		return script, err
	}
	return Consolidate(script)
}

func TestArrivalOptions(t *testing.T) {
	ramping := map[string]any{"executor": "ramping-arrival-rate", "preAllocatedVUs": int64(2),
		"stages": []any{map[string]any{"duration": "10s", "target": int64(5)}}}
	tests := []struct {
		name  string
		raw   map[string]any
		shape float64
		seed  int64
	}{
		{"default is the regular schedule", arrivalRaw(nil), 0, 0},
		{"constant", arrivalRaw(map[string]any{"arrival": "constant", "arrivalSeed": int64(4)}), 0, 4},
		{"poisson", arrivalRaw(map[string]any{"arrival": "poisson"}), 1, 0},
		{"gamma without burstiness is poisson", arrivalRaw(map[string]any{"arrival": "gamma"}), 1, 0},
		{"gamma", arrivalRaw(map[string]any{"arrival": "gamma", "burstiness": 0.25, "arrivalSeed": 7.0}), 0.25, 7},
		{"integral burstiness", arrivalRaw(map[string]any{"arrival": "gamma", "burstiness": int64(4)}), 4, 0},
		{"negative seed", arrivalRaw(map[string]any{"arrival": "poisson", "arrivalSeed": int64(-3)}), 1, -3},
		{"ramping gamma", merged(ramping, map[string]any{"arrival": "gamma", "burstiness": 3.5}), 3.5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := consolidateOne(tt.raw)
			checkErrors(t, err)
			sc := o.Scenarios[0]
			if sc.ArrivalShape() != tt.shape || sc.ArrivalSeed != tt.seed {
				t.Errorf("shape %v seed %d, want %v and %d", sc.ArrivalShape(), sc.ArrivalSeed, tt.shape, tt.seed)
			}
		})
	}
}

func merged(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestArrivalOptionErrors: every problem of the arrival options is named,
// all at once, at scenarios.<name>.<option>.
func TestArrivalOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]any
		want []string
	}{
		{"unknown arrival", arrivalRaw(map[string]any{"arrival": "uniform"}),
			[]string{`scenarios.s.arrival: unknown arrival process "uniform": want one of constant, poisson, gamma`}},
		{"arrival not a string", arrivalRaw(map[string]any{"arrival": int64(1)}),
			[]string{"scenarios.s.arrival: expected a string, got number 1"}},
		{"burstiness without arrival", arrivalRaw(map[string]any{"burstiness": 0.5}),
			[]string{"scenarios.s.burstiness: only applies to arrival: 'gamma'"}},
		{"burstiness with poisson", arrivalRaw(map[string]any{"arrival": "poisson", "burstiness": 2.0}),
			[]string{"scenarios.s.burstiness: only applies to arrival: 'gamma'"}},
		{"zero burstiness", arrivalRaw(map[string]any{"arrival": "gamma", "burstiness": int64(0)}),
			[]string{"scenarios.s.burstiness: 0 is out of range: want a number more than 0"}},
		{"negative burstiness", arrivalRaw(map[string]any{"arrival": "gamma", "burstiness": -0.5}),
			[]string{"scenarios.s.burstiness: -0.5 is out of range"}},
		{"huge burstiness", arrivalRaw(map[string]any{"arrival": "gamma", "burstiness": 1e7}),
			[]string{"scenarios.s.burstiness: 1e+07 is out of range: want a number more than 0 and at most 1e+06"}},
		{"NaN burstiness", arrivalRaw(map[string]any{"arrival": "gamma", "burstiness": math.NaN()}),
			[]string{"scenarios.s.burstiness: NaN is out of range"}},
		{"burstiness not a number", arrivalRaw(map[string]any{"arrival": "gamma", "burstiness": "high"}),
			[]string{`scenarios.s.burstiness: expected a number, got string "high"`}},
		{"fractional seed", arrivalRaw(map[string]any{"arrival": "poisson", "arrivalSeed": 1.5}),
			[]string{"scenarios.s.arrivalSeed: 1.5 is not an integer"}},
		{"word seed", arrivalRaw(map[string]any{"arrival": "poisson", "arrivalSeed": "forty-two"}),
			[]string{`scenarios.s.arrivalSeed: expected an integer, got string "forty-two"`}},
		{"not for closed executors", map[string]any{"executor": "constant-vus", "duration": "1s", "arrival": "poisson"},
			[]string{`scenarios.s: unknown field "arrival" for executor constant-vus`}},
		{"every problem at once", arrivalRaw(map[string]any{"arrival": "bursty", "burstiness": int64(0), "arrivalSeed": 0.1}), []string{
			`scenarios.s.arrival: unknown arrival process "bursty"`,
			"scenarios.s.arrivalSeed: 0.1 is not an integer",
			"scenarios.s.burstiness: 0 is out of range",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := consolidateOne(tt.raw)
			checkErrors(t, err, tt.want...)
		})
	}
}

// TestArrivalValidateListsEveryProblem: Validate names an unknown arrival,
// burstiness without gamma and out of range, together with the other
// problems of the scenario.
func TestArrivalValidateListsEveryProblem(t *testing.T) {
	sc := NewScenario("s", RampingArrivalRate)
	sc.Stages, sc.PreAllocatedVUs, sc.MaxVUs = []Stage{{Duration(1e9), 5}}, 1, 1
	sc.Arrival, sc.Burstiness, sc.TimeUnit = "bursty", -1, 0
	checkErrors(t, joinErrs(sc.Validate()),
		`scenarios.s.arrival: unknown arrival process "bursty"`,
		"scenarios.s.burstiness: only applies to arrival: 'gamma'",
		"scenarios.s.burstiness: -1 is out of range",
		"scenarios.s.timeUnit: must be more than 0")
}

// TestArrivalInspect: inspect shows arrival and arrivalSeed for a random
// process, burstiness (resolved) for gamma only, and nothing new for the
// regular schedule; an archive keeps them.
func TestArrivalInspect(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]any
		want map[string]any // the arrival keys expected, nil values absent
	}{
		{"constant", arrivalRaw(map[string]any{"arrival": "constant", "arrivalSeed": int64(3)}),
			map[string]any{"arrival": nil, "burstiness": nil, "arrivalSeed": nil}},
		{"poisson", arrivalRaw(map[string]any{"arrival": "poisson", "arrivalSeed": int64(3)}),
			map[string]any{"arrival": "poisson", "burstiness": nil, "arrivalSeed": 3.0}},
		{"gamma default shape", arrivalRaw(map[string]any{"arrival": "gamma"}),
			map[string]any{"arrival": "gamma", "burstiness": 1.0, "arrivalSeed": 0.0}},
		{"gamma", arrivalRaw(map[string]any{"arrival": "gamma", "burstiness": 0.25, "arrivalSeed": int64(-9)}),
			map[string]any{"arrival": "gamma", "burstiness": 0.25, "arrivalSeed": -9.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := consolidateOne(tt.raw)
			checkErrors(t, err)
			b, err := o.InspectJSON()
			if err != nil {
				t.Fatal(err)
			}
			var view struct{ Scenarios map[string]map[string]any }
			if err := json.Unmarshal(b, &view); err != nil {
				t.Fatal(err)
			}
			for key, want := range tt.want {
				got, ok := view.Scenarios["s"][key]
				if (want == nil && ok) || (want != nil && got != want) {
					t.Errorf("%s = %v (present %v), want %v", key, got, ok, want)
				}
			}
			arc, err := o.ArchiveJSON()
			if err != nil {
				t.Fatal(err)
			}
			back, err := FromArchiveJSON(arc)
			checkErrors(t, err)
			again, err := Consolidate(back)
			checkErrors(t, err)
			if a, b := again.Scenarios[0], o.Scenarios[0]; a.ArrivalShape() != b.ArrivalShape() ||
				(a.ArrivalShape() != 0 && a.ArrivalSeed != b.ArrivalSeed) || !reflect.DeepEqual(a.Stages, b.Stages) {
				t.Errorf("archive gives back %+v, want %+v", a, b)
			}
		})
	}
	// The golden inspect output of the regular schedule has no arrival key.
	o, err := consolidateOne(arrivalRaw(nil))
	checkErrors(t, err)
	if b, _ := o.InspectJSON(); strings.Contains(string(b), `"arrival`) || strings.Contains(string(b), "burstiness") {
		t.Errorf("inspect of the regular schedule names the arrival options:\n%s", b)
	}
}
