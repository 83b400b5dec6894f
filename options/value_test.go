package options

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// readOption returns a top-level option FromScript set, nil when unset.
var readOption = map[string]func(o Options) any{
	"vus": func(o Options) any {
		if o.VUs == nil {
			return nil
		}
		return *o.VUs
	},
	"duration": func(o Options) any {
		if o.Duration == nil {
			return nil
		}
		return *o.Duration
	},
	"noSetup": func(o Options) any { return o.NoSetup },
}

// TestOptionForms runs each JSON form of k6's option types through
// FromScript: vus is a null.Int, duration a NullDuration, noSetup a
// null.Bool. An accepted form reads as k6 reads it; a refused one is one
// error naming the option and the value.
func TestOptionForms(t *testing.T) {
	ms := func(f float64) Duration { return Duration(f * float64(time.Millisecond)) }
	tests := []struct {
		name   string
		option string
		value  any
		want   any    // the value read; nil is unset
		err    string // the error; "" when the value is accepted
	}{
		{name: "int number", option: "vus", value: int64(4), want: int64(4)},
		{name: "int integral float", option: "vus", value: 4.0, want: int64(4)},
		{name: "int string", option: "vus", value: "4", want: int64(4)},
		{name: "int plus sign", option: "vus", value: "+4", want: int64(4)},
		{name: "int leading zeros", option: "vus", value: "004", want: int64(4)},
		{name: "int minus sign", option: "vus", value: "-4", want: int64(-4)}, // Consolidate refuses it
		{name: "int empty string is unset", option: "vus", value: "", want: nil},
		{name: "int fraction", option: "vus", value: 2.5, err: "vus: 2.5 is not an integer"},
		{name: "int fraction string", option: "vus", value: "2.0", err: `vus: expected an integer, got string "2.0"`},
		{name: "int exponent string", option: "vus", value: "1e3", err: `vus: expected an integer, got string "1e3"`},
		{name: "int spaces", option: "vus", value: " 4", err: `vus: expected an integer, got string " 4"`},
		{name: "int hex", option: "vus", value: "0x10", err: `vus: expected an integer, got string "0x10"`},
		{name: "int word", option: "vus", value: "two", err: `vus: expected an integer, got string "two"`},
		{name: "int beyond int64", option: "vus", value: "9223372036854775808",
			err: `vus: string "9223372036854775808" is out of range`},
		{name: "int boolean", option: "vus", value: true, err: "vus: expected an integer, got boolean"},
		{name: "int array", option: "vus", value: []any{int64(4)}, err: "vus: expected an integer, got array"},

		{name: "duration string", option: "duration", value: "10s", want: Duration(10 * time.Second)},
		{name: "duration days", option: "duration", value: "1d2h", want: Duration(26 * time.Hour)},
		{name: "duration milliseconds", option: "duration", value: int64(1500), want: ms(1500)},
		{name: "duration fractional milliseconds", option: "duration", value: 2.5, want: ms(2.5)},
		{name: "duration milliseconds string", option: "duration", value: "1500", want: ms(1500)},
		{name: "duration exponent string", option: "duration", value: "1e3", want: ms(1000)},
		{name: "duration empty string", option: "duration", value: "", err: "duration: empty duration"},
		{name: "duration spaces", option: "duration", value: " 10s", err: `duration: invalid duration " 10s"`},
		{name: "duration no unit after day", option: "duration", value: "1d5", err: `duration: invalid duration "1d5"`},
		{name: "duration word", option: "duration", value: "soon", err: `duration: invalid duration "soon"`},
		{name: "duration boolean", option: "duration", value: false,
			err: "duration: expected a duration string or milliseconds, got boolean"},

		{name: "bool true", option: "noSetup", value: true, want: true},
		{name: "bool false", option: "noSetup", value: false, want: false},
		{name: "bool string", option: "noSetup", value: "true", err: `noSetup: expected a boolean, got string "true"`},
		{name: "bool empty string", option: "noSetup", value: "", err: `noSetup: expected a boolean, got string ""`},
		{name: "bool number", option: "noSetup", value: int64(1), err: "noSetup: expected a boolean, got number 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := FromScript(map[string]any{tt.option: tt.value})
			if tt.err != "" {
				checkErrors(t, err, tt.err)
				return
			}
			checkErrors(t, err)
			if got := readOption[tt.option](o); got != tt.want {
				t.Fatalf("%s = %#v, want %#v", tt.option, got, tt.want)
			}
		})
	}
}

