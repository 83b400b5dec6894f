// Package metrics holds the metric model of the runner: metric types, samples,
// the sinks that aggregate them, the registry of named metrics, the ingestion
// engine and the thresholds evaluated on them.
package metrics

import (
	"fmt"
	"regexp"
	"time"
)

// MetricType is the aggregation kind of a metric, as k6 defines it.
type MetricType uint8

// The four metric types.
const (
	Counter MetricType = iota + 1
	Gauge
	Rate
	Trend
)

// String returns the lower-case name k6 uses for the type ("counter", …).
func (t MetricType) String() string {
	switch t {
	case Counter:
		return "counter"
	case Gauge:
		return "gauge"
	case Rate:
		return "rate"
	case Trend:
		return "trend"
	}
	return fmt.Sprintf("MetricType(%d)", uint8(t))
}

// ValueType says what a metric's values are: plain numbers, durations in
// milliseconds, or byte counts.
type ValueType uint8

// The value types.
const (
	Default ValueType = iota
	Time
	Data
)

// String returns the name k6 uses for the value type ("default", "time", "data").
func (v ValueType) String() string {
	switch v {
	case Time:
		return "time"
	case Data:
		return "data"
	}
	return "default"
}

// Tags is a set of metric tags. A Tags value placed in a Sample must not be
// modified afterwards: samples share their tag maps.
type Tags map[string]string

// With returns a copy of t with key set to value.
func (t Tags) With(key, value string) Tags {
	out := make(Tags, len(t)+1)
	for k, v := range t {
		out[k] = v
	}
	out[key] = value
	return out
}

// WithAll returns a copy of t with every pair of extra added, in one map:
// adding several tags one With at a time copies the map each time.
func (t Tags) WithAll(extra map[string]string) Tags {
	if len(extra) == 0 {
		return t
	}
	out := make(Tags, len(t)+len(extra))
	for k, v := range t {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// Contains reports whether every pair of sel is present in t.
func (t Tags) Contains(sel Tags) bool {
	for k, v := range sel {
		if got, ok := t[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// Sample is one measured value of a metric at a point in time.
type Sample struct {
	Metric *Metric
	Tags   Tags
	Time   time.Time
	Value  float64
	// Metadata are key-value pairs that travel with the sample to the
	// outputs without being tags: they make no time series and no
	// submetric selects them (k6's exec.vu.metrics.metadata, e.g. a trace
	// id). Nil for most samples.
	Metadata Tags
}

// Metric is a named metric with its aggregate over the whole run. Submetrics
// aggregate the subset of its samples whose tags match a selector.
type Metric struct {
	Name       string
	Type       MetricType
	Contains   ValueType
	Sink       Sink
	Submetrics []*Submetric
	Thresholds []*Threshold

	// Parent and Selector are set when the metric is the aggregate of a
	// submetric: Name is then "parent{k:v}".
	Parent   *Metric
	Selector Tags
}

// Submetric is the part of a parent metric selected by tags.
type Submetric struct {
	Selector Tags
	Metric   *Metric
}

var nameRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{1,128}$`)

// ValidName reports whether name is an acceptable metric name: a letter or
// underscore followed by 1 to 128 letters, digits or underscores.
func ValidName(name string) bool { return nameRE.MatchString(name) }

func newMetric(name string, t MetricType, vt ValueType) *Metric {
	return &Metric{Name: name, Type: t, Contains: vt, Sink: NewSink(t)}
}
