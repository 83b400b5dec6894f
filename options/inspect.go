package options

import (
	"bytes"
	"encoding/json"

	"github.com/usefullatency/usefullatency/metrics"
)

// plainOptions has Options' fields and JSON tags but none of its methods.
type plainOptions Options

// inspectView is the JSON shape InspectJSON prints: the shortcuts, the
// scenarios and thresholds, then the other options. Its own fields hide
// the embedded ones of the same name.
type inspectView struct {
	VUs        *int64              `json:"vus,omitempty"`
	Duration   *Duration           `json:"duration,omitempty"`
	Iterations *int64              `json:"iterations,omitempty"`
	Stages     []Stage             `json:"stages,omitempty"`
	Scenarios  map[string]Scenario `json:"scenarios"`
	Thresholds map[string][]any    `json:"thresholds,omitempty"`
	plainOptions
}

// InspectJSON renders the options as `k6 inspect` prints them, indented
// by two spaces: the shortcuts that were set, "scenarios" as an object
// keyed by name (each with its executor's fields, durations as Go
// duration strings like "1m30s"), "thresholds" as {metric: [expression,
// ...]} (an object {threshold, abortOnFail, delayAbortEval} where the
// script used one), summaryTrendStats, summaryTimeUnit, tags, setupTimeout,
// teardownTimeout, insecureSkipTLSVerify, executionSegment and
// executionSegmentSequence. Call it on consolidated options.
func (o Options) InspectJSON() ([]byte, error) {
	return encodeJSON(o.inspectView(), "  ")
}

// requirementsView is the JSON shape of ExecutionRequirementsJSON.
type requirementsView struct {
	inspectView
	TotalDuration Duration `json:"totalDuration"`
	MaxVUs        int64    `json:"maxVUs"`
}

// ExecutionRequirementsJSON is InspectJSON with the two keys `k6 inspect
// --execution-requirements` adds: "totalDuration", a Go duration string
// ("1m30s"), and "maxVUs", an integer; see ExecutionRequirements.
func (o Options) ExecutionRequirementsJSON() ([]byte, error) {
	r := o.ExecutionRequirements()
	return encodeJSON(requirementsView{o.inspectView(), Duration(r.TotalDuration), r.MaxVUs}, "  ")
}

func (o Options) inspectView() inspectView {
	v := inspectView{
		VUs: o.VUs, Duration: o.Duration, Iterations: o.Iterations, Stages: o.Stages,
		Scenarios: map[string]Scenario{}, plainOptions: plainOptions(o),
	}
	for _, sc := range o.Scenarios {
		v.Scenarios[sc.Name] = sc
	}
	if o.Thresholds != nil {
		v.Thresholds = make(map[string][]any, len(o.Thresholds))
		for name, list := range o.Thresholds {
			v.Thresholds[name] = thresholdsJSON(list)
		}
	}
	return v
}

// encodeJSON marshals v without escaping <, > and & (threshold expressions
// are full of them), indented by indent when it is not empty.
func encodeJSON(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// thresholdObject is the object form of a threshold in InspectJSON.
type thresholdObject struct {
	Threshold      string   `json:"threshold"`
	AbortOnFail    bool     `json:"abortOnFail"`
	DelayAbortEval Duration `json:"delayAbortEval,omitempty"`
}

// thresholdsJSON renders thresholds as their expressions, or as objects
// when they carry abort settings.
func thresholdsJSON(list []metrics.ThresholdConfig) []any {
	out := make([]any, len(list))
	for i, tc := range list {
		out[i] = tc.Source
		if tc.AbortOnFail || tc.DelayAbortEval != 0 {
			out[i] = thresholdObject{tc.Source, tc.AbortOnFail, Duration(tc.DelayAbortEval)}
		}
	}
	return out
}
