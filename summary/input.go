// Package summary builds the end-of-test results of a run in the three forms
// k6 users know: the text summary printed at the end of the test (Text), the
// object passed to a script's handleSummary(data) (Data) and the JSON file
// written by --summary-export (Export).
//
// The package reads aggregates only; it never changes a metric. The caller
// must hold the metrics engine lock (metrics.Engine.Read) or have stopped
// pushing samples while a summary is built, because reading a trend's
// percentiles sorts its values in place.
package summary

import (
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// DefaultTrendStats are the trend statistics shown when a script sets no
// summaryTrendStats, as in k6.
var DefaultTrendStats = []string{"avg", "min", "med", "max", "p(90)", "p(95)"}

// Input is everything a summary is built from. The caller holds the metrics
// engine lock or has stopped pushing.
type Input struct {
	// Metrics are the top-level metrics of the run; their submetrics are
	// reached through Metric.Submetrics. Metrics without samples and without
	// thresholds are left out of every summary.
	Metrics []*metrics.Metric
	// Root is the root of the group and check tree; nil means no groups and
	// no checks.
	Root *metrics.Group
	// TrendStats are the statistics of trend metrics, in display order:
	// "avg", "min", "med", "max", "count" and "p(N)" with 0 ≤ N ≤ 100
	// ("p(95)", "p(99.9)"). Empty means DefaultTrendStats.
	TrendStats []string
	// TimeUnit fixes the unit of time values in the text summary: "s", "ms"
	// or "us". Empty (or anything else) picks a unit per value.
	TimeUnit string
	// Duration is the test run duration; counter rates are per second of it.
	Duration time.Duration
	// SetupData is the value setup() returned; nil when there was none.
	SetupData any
	// Streaming, when the run used the streaming probe, breaks the usefulsse
	// metrics down per bucket (see metrics.ProbeBreakdownNames); nil otherwise.
	Streaming *metrics.Breakdown
	// ByScenario, when set, breaks every metric down per scenario: the full
	// summary then has a SCENARIO section for each.
	ByScenario *metrics.Breakdown
	// ChecksByScenario, with ByScenario, lists each scenario's checks by
	// name under its checks table.
	ChecksByScenario *metrics.CheckTally
	// ByGroup, when set, breaks every metric down per group path
	// ("::a::b"): the full summary's GROUP sections then show the
	// group's metrics under its checks.
	ByGroup *metrics.Breakdown
	// NoColor, IsStdOutTTY and IsStdErrTTY are passed to handleSummary in
	// data.options.noColor and data.state.
	NoColor, IsStdOutTTY, IsStdErrTTY bool
}

// trendStats returns the trend statistics to compute.
func (in Input) trendStats() []string {
	if len(in.TrendStats) == 0 {
		return DefaultTrendStats
	}
	return in.TrendStats
}

// shownMetrics returns the metrics and submetrics that have samples or
// thresholds, each once.
func (in Input) shownMetrics() []*metrics.Metric {
	var out []*metrics.Metric
	for _, m := range flatten(in.Metrics) {
		if shown(m) {
			out = append(out, m)
		}
	}
	return out
}
