// Package result is the mergeable result of a run: everything the summary,
// the thresholds and the per-bucket "where the time goes" table are built
// from, kept without loss so that the results of several runners of one
// test (each running its execution segment) merge into exactly the result
// one process running the whole test would have had.
//
// A File is written by `-o result=PATH` (Write, WriteFile), read back by
// Read and ReadFile, merged by Merge and turned back into metrics, groups
// and thresholds by (*File).Materialize, from which the summary package
// builds the text summary, the export and handleSummary's data. A file is
// untrusted input (merge reads what other machines wrote, the aggregator
// what the network posts): reading one is bounded by Limits, in memory a
// documented multiple of its decompressed size (limit.go).
//
// Trends keep every value, so the merged min, max, avg, median and every
// percentile equal a single process's; counters keep their sum, rates their
// passes and total, gauges their last value (with its time) and extremes.
package result

import (
	"encoding/json"
	"time"
)

// Format names the file format in the header's "format" field.
const Format = "usefullatency-result"

// Version is the format version this build writes and the newest it reads.
// Readers refuse a newer version rather than guess at it.
const Version = 1

// File is one result: a runner's share of a test, or the merge of several.
type File struct {
	// Path is where ReadFile read the file from, for error messages; it is
	// not stored.
	Path string `json:"-"`
	// Format is always Format and Version the format version.
	Format  string `json:"format"`
	Version int    `json:"version"`
	// TestID identifies the test: a SHA-256 of the main script's source and
	// of the options that define the load and the gates (scenarios,
	// thresholds). Files of different tests do not merge.
	TestID string `json:"test_id"`
	// Script is the script's path as the runner was given it.
	Script string `json:"script"`
	// Segments are the execution segments this result covers, "from:to"
	// with rational bounds ("0:1/3"); a runner's file has one, "0:1" when it
	// ran the whole test, a merged file those of every merged file.
	Segments []string `json:"segments"`
	// Sequence is the --execution-segment-sequence the runners shared, ""
	// when none was given.
	Sequence string `json:"segment_sequence,omitempty"`
	// Start is when the scenarios started, End when the result was taken.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// Duration is the test run duration counter rates are per second of:
	// the runner's own for one runner, from the earliest start to the latest
	// end for a merge.
	Duration time.Duration `json:"duration_ns"`
	// Options are the runner's resolved options as `inspect` prints them,
	// for the record.
	Options json.RawMessage `json:"options,omitempty"`
	// Thresholds are the thresholds of the test by metric key ("name" or
	// "name{k:v}"), always recorded; NoThresholds is true when the runner
	// did not evaluate them (--no-thresholds) — merge and the aggregator
	// still do.
	Thresholds   map[string][]Threshold `json:"thresholds,omitempty"`
	NoThresholds bool                   `json:"no_thresholds,omitempty"`
	// SummaryTrendStats and SummaryTimeUnit are the summary options.
	SummaryTrendStats []string `json:"summary_trend_stats,omitempty"`
	SummaryTimeUnit   string   `json:"summary_time_unit,omitempty"`
	// SetupData is what setup() returned, as JSON; empty when nothing. It
	// is often a credential (a login token), so Write leaves it out unless
	// KeepSetupData is set: `-o result=FILE,setupData=true` sets it, Read
	// sets it when the file holds setup data, Merge when a merged file did.
	SetupData     json.RawMessage `json:"setup_data,omitempty"`
	KeepSetupData bool            `json:"-"`
	// Metrics are every metric of the run, with its submetrics.
	Metrics []Metric `json:"metrics"`
	// Groups are the groups of the script, parents before children, each
	// with its checks.
	Groups []Group `json:"groups"`
	// Breakdown is the per-bucket breakdown of the streaming metrics; nil
	// when the script did not use the streaming probe.
	Breakdown *Breakdown `json:"breakdown,omitempty"`
}

// Threshold is one threshold as the script declared it.
type Threshold struct {
	Source         string        `json:"threshold"`
	AbortOnFail    bool          `json:"abort_on_fail,omitempty"`
	DelayAbortEval time.Duration `json:"delay_abort_eval_ns,omitempty"`
}

// Metric is one metric and its aggregate.
type Metric struct {
	Name string `json:"name"`
	// Type is "counter", "gauge", "rate" or "trend"; Contains "default",
	// "time" or "data".
	Type     string `json:"type"`
	Contains string `json:"contains"`
	Sink     Sink   `json:"sink"`
	// Submetrics are the parts of the metric selected by tags.
	Submetrics []Submetric `json:"submetrics,omitempty"`
}

// Submetric is the aggregate of the samples of a metric whose tags contain
// the selector.
type Submetric struct {
	// Selector is "k:v,k2:v2" with sorted keys.
	Selector string `json:"selector"`
	Sink     Sink   `json:"sink"`
}

// Sink is the aggregate of one metric, with the fields of its type set:
//
//   - counter: Sum and Count (number of samples);
//   - gauge: Value, its time Last, Min and Max; Set when a value was added;
//   - rate: Trues and Total;
//   - trend: Count and Values, every value (sorted in a file; the values
//     are stored in the binary part of a file, not in the JSON header).
type Sink struct {
	Sum   float64   `json:"sum,omitempty"`
	Count int64     `json:"count,omitempty"`
	Value float64   `json:"value,omitempty"`
	Min   float64   `json:"min,omitempty"`
	Max   float64   `json:"max,omitempty"`
	Last  time.Time `json:"last,omitzero"`
	Set   bool      `json:"set,omitempty"`
	Trues int64     `json:"trues,omitempty"`
	Total int64     `json:"total,omitempty"`
	// Values are a trend's values.
	Values []float64 `json:"-"`
}

// Group is a group of the script and its checks.
type Group struct {
	// Path is the group's path, "::outer::inner"; "" for the root group.
	Path   string  `json:"path"`
	Checks []Check `json:"checks,omitempty"`
}

// Check is the count of one check of a group.
type Check struct {
	Name   string `json:"name"`
	Passes int64  `json:"passes"`
	Fails  int64  `json:"fails"`
}

// Breakdown is the per-bucket aggregate of some metrics: a sample belongs
// to the bucket named by the first of Keys its tags have.
type Breakdown struct {
	Keys []string `json:"keys"`
	// Metrics names the broken-down metrics with their types.
	Metrics []BreakdownMetric `json:"metrics"`
	Buckets []Bucket          `json:"buckets"`
}

// BreakdownMetric is one broken-down metric.
type BreakdownMetric struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Bucket is one bucket of a breakdown: the aggregate of each metric that
// saw a sample in it.
type Bucket struct {
	Name  string       `json:"name"`
	Sinks []BucketSink `json:"sinks"`
}

// BucketSink is one metric's aggregate in a bucket.
type BucketSink struct {
	Metric string `json:"metric"`
	Sink   Sink   `json:"sink"`
}
