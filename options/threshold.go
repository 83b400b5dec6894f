package options

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// parseThresholds reads the script's thresholds object. Each key is a
// metric name with an optional tag selector ("http_req_duration{status:200}");
// each value is a threshold, or an array of them, where a threshold is an
// expression string or an object {threshold, abortOnFail, delayAbortEval}.
// Expressions are checked by the metrics package, not here.
func parseThresholds(v any) (map[string][]metrics.ThresholdConfig, error) {
	m, err := toObject(v)
	if err != nil {
		return nil, at("thresholds", err)
	}
	out := make(map[string][]metrics.ThresholdConfig, len(m))
	var errs []error
	for _, key := range sortedKeys(m) {
		path := fmt.Sprintf("thresholds[%q]", key)
		if strings.TrimSpace(key) == "" {
			errs = append(errs, at(path, errors.New("empty metric name")))
			continue
		}
		list, listErrs := parseThresholdList(path, m[key])
		out[key] = list
		errs = append(errs, listErrs...)
	}
	return out, errors.Join(errs...)
}

// parseThresholdList reads one metric's thresholds: a single threshold or
// an array of them.
func parseThresholdList(path string, v any) ([]metrics.ThresholdConfig, []error) {
	items, ok := v.([]any)
	if !ok {
		tc, err := parseThreshold(v)
		if err != nil {
			return nil, []error{at(path, err)}
		}
		return []metrics.ThresholdConfig{tc}, nil
	}
	out := make([]metrics.ThresholdConfig, 0, len(items))
	var errs []error
	for i, item := range items {
		tc, err := parseThreshold(item)
		if err != nil {
			errs = append(errs, at(fmt.Sprintf("%s[%d]", path, i), err))
			continue
		}
		out = append(out, tc)
	}
	return out, errs
}

// parseThreshold reads one threshold: an expression string or an object.
func parseThreshold(v any) (metrics.ThresholdConfig, error) {
	if s, ok := v.(string); ok {
		return thresholdSource(s)
	}
	m, err := toObject(v)
	if err != nil {
		return metrics.ThresholdConfig{}, fmt.Errorf("expected a threshold string or object, got %s", describe(v))
	}
	return parseThresholdObject(m)
}

var errEmptyThreshold = errors.New("empty threshold expression")

func thresholdSource(s string) (metrics.ThresholdConfig, error) {
	if strings.TrimSpace(s) == "" {
		return metrics.ThresholdConfig{}, errEmptyThreshold
	}
	return metrics.ThresholdConfig{Source: s}, nil
}

// parseThresholdObject reads {threshold, abortOnFail, delayAbortEval};
// threshold is required, delayAbortEval is a non-negative duration.
func parseThresholdObject(m map[string]any) (metrics.ThresholdConfig, error) {
	var tc metrics.ThresholdConfig
	for _, k := range sortedKeys(m) {
		if err := setThresholdField(&tc, k, m[k]); err != nil {
			return metrics.ThresholdConfig{}, err
		}
	}
	if tc.Source == "" {
		return tc, errors.New(`a threshold object needs a "threshold" expression`)
	}
	return tc, nil
}

func setThresholdField(tc *metrics.ThresholdConfig, key string, v any) error {
	var err error
	switch key {
	case "threshold":
		if tc.Source, err = toString(v); err == nil && strings.TrimSpace(tc.Source) == "" {
			err = errEmptyThreshold
		}
	case "abortOnFail":
		tc.AbortOnFail, err = toBool(v)
	case "delayAbortEval":
		var d Duration
		if d, err = toDuration(v); err == nil && d < 0 {
			err = errNegative
		}
		tc.DelayAbortEval = time.Duration(d)
	default:
		return fmt.Errorf("unknown field %q: want threshold, abortOnFail or delayAbortEval", key)
	}
	if err != nil && !errors.Is(err, errNull) {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}