// TestScenarioFieldForms: every numeric and duration field of the
// executors takes the string forms k6 takes; "" is unset, so a required
// field is then missing and maxVUs falls back to preAllocatedVUs.
func TestScenarioFieldForms(t *testing.T) {
	sec := func(n int) Duration { return Duration(time.Duration(n) * time.Second) }
	tests := []struct {
		name string
		raw  map[string]any
		want func(sc *Scenario) // sets the fields expected beyond NewScenario's
	}{
		{"constant-arrival-rate", map[string]any{"executor": "constant-arrival-rate",
			"rate": "5", "timeUnit": "1000", "duration": "10s", "preAllocatedVUs": "2", "maxVUs": "",
			"startTime": "500", "gracefulStop": int64(1500)},
			func(sc *Scenario) {
				sc.Rate, sc.TimeUnit, sc.Duration, sc.PreAllocatedVUs, sc.MaxVUs = 5, sec(1), sec(10), 2, 2
				sc.StartTime, sc.GracefulStop = Duration(500*time.Millisecond), Duration(1500*time.Millisecond)
			}},
		{"ramping-arrival-rate", map[string]any{"executor": "ramping-arrival-rate",
			"startRate": "+1", "timeUnit": "1m", "preAllocatedVUs": "3", "maxVUs": "6",
			"stages": []any{map[string]any{"duration": "2000", "target": "8"}}},
			func(sc *Scenario) {
				sc.StartRate, sc.TimeUnit, sc.PreAllocatedVUs, sc.MaxVUs = 1, sec(60), 3, 6
				sc.Stages = []Stage{{sec(2), 8}}
			}},
		{"ramping-vus", map[string]any{"executor": "ramping-vus", "startVUs": "0", "gracefulRampDown": "0",
			"stages": []any{map[string]any{"duration": "1s", "target": "3"}}},
			func(sc *Scenario) { sc.StartVUs, sc.GracefulRampDown, sc.Stages = 0, 0, []Stage{{sec(1), 3}} }},
		{"constant-vus", map[string]any{"executor": "constant-vus", "vus": "3", "duration": "1d"},
			func(sc *Scenario) { sc.VUs, sc.Duration = 3, Duration(24*time.Hour) }},
		{"shared-iterations", map[string]any{"executor": "shared-iterations", "vus": "2", "iterations": "4",
			"maxDuration": "1m"},
			func(sc *Scenario) { sc.VUs, sc.Iterations, sc.MaxDuration = 2, 4, sec(60) }},
		{"per-vu-iterations with empty strings", map[string]any{"executor": "per-vu-iterations",
			"vus": "", "iterations": ""},
			func(*Scenario) {}},
		{"arrival options", map[string]any{"executor": "constant-arrival-rate", "rate": "5", "duration": "1s",
			"preAllocatedVUs": "1", "arrival": "gamma", "burstiness": "0.5", "arrivalSeed": "7"},
			func(sc *Scenario) {
				sc.Rate, sc.Duration, sc.PreAllocatedVUs, sc.MaxVUs = 5, sec(1), 1, 1
				sc.Arrival, sc.Burstiness, sc.ArrivalSeed = ArrivalGamma, 0.5, 7
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseOne(t, tt.raw)
			checkErrors(t, err)
			want := NewScenario("s", tt.raw["executor"].(string))
			tt.want(&want)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

// TestScenarioFieldFormErrors: the forms k6 refuses are refused with the
// field's path and the value.
func TestScenarioFieldFormErrors(t *testing.T) {
	car := func(field string, v any) map[string]any {
		raw := map[string]any{"executor": "constant-arrival-rate", "rate": int64(5), "duration": "1s",
			"preAllocatedVUs": int64(1)}
		raw[field] = v
		return raw
	}
	tests := []struct {
		name string
		raw  map[string]any
		want string
	}{
		{"rate with a unit", car("rate", "5/s"), `scenarios.s.rate: expected an integer, got string "5/s"`},
		{"empty rate is missing", car("rate", ""), "scenarios.s.rate: required for executor constant-arrival-rate"},
		{"fractional preAllocatedVUs string", car("preAllocatedVUs", "1.5"),
			`scenarios.s.preAllocatedVUs: expected an integer, got string "1.5"`},
		{"maxVUs boolean", car("maxVUs", true), "scenarios.s.maxVUs: expected an integer, got boolean"},
		{"empty timeUnit", car("timeUnit", ""), "scenarios.s.timeUnit: empty duration"},
		{"gracefulStop word", car("gracefulStop", "later"), `scenarios.s.gracefulStop: invalid duration "later"`},
		{"burstiness word", car("burstiness", "high"), `scenarios.s.burstiness: expected a number, got string "high"`},
		{"empty stage target", map[string]any{"executor": "ramping-vus",
			"stages": []any{map[string]any{"duration": "1s", "target": ""}}},
			"scenarios.s.stages[0]: a stage needs both duration and target"},
		{"stage target word", map[string]any{"executor": "ramping-vus",
			"stages": []any{map[string]any{"duration": "1s", "target": "ten"}}},
			`scenarios.s.stages[0]: target: expected an integer, got string "ten"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseOne(t, tt.raw)
			checkErrors(t, err, tt.want)
			if strings.Contains(err.Error(), errNull.Error()) {
				t.Fatalf("errNull reported: %v", err)
			}
		})
	}
}
