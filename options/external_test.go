package options

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// externally-controlled reads k6's options: vus (0 when unset), maxVUs
// (vus when unset), a required duration where 0 means until stopped, and
// no gracefulStop, whatever its value.
func TestExternallyControlledOptions(t *testing.T) {
	base := func(f func(sc *Scenario)) Scenario {
		sc := Scenario{Name: "s", Executor: ExternallyControlled, Exec: "default"}
		f(&sc)
		return sc
	}
	for _, tc := range []struct {
		name string
		raw  map[string]any
		want Scenario
		errs []string
	}{
		{"maxVUs defaults to vus", map[string]any{"vus": int64(3), "duration": "1m"},
			base(func(sc *Scenario) { sc.VUs, sc.MaxVUs, sc.Duration = 3, 3, Duration(time.Minute) }), nil},
		{"no VUs until scaled, forever", map[string]any{"maxVUs": int64(4), "duration": "0"},
			base(func(sc *Scenario) { sc.MaxVUs = 4 }), nil},
		{"duration required", map[string]any{"vus": int64(1)}, Scenario{},
			[]string{"scenarios.s.duration: required for executor externally-controlled"}},
		{"gracefulStop refused even at 0", map[string]any{"duration": "1s", "gracefulStop": "0s"}, Scenario{},
			[]string{"scenarios.s.gracefulStop: not supported by the externally-controlled executor"}},
		{"fields of other executors", map[string]any{"duration": "1s", "preAllocatedVUs": int64(1)}, Scenario{},
			[]string{`unknown field "preAllocatedVUs" for executor externally-controlled`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := map[string]any{"executor": "externally-controlled"}
			for k, v := range tc.raw {
				raw[k] = v
			}
			got, err := parseOne(t, raw)
			checkErrors(t, err, tc.errs...)
			if tc.errs == nil && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestExternallyControlledValidate(t *testing.T) {
	sc := func(vus, maxVUs int64, d time.Duration) Scenario {
		s := NewScenario("s", ExternallyControlled)
		s.VUs, s.MaxVUs, s.Duration = vus, maxVUs, Duration(d)
		return s
	}
	for _, tc := range []struct {
		name string
		sc   Scenario
		want []string
	}{
		{"all zero: scaled later, until stopped", sc(0, 0, 0), nil},
		{"vus up to maxVUs", sc(2, 2, time.Second), nil},
		{"negative vus", sc(-1, 0, time.Second), []string{"scenarios.s.vus: must not be negative"}},
		{"vus above maxVUs", sc(5, 4, time.Second), []string{"scenarios.s.maxVUs: 4 is less than vus (5)"}},
		{"negative duration", sc(1, 1, -time.Second), []string{"scenarios.s.duration: must not be negative; 0 runs until"}},
		{"a gracefulStop set in Go", func() Scenario { s := sc(1, 1, time.Second); s.GracefulStop = 1; return s }(),
			[]string{"scenarios.s.gracefulStop: not supported"}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkErrors(t, joinErrs(tc.sc.Validate()), tc.want...) })
	}
}

// Its plan reserves maxVUs, all planned, for its duration with no
// graceful stop; with duration 0 it never ends, so the test's total
// duration is that of the other scenarios' last change, as k6 reports it.
func TestExternallyControlledRequirements(t *testing.T) {
	ext := func(d string) map[string]any {
		return map[string]any{"executor": "externally-controlled", "vus": int64(1), "maxVUs": int64(4), "duration": d}
	}
	shared := map[string]any{"executor": "shared-iterations", "vus": int64(2), "iterations": int64(2), "maxDuration": "10s"}
	for _, tc := range []struct {
		name   string
		raw    map[string]any
		total  time.Duration
		maxVUs int64
	}{
		{"duration, no graceful stop", map[string]any{"e": ext("10s")}, 10 * time.Second, 4},
		{"until stopped", map[string]any{"e": ext("0")}, 0, 4},
		// The shared scenario ends at 40s (10s + gracefulStop 30s); the
		// endless one keeps its 4 VUs.
		{"until stopped, with another", map[string]any{"e": ext("0"), "s": shared}, 40 * time.Second, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := consolidated(t, map[string]any{"scenarios": tc.raw}).ExecutionRequirements()
			if r.TotalDuration != tc.total || r.MaxVUs != tc.maxVUs {
				t.Errorf("requirements = %+v, want total %s and %d VUs", r, tc.total, tc.maxVUs)
			}
		})
	}
}

// inspect prints k6's fields of the executor and no gracefulStop.
func TestExternallyControlledInspect(t *testing.T) {
	o := consolidated(t, map[string]any{"scenarios": map[string]any{"e": map[string]any{
		"executor": "externally-controlled", "vus": int64(1), "maxVUs": int64(4), "duration": "10s"}}})
	b, err := o.InspectJSON()
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Scenarios map[string]map[string]any }
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"executor": "externally-controlled", "startTime": "0s", "exec": "default",
		"vus": 1.0, "maxVUs": 4.0, "duration": "10s"}
	if !reflect.DeepEqual(got.Scenarios["e"], want) {
		t.Errorf("inspect shows %v, want %v", got.Scenarios["e"], want)
	}
}

// Under a segment the scenario keeps the whole test's counts (its
// executor scales them and the REST API's), while the VU ceiling counts
// this instance's share of maxVUs, all initialised before the start.
func TestExternallyControlledSegment(t *testing.T) {
	o := fromJSON(t, `{"executionSegment": "0:1/2", "executionSegmentSequence": "0,1/2,1",
		"scenarios": {"e": {"executor": "externally-controlled", "vus": 2, "maxVUs": 10, "duration": "1s"}}}`)
	tuple, err := o.ExecutionTuple()
	if err != nil {
		t.Fatal(err)
	}
	if got := ScaleScenario(o.Scenarios[0], tuple); got.VUs != 2 || got.MaxVUs != 10 {
		t.Errorf("ScaleScenario scaled to %d/%d VUs, want the whole test's 2/10", got.VUs, got.MaxVUs)
	}
	err = o.CheckVULimit(VULimit{MaxVUs: 4})
	if err == nil || !strings.Contains(err.Error(), "scenarios.e.maxVUs: 5 VUs (this instance's share of 10)") {
		t.Errorf("CheckVULimit = %v, want maxVUs' share of 5 above the ceiling of 4", err)
	}
}
