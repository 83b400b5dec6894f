package options

import (
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

func TestConsolidateDefaults(t *testing.T) {
	o, err := Consolidate()
	checkErrors(t, err)
	want := NewScenario("default", PerVUIterations)
	if len(o.Scenarios) != 1 || !reflect.DeepEqual(o.Scenarios[0], want) {
		t.Fatalf("scenarios = %+v", o.Scenarios)
	}
	if want.VUs != 1 || want.Iterations != 1 {
		t.Fatalf("default scenario is not 1 VU × 1 iteration: %+v", want)
	}
	if !slices.Equal(o.SummaryTrendStats, []string{"avg", "min", "med", "max", "p(90)", "p(95)"}) {
		t.Fatalf("summaryTrendStats = %v", o.SummaryTrendStats)
	}
	if o.SetupTimeout != Duration(time.Minute) || o.TeardownTimeout != Duration(time.Minute) {
		t.Fatalf("timeouts = %v, %v", o.SetupTimeout, o.TeardownTimeout)
	}
}

// scenarioLayer is a layer with one per-vu-iterations scenario named name.
func scenarioLayer(source, name string) Options {
	return Options{Source: source, Scenarios: []Scenario{NewScenario(name, PerVUIterations)}}
}

func TestConsolidateExecution(t *testing.T) {
	sec := func(n int) *Duration { return ptr(Duration(time.Duration(n) * time.Second)) }
	scenario := func(executor string, f func(*Scenario)) []Scenario {
		sc := NewScenario("default", executor)
		f(&sc)
		return []Scenario{sc}
	}
	tests := []struct {
		name     string
		layers   []Options
		want     []Scenario
		warnings []string
	}{
		{"iterations → shared-iterations", []Options{{Iterations: ptr[int64](10)}},
			scenario(SharedIterations, func(sc *Scenario) { sc.Iterations = 10 }), nil},
		{"iterations with vus and duration → maxDuration", []Options{{VUs: ptr[int64](5), Iterations: ptr[int64](10), Duration: sec(20)}},
			scenario(SharedIterations, func(sc *Scenario) { sc.VUs, sc.Iterations, sc.MaxDuration = 5, 10, *sec(20) }), nil},
		{"duration → constant-vus", []Options{{Duration: sec(30)}},
			scenario(ConstantVUs, func(sc *Scenario) { sc.Duration = *sec(30) }), nil},
		{"vus and duration", []Options{{VUs: ptr[int64](7), Duration: sec(30)}},
			scenario(ConstantVUs, func(sc *Scenario) { sc.VUs, sc.Duration = 7, *sec(30) }), nil},
		{"stages → ramping-vus", []Options{{Stages: []Stage{{*sec(10), 5}}}},
			scenario(RampingVUs, func(sc *Scenario) { sc.Stages = []Stage{{*sec(10), 5}} }), nil},
		{"stages start at vus", []Options{{VUs: ptr[int64](0), Stages: []Stage{{*sec(10), 5}}}},
			scenario(RampingVUs, func(sc *Scenario) { sc.StartVUs, sc.Stages = 0, []Stage{{*sec(10), 5}} }), nil},
		{"vus alone is ignored", []Options{{VUs: ptr[int64](10)}},
			scenario(PerVUIterations, func(*Scenario) {}),
			[]string{"vus=10 ignored: it only works with iterations, duration or stages"}},
		{"higher shortcut replaces scenarios", []Options{scenarioLayer("script", "api"), {Iterations: ptr[int64](3)}},
			scenario(SharedIterations, func(sc *Scenario) { sc.Iterations = 3 }), nil},
		{"higher stages replace lower duration", []Options{{Duration: sec(30)}, {Stages: []Stage{{*sec(5), 2}}}},
			scenario(RampingVUs, func(sc *Scenario) { sc.Stages = []Stage{{*sec(5), 2}} }), nil},
		{"higher duration replaces lower stages and iterations", []Options{
			{Iterations: ptr[int64](5), Duration: sec(5)}, {Duration: sec(9)}},
			scenario(ConstantVUs, func(sc *Scenario) { sc.Duration = *sec(9) }), nil},
		{"higher scenarios replace lower shortcuts", []Options{{Duration: sec(30)}, scenarioLayer("flags", "x")},
			[]Scenario{NewScenario("x", PerVUIterations)}, nil},
		{"vus does not replace scenarios", []Options{scenarioLayer("script", "api"), {VUs: ptr[int64](4)}},
			[]Scenario{NewScenario("api", PerVUIterations)}, []string{"vus=4 ignored: scenarios set their own VUs"}},
		{"vus from a higher layer reaches lower shortcuts", []Options{{Iterations: ptr[int64](8)}, {VUs: ptr[int64](4)}},
			scenario(SharedIterations, func(sc *Scenario) { sc.VUs, sc.Iterations = 4, 8 }), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Consolidate(tt.layers...)
			checkErrors(t, err)
			if !reflect.DeepEqual(o.Scenarios, tt.want) {
				t.Fatalf("scenarios:\n got %+v\nwant %+v", o.Scenarios, tt.want)
			}
			if !slices.Equal(o.Warnings, tt.warnings) {
				t.Fatalf("warnings = %q, want %q", o.Warnings, tt.warnings)
			}
		})
	}
}

