package options

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

func TestFromScript(t *testing.T) {
	raw := map[string]any{
		"vus":                      int64(10),
		"duration":                 "30s",
		"iterations":               100.0,
		"summaryTrendStats":        []any{"avg", "p(99)"},
		"summaryTimeUnit":          "ms",
		"tags":                     map[string]any{"env": "staging"},
		"setupTimeout":             "2m",
		"teardownTimeout":          int64(5000),
		"insecureSkipTLSVerify":    true,
		"executionSegment":         "0:1/2",
		"executionSegmentSequence": "0,1/2,1",
		"stages":                   nil,
	}
	o, err := FromScript(raw)
	checkErrors(t, err)
	want := Options{
		VUs: ptr[int64](10), Duration: ptr(Duration(30 * time.Second)), Iterations: ptr[int64](100),
		SummaryTrendStats: []string{"avg", "p(99)"}, SummaryTimeUnit: "ms",
		Tags:         map[string]string{"env": "staging"},
		SetupTimeout: Duration(2 * time.Minute), TeardownTimeout: Duration(5 * time.Second),
		InsecureSkipTLS: true, ExecutionSegment: "0:1/2", ExecutionSegmentSequence: "0,1/2,1",
		Source: "script",
	}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("got  %+v\nwant %+v", o, want)
	}
}

func TestFromScriptStages(t *testing.T) {
	o, err := FromScript(map[string]any{"stages": []any{
		map[string]any{"duration": "30s", "target": int64(20)},
		map[string]any{"duration": int64(1000), "target": 0.0},
	}})
	checkErrors(t, err)
	want := []Stage{{Duration(30 * time.Second), 20}, {Duration(time.Second), 0}}
	if !slices.Equal(o.Stages, want) {
		t.Fatalf("stages = %v", o.Stages)
	}
}

func TestFromScriptWarnings(t *testing.T) {
	o, err := FromScript(map[string]any{
		"foo":                   int64(1),
		"ext":                   map[string]any{},
		"discardResponseBodies": true,
		"noSummary":             true,
		"vus":                   int64(2),
	})
	checkErrors(t, err)
	want := []string{
		`k6 option "ext" is not supported and was ignored`,
		`unknown option "foo" ignored`,
		`unknown option "noSummary" ignored`,
	}
	if !slices.Equal(o.Warnings, want) || *o.VUs != 2 || !o.DiscardResponseBodies {
		t.Fatalf("warnings = %q", o.Warnings)
	}
}

func TestFromScriptErrors(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]any
		want []string
	}{
		{"vus fractional", map[string]any{"vus": 2.5}, []string{"vus: 2.5 is not an integer"}},
		{"vus word", map[string]any{"vus": "ten"}, []string{`vus: expected an integer, got string "ten"`}},
		{"duration bad", map[string]any{"duration": "10 minutes"}, []string{`duration: invalid duration "10 minutes"`}},
		{"duration boolean", map[string]any{"duration": true}, []string{"duration: expected a duration string or milliseconds, got boolean"}},
		{"stages not array", map[string]any{"stages": "30s:10"}, []string{"stages: expected an array"}},
		{"stage bad target", map[string]any{"stages": []any{map[string]any{"duration": "1s", "target": 0.5}}},
			[]string{"stages[0]: target: 0.5 is not an integer"}},
		{"scenarios not object", map[string]any{"scenarios": []any{}}, []string{"scenarios: expected an object, got array"}},
		{"trend stats not strings", map[string]any{"summaryTrendStats": []any{"avg", int64(9)}},
			[]string{"summaryTrendStats: [1]: expected a string"}},
		{"tags not object", map[string]any{"tags": "a:b"}, []string{"tags: expected an object"}},
		{"bool expected", map[string]any{"insecureSkipTLSVerify": "yes"}, []string{"insecureSkipTLSVerify: expected a boolean"}},
		{"segment not string", map[string]any{"executionSegment": 0.5}, []string{"executionSegment: expected a string"}},
		{"every problem reported", map[string]any{"vus": 1.5, "iterations": "x", "setupTimeout": "y"}, []string{
			"iterations:", "setupTimeout:", "vus:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromScript(tt.raw)
			checkErrors(t, err, tt.want...)
		})
	}
}

func TestFromScriptThresholds(t *testing.T) {
	o, err := FromScript(map[string]any{"thresholds": map[string]any{
		"http_req_duration{status:200}": []any{"p(95)<200", map[string]any{
			"threshold": "rate<0.1", "abortOnFail": true, "delayAbortEval": "10s"}},
		"checks":    "rate>0.9",
		"iteration": map[string]any{"threshold": "avg<5", "delayAbortEval": int64(500)},
		"data_sent": map[string]any{"threshold": "count>0", "delayAbortEval": "1500", "abortOnFail": nil},
	}})
	checkErrors(t, err)
	want := map[string][]metrics.ThresholdConfig{
		"http_req_duration{status:200}": {
			{Source: "p(95)<200"},
			{Source: "rate<0.1", AbortOnFail: true, DelayAbortEval: 10 * time.Second},
		},
		"checks":    {{Source: "rate>0.9"}},
		"iteration": {{Source: "avg<5", DelayAbortEval: 500 * time.Millisecond}},
		"data_sent": {{Source: "count>0", DelayAbortEval: 1500 * time.Millisecond}},
	}
	if !reflect.DeepEqual(o.Thresholds, want) {
		t.Fatalf("thresholds = %+v", o.Thresholds)
	}
}

func TestFromScriptThresholdErrors(t *testing.T) {
	tests := []struct {
		name string
		raw  any
		want []string
	}{
		{"not an object", []any{"p(95)<1"}, []string{"thresholds: expected an object, got array"}},
		{"number", map[string]any{"m": int64(1)}, []string{`thresholds["m"]: expected a threshold string or object, got number 1`}},
		{"empty expression", map[string]any{"m": []any{"p(95)<1", " "}}, []string{`thresholds["m"][1]: empty threshold expression`}},
		{"empty metric", map[string]any{"": "p(95)<1"}, []string{`thresholds[""]: empty metric name`}},
		{"object without threshold", map[string]any{"m": []any{map[string]any{"abortOnFail": true}}},
			[]string{`thresholds["m"][0]: a threshold object needs a "threshold" expression`}},
		{"object unknown field", map[string]any{"m": map[string]any{"threshold": "avg<1", "abort": true}},
			[]string{`thresholds["m"]: unknown field "abort"`}},
		{"abortOnFail not bool", map[string]any{"m": []any{map[string]any{"threshold": "avg<1", "abortOnFail": "yes"}}},
			[]string{`thresholds["m"][0]: abortOnFail: expected a boolean`}},
		{"negative delay", map[string]any{"m": []any{map[string]any{"threshold": "avg<1", "delayAbortEval": "-1s"}}},
			[]string{`thresholds["m"][0]: delayAbortEval: must not be negative`}},
		{"several metrics", map[string]any{"a": int64(1), "b": []any{true}}, []string{`thresholds["a"]`, `thresholds["b"][0]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromScript(map[string]any{"thresholds": tt.raw})
			checkErrors(t, err, tt.want...)
		})
	}
}
