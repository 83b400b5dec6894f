package output

import (
	"io"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/result"
)

// WriteMergedReport writes the HTML report of a merged result to name ("-"
// is stdout): thresholds, the per-bucket waterfall, percentiles and checks
// of the whole test, exactly as one run's report shows them. Result files
// keep no time series, so the charts over time show the whole run as one
// window. The thresholds must have been evaluated (result.Run.EvalThresholds).
func WriteMergedReport(name string, run *result.Run, stdout io.Writer) error {
	out, err := openSink(name, stdout)
	if err != nil {
		return err
	}
	width := run.Duration
	if width <= 0 {
		width = time.Second
	}
	a := newAggregate(run.Start, width)
	fillBuckets(a, run.Streaming)
	fillChecks(a, run.Root)
	fillWindow(a, run.Registry)
	err = writeReport(out.w, buildView(a, run.Registry, run.Start.Add(run.Duration)))
	if e := out.Close(); err == nil {
		err = e
	}
	return err
}

// fillBuckets copies the breakdown's per-bucket aggregates into a.
func fillBuckets(a *aggregate, b *metrics.Breakdown) {
	if b == nil {
		return
	}
	for _, g := range b.Groups() {
		bs := a.bucket(g)
		if r, ok := b.Sink(g, metrics.ProbeFailed).(*metrics.RateSink); ok {
			bs.failed = *r
		}
		if r, ok := b.Sink(g, metrics.ProbeUsefulReached).(*metrics.RateSink); ok {
			bs.usefulReached = *r
		}
		if r, ok := b.Sink(g, metrics.ProbeGood).(*metrics.RateSink); ok {
			bs.good = *r
		}
		for _, m := range moments {
			if t, ok := b.Sink(g, m.Metric).(*metrics.TrendSink); ok {
				bs.times[m.Label] = t
			}
		}
	}
}

// fillChecks copies the checks of the group tree into a, depth first.
func fillChecks(a *aggregate, g *metrics.Group) {
	if g == nil {
		return
	}
	for _, c := range g.Checks() {
		passes, fails := c.Counts()
		k := checkKey{group: g.Path, name: c.Name}
		a.checks[k] = &metrics.RateSink{Trues: passes, Total: passes + fails}
		a.order = append(a.order, k)
	}
	for _, sub := range g.Groups() {
		fillChecks(a, sub)
	}
}

// fillWindow puts the run's totals in one window spanning the whole run.
func fillWindow(a *aggregate, reg *metrics.Registry) {
	w := window{}
	if c, ok := metrics.SinkOf[*metrics.CounterSink](reg, "iterations"); ok {
		w.started = c.Sum
	}
	if c, ok := metrics.SinkOf[*metrics.CounterSink](reg, "dropped_iterations"); ok {
		w.dropped = c.Sum
	}
	if r, ok := metrics.SinkOf[*metrics.RateSink](reg, metrics.ProbeFailed); ok {
		w.requests, w.failed = float64(r.Total), float64(r.Trues)
	}
	if r, ok := metrics.SinkOf[*metrics.RateSink](reg, "http_req_failed"); ok {
		w.httpReqs, w.httpFailed = float64(r.Total), float64(r.Trues)
	}
	if g, ok := metrics.SinkOf[*metrics.GaugeSink](reg, "vus_max"); ok && !g.Empty() {
		w.vus, w.hasVUs = g.Max, true
	}
	a.windows = append(a.windows, w)
}