func TestConsolidateSortsScenarios(t *testing.T) {
	layer := Options{Scenarios: []Scenario{
		NewScenario("zeta", PerVUIterations), NewScenario("alpha", PerVUIterations), NewScenario("mid", PerVUIterations)}}
	o, err := Consolidate(layer)
	checkErrors(t, err)
	var names []string
	for _, sc := range o.Scenarios {
		names = append(names, sc.Name)
	}
	if !slices.Equal(names, []string{"alpha", "mid", "zeta"}) {
		t.Fatalf("names = %v", names)
	}
	if layer.Scenarios[0].Name != "zeta" {
		t.Fatal("Consolidate reordered the layer's scenarios")
	}
}

func TestConsolidateMerge(t *testing.T) {
	script := Options{
		Source:            "script",
		Tags:              map[string]string{"a": "script", "b": "script"},
		Env:               map[string]string{"X": "1"},
		Thresholds:        map[string][]metrics.ThresholdConfig{"checks": {{Source: "rate>0.9"}}},
		SummaryTrendStats: []string{"avg"},
		SummaryTimeUnit:   "s",
		SetupTimeout:      Duration(5 * time.Second),
		InsecureSkipTLS:   true,
		Warnings:          []string{"w1"},
		Out:               []string{"json"},
	}
	env := Options{
		Source:          "environment",
		SummaryTimeUnit: "ms",
		NoSummary:       true,
		Out:             []string{"csv"},
		Warnings:        []string{"w2"},
	}
	flags := Options{
		Source:            "flags",
		Tags:              map[string]string{"b": "flags", "c": "flags"},
		Env:               map[string]string{"Y": "2"},
		SummaryTrendStats: []string{"max"},
		Quiet:             true,
	}
	o, err := Consolidate(script, env, flags)
	checkErrors(t, err)
	checks := []struct {
		name      string
		got, want any
	}{
		{"tags merge per key", o.Tags, map[string]string{"a": "script", "b": "flags", "c": "flags"}},
		{"env merges", o.Env, map[string]string{"X": "1", "Y": "2"}},
		{"thresholds from script", o.Thresholds, script.Thresholds},
		{"highest slice wins", o.SummaryTrendStats, []string{"max"}},
		{"highest string wins", o.SummaryTimeUnit, "ms"},
		{"unset string keeps lower", o.SetupTimeout, Duration(5 * time.Second)},
		{"unset duration defaults", o.TeardownTimeout, DefaultSetupTimeout},
		{"bools from any layer", []bool{o.InsecureSkipTLS, o.NoSummary, o.Quiet, o.NoThresholds}, []bool{true, true, true, false}},
		{"out from the highest layer", o.Out, []string{"csv"}},
		{"warnings concatenated", o.Warnings, []string{"w1", "w2"}},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if !maps.Equal(script.Tags, map[string]string{"a": "script", "b": "script"}) {
		t.Error("Consolidate modified a layer's tags")
	}
}

func TestConsolidateErrors(t *testing.T) {
	sec := func(n int) *Duration { return ptr(Duration(time.Duration(n) * time.Second)) }
	withScenarios := func(o Options) Options {
		o.Scenarios = scenarioLayer("", "s").Scenarios
		return o
	}
	tests := []struct {
		name   string
		layers []Options
		want   []string
	}{
		{"scenarios with duration in one layer", []Options{withScenarios(Options{Source: "script", Duration: sec(5)})},
			[]string{"script: duration and scenarios cannot be used together"}},
		{"scenarios with iterations and stages", []Options{withScenarios(Options{Source: "flags",
			Iterations: ptr[int64](1), Stages: []Stage{{*sec(1), 1}}})},
			[]string{"flags: iterations and stages and scenarios cannot be used together"}},
		{"stages with duration", []Options{{Duration: sec(5), Stages: []Stage{{*sec(1), 1}}}},
			[]string{"options: duration and stages cannot be used together"}},
		{"conflict even when overridden", []Options{
			{Source: "script", Duration: sec(5), Stages: []Stage{{*sec(1), 1}}}, {Iterations: ptr[int64](2)}},
			[]string{"script: duration and stages"}},
		{"zero duration", []Options{{Duration: sec(0)}}, []string{"duration: must be more than 0"}},
		{"zero duration with iterations", []Options{{Duration: sec(0), Iterations: ptr[int64](1)}},
			[]string{"duration: must be more than 0"}},
		{"zero duration and other problems", []Options{{Duration: sec(0), SummaryTimeUnit: "m"}},
			[]string{"summaryTimeUnit: invalid time unit", "duration: must be more than 0"}},
		{"iterations below vus", []Options{{VUs: ptr[int64](10), Iterations: ptr[int64](5)}},
			[]string{"scenarios.default.iterations: 5 iterations cannot be shared by 10 VUs"}},
		{"zero vus with duration", []Options{{VUs: ptr[int64](0), Duration: sec(5)}},
			[]string{"scenarios.default.vus: must be more than 0"}},
		{"empty scenarios", []Options{{Scenarios: []Scenario{}}}, []string{"scenarios: no scenario defined"}},
		{"segment outside sequence", []Options{{ExecutionSegment: "0:1/3", ExecutionSegmentSequence: "0,1/2,1"}},
			[]string{"executionSegment: segment 0:1/3 is not one of the segments of sequence 0,1/2,1"}},
		{"every problem at once", []Options{{
			SummaryTrendStats: []string{"avg", "p95"}, SummaryTimeUnit: "h", SetupTimeout: -1,
			ExecutionSegment: "nope", Scenarios: []Scenario{{Name: "bad name", Executor: ConstantVUs, Exec: "default"}},
		}}, []string{
			`summaryTrendStats: invalid trend stat "p95"`,
			`summaryTimeUnit: invalid time unit "h"`,
			"setupTimeout: must not be negative",
			`executionSegment: execution segment "nope"`,
			`scenarios.bad name: invalid scenario name`,
			"scenarios.bad name.vus: must be more than 0",
			"scenarios.bad name.duration: must be more than 0",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Consolidate(tt.layers...)
			checkErrors(t, err, tt.want...)
		})
	}
}

func TestValidTrendStat(t *testing.T) {
	tests := []struct {
		stat string
		ok   bool
	}{
		{"avg", true}, {"min", true}, {"med", true}, {"max", true}, {"count", true},
		{"p(0)", true}, {"p(95)", true}, {"p(99.99)", true}, {"p(100)", true},
		{"p(100.1)", false}, {"p(-1)", false}, {"p95", false}, {"p()", false}, {"mean", false}, {"AVG", false}, {"", false},
		{"sum", false}, {"rate", false}, {"value", false},
	}
	for _, tt := range tests {
		t.Run(tt.stat, func(t *testing.T) {
			if err := checkTrendStats([]string{tt.stat}); (err == nil) != tt.ok {
				t.Fatalf("checkTrendStats(%q) = %v", tt.stat, err)
			}
		})
	}
}
