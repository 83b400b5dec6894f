package summary

import (
	"fmt"
	"strings"

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
	percentiles           map[string]map[string]*float64 // moment label → p50/p95/p99 → ms (nil: no sample)
}

// streamingRows reads the breakdown into rows, one per bucket.
func streamingRows(b *metrics.Breakdown) []bucketRow {
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
// request count, useful-reached and failure rates, and p50/p95/p99 of each
// moment from queue to complete — the distance between "the stream moved"
// (first_event) and "the user can act" (useful) at a glance.
func writeStreaming(w *writer, in Input) {
	rows := streamingRows(in.Streaming)
	if len(rows) == 0 {
		return
	}
	w.heading("█ WHERE THE TIME GOES (per bucket: the bucket tag, else the scenario)")
	for _, r := range rows {
		w.line(4, fmt.Sprintf("%s: %d requests, useful reached %s, failed %s",
			r.name, r.requests, FormatPercent(r.usefulReached), FormatPercent(r.failed)))
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
// {bucket: {requests, useful_reached, failed, <moment label>: {p50, p95, p99}}},
// times in ms, null when never reached.
func streamingData(b *metrics.Breakdown) map[string]any {
	out := map[string]any{}
	for _, r := range streamingRows(b) {
		entry := map[string]any{"requests": r.requests, "useful_reached": r.usefulReached, "failed": r.failed}
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
