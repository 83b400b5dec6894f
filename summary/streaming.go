package summary

import (
	"fmt"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// streamingMoments are the probe's moments the "where the time goes" table
// shows, in the order a user lives them.
var streamingMoments = metrics.ProbeMoments()

// streamingPercentiles are the rows of each bucket's table.
var streamingPercentiles = []struct {
	name string
	p    float64
}{{"p50", 0.50}, {"p95", 0.95}, {"p99", 0.99}}

// bucketsKey is the key of the per-bucket breakdown in Data and Export.
const bucketsKey = metrics.ProbePrefix + "buckets"

// bucketRow is one bucket of the streaming breakdown.
type bucketRow struct {
	name                  string
	requests              int64
	usefulReached, failed float64
	good                  *goodput                       // nil: no request of the bucket named objectives
	percentiles           map[string]map[string]*float64 // moment label → p50/p95/p99 → ms (nil: no sample)
}

// goodput is a bucket's usefulsse_good: the share of its requests with
// objectives that met them, and good requests per second of the test.
type goodput struct {
	rate, perSecond float64
}

// goodputOf reads a bucket's usefulsse_good sink: perSecond is the good
// requests (true samples) over the test duration d, 0 when d is not
// positive. ok is false when the bucket has no sample.
func goodputOf(s metrics.Sink, d time.Duration) (*goodput, bool) {
	r, ok := s.(*metrics.RateSink)
	if !ok || r.Total == 0 {
		return nil, false
	}
	g := &goodput{rate: r.Rate()}
	if d > 0 {
		g.perSecond = float64(r.Trues) / d.Seconds()
	}
	return g, true
}

// FormatGoodput formats a bucket's goodput as the "where the time goes"
// table shows it: the share of good requests (as FormatPercent) and good
// requests per second, rounded to 2 decimals: "97.50% (3.1/s)".
func FormatGoodput(rate, perSecond float64) string {
	return FormatPercent(rate) + " (" + trimZeros(toFixed(perSecond, 2)) + "/s)"
}

// streamingRows reads the breakdown into rows, one per bucket; d is the
// test duration, for the good requests per second.
func streamingRows(b *metrics.Breakdown, d time.Duration) []bucketRow {
	if b == nil {
		return nil
	}
	var rows []bucketRow
	for _, g := range b.Groups() {
		row := bucketRow{name: g, percentiles: map[string]map[string]*float64{}}
		if r, ok := b.Sink(g, metrics.ProbeFailed).(*metrics.RateSink); ok {
			row.requests, row.failed = r.Total, r.Rate()
		}
		if r, ok := b.Sink(g, metrics.ProbeUsefulReached).(*metrics.RateSink); ok {
			row.usefulReached = r.Rate()
		}
		if g, ok := goodputOf(b.Sink(g, metrics.ProbeGood), d); ok {
			row.good = g
		}
		for _, m := range streamingMoments {
			row.percentiles[m.Label] = columnPercentiles(b.Sink(g, m.Metric))
		}
		rows = append(rows, row)
	}
	return rows
}

func columnPercentiles(s metrics.Sink) map[string]*float64 {
	out := map[string]*float64{}
	t, ok := s.(*metrics.TrendSink)
	for _, p := range streamingPercentiles {
		if ok && !t.Empty() {
			v := t.P(p.p)
			out[p.name] = &v
		} else {
			out[p.name] = nil
		}
	}
	return out
}

// writeStreaming writes the "where the time goes" section: per bucket, the
// request count, useful-reached and failure rates, the goodput when its
// requests named objectives, and p50/p95/p99 of each moment from queue to
// complete — the distance between "the stream moved" (first_event) and "the
// user can act" (useful) at a glance.
func writeStreaming(w *writer, in Input) {
	rows := streamingRows(in.Streaming, in.Duration)
	if len(rows) == 0 {
		return
	}
	w.heading("█ WHERE THE TIME GOES (per bucket: the bucket tag, else the scenario)")
	for _, r := range rows {
		head := fmt.Sprintf("%s: %d requests, useful reached %s, failed %s",
			r.name, r.requests, FormatPercent(r.usefulReached), FormatPercent(r.failed))
		if r.good != nil {
			head += ", good " + FormatGoodput(r.good.rate, r.good.perSecond)
		}
		w.line(4, head)
		w.line(6, streamingLine("", func(m metrics.Moment) string { return m.Label }))
		for _, p := range streamingPercentiles {
			w.line(6, streamingLine(p.name, func(m metrics.Moment) string {
				if v := r.percentiles[m.Label][p.name]; v != nil {
					return FormatTime(*v, in.TimeUnit)
				}
				return "-"
			}))
		}
		w.blank()
	}
	writeClientHealth(w, in)
	w.blank()
}

// streamingLine renders one row of a bucket table in fixed-width cells, one
// per moment.
func streamingLine(label string, cell func(metrics.Moment) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-5s", label)
	for _, m := range streamingMoments {
		fmt.Fprintf(&b, " %-12s", cell(m))
	}
	return strings.TrimRight(b.String(), " ")
}

// streamingData is the breakdown as data for handleSummary and the export:
// {bucket: {requests, useful_reached, failed, [good, good_per_second,]
// <moment label>: {p50, p95, p99}}}, times in ms, null when never reached;
// good and good_per_second only when the bucket's requests named
// objectives. d is the test duration.
func streamingData(b *metrics.Breakdown, d time.Duration) map[string]any {
	out := map[string]any{}
	for _, r := range streamingRows(b, d) {
		entry := map[string]any{"requests": r.requests, "useful_reached": r.usefulReached, "failed": r.failed}
		if r.good != nil {
			entry["good"], entry["good_per_second"] = r.good.rate, r.good.perSecond
		}
		for _, m := range streamingMoments {
			ps := map[string]any{}
			for name, v := range r.percentiles[m.Label] {
				if v == nil {
					ps[name] = nil
				} else {
					ps[name] = *v
				}
			}
			entry[m.Label] = ps
		}
		out[r.name] = entry
	}
	return out
}
