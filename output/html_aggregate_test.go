package output

import (
	"fmt"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// streamRun is a registry with the metrics the HTML report reads and a
// helper to make their samples.
type streamRun struct {
	reg    *metrics.Registry
	origin time.Time
	m      map[string]*metrics.Metric
}

func newStreamRun(t testing.TB) *streamRun {
	t.Helper()
	reg := metrics.NewRegistry()
	r := &streamRun{reg: reg, origin: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC), m: map[string]*metrics.Metric{}}
	b := metrics.RegisterBuiltin(reg)
	for _, m := range []*metrics.Metric{b.Checks, b.IterationDuration, b.DroppedIterations, b.VUs} {
		r.m[m.Name] = m
	}
	for _, c := range []string{"queue", "first_event", "first_text", "useful", "complete"} {
		r.m["usefulsse_"+c] = reg.MustNewMetric("usefulsse_"+c, metrics.Trend, metrics.Time)
	}
	for _, n := range []string{"usefulsse_failed", "usefulsse_useful_reached", "http_req_failed"} {
		r.m[n] = reg.MustNewMetric(n, metrics.Rate)
	}
	return r
}

// at returns a sample of metric name at origin+offset.
func (r *streamRun) at(name string, offset time.Duration, v float64, tags metrics.Tags) metrics.Sample {
	m := r.m[name]
	if m == nil {
		panic("no metric " + name)
	}
	return metrics.Sample{Metric: m, Tags: tags, Time: r.origin.Add(offset), Value: v}
}

// request returns the samples of one streamed request that ended at
// origin+end, with the given milestones in ms (negative: never reached).
func (r *streamRun) request(tags metrics.Tags, end time.Duration, failed bool, queue, firstEvent, firstText, useful, complete float64) []metrics.Sample {
	var out []metrics.Sample
	for name, v := range map[string]float64{"queue": queue, "first_event": firstEvent, "first_text": firstText, "useful": useful, "complete": complete} {
		if v >= 0 {
			out = append(out, r.at("usefulsse_"+name, end, v, tags))
		}
	}
	out = append(out, r.at("usefulsse_failed", end, boolValue(failed), tags),
		r.at("usefulsse_useful_reached", end, boolValue(useful >= 0), tags),
		r.at("http_req_failed", end, boolValue(failed), tags))
	return out
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func TestAggregateWindows(t *testing.T) {
	r := newStreamRun(t)
	a := newAggregate(r.origin, time.Second)
	qa := metrics.Tags{"scenario": "s", "bucket": "qa"}
	var batch []metrics.Sample
	// Three iterations that started in window 0 and ended in window 2.
	for range 3 {
		batch = append(batch, r.at("iteration_duration", 2500*time.Millisecond, 2000, qa))
	}
	batch = append(batch,
		r.at("dropped_iterations", 1200*time.Millisecond, 1, qa),
		r.at("dropped_iterations", 1900*time.Millisecond, 1, qa),
		r.at("vus", 1*time.Second, 3, nil), r.at("vus", 1500*time.Millisecond, 5, nil), r.at("vus", 1700*time.Millisecond, 4, nil),
	)
	batch = append(batch, r.request(qa, 2100*time.Millisecond, false, 5, 10, 100, 400, 450)...)
	batch = append(batch, r.request(qa, 2200*time.Millisecond, true, 5, 10, -1, -1, -1)...)
	if err := a.add(batch); err != nil {
		t.Fatal(err)
	}
	if len(a.windows) != 3 {
		t.Fatalf("%d windows, want 3", len(a.windows))
	}
	w0, w1, w2 := a.windows[0], a.windows[1], a.windows[2]
	if w0.started != 3 || w2.started != 0 {
		t.Errorf("started = %v, %v; want the 3 iterations in window 0 (end − duration)", w0.started, w2.started)
	}
	if w1.dropped != 2 || !w1.hasVUs || w1.vus != 5 {
		t.Errorf("window 1: dropped %v, vus %v (set %v); want 2 and the highest gauge value 5", w1.dropped, w1.vus, w1.hasVUs)
	}
	if w2.requests != 2 || w2.failed != 1 || w2.httpReqs != 2 || w2.httpFailed != 1 {
		t.Errorf("window 2: %+v; want 2 requests, 1 failed, 2 http requests, 1 failed", w2)
	}
	if h := w2.latency[latencyKey{"useful", "qa"}]; h == nil || h.count != 1 || h.min != 400 {
		t.Errorf("window 2 useful histogram = %+v, want the one value 400", h)
	}
	b := a.buckets["qa"]
	if b.failed.Total != 2 || b.failed.Trues != 1 || b.usefulReached.Trues != 1 || b.times["complete"].Count() != 1 {
		t.Errorf("bucket qa: failed %+v, useful reached %+v, complete count %d", b.failed, b.usefulReached, b.times["complete"].Count())
	}
}

func TestAggregateBucketFallsBackToScenario(t *testing.T) {
	r := newStreamRun(t)
	a := newAggregate(r.origin, time.Second)
	_ = a.add(r.request(metrics.Tags{"scenario": "steady"}, time.Second, false, -1, 1, 2, 3, 4))
	_ = a.add(r.request(metrics.Tags{"scenario": "steady", "bucket": "qa"}, time.Second, false, -1, 1, 2, 3, 4))
	_ = a.add(r.request(metrics.Tags{"name": "no scenario, no bucket"}, time.Second, false, -1, 1, 2, 3, 4))
	if len(a.buckets) != 2 || a.buckets["steady"] == nil || a.buckets["qa"] == nil {
		t.Errorf("buckets = %v, want steady (the scenario) and qa (the bucket tag)", keys(a.buckets))
	}
}

// The UI probe's samples (layer ui) form a bucket of their own beside the
// stream probe's, named as the summary names it.
func TestAggregateKeepsLayersApart(t *testing.T) {
	r := newStreamRun(t)
	a := newAggregate(r.origin, time.Second)
	_ = a.add(r.request(metrics.Tags{"bucket": "qa"}, time.Second, false, -1, 1, 2, 3, 4))
	_ = a.add(r.request(metrics.Tags{"bucket": "qa", metrics.ProbeLayer: "ui"}, time.Second, false, -1, 1, 2, 3, 4))
	if len(a.buckets) != 2 || a.buckets["qa"] == nil || a.buckets["qa (ui)"] == nil {
		t.Errorf("buckets = %v, want qa and qa (ui)", keys(a.buckets))
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestAggregateWidensWindowsPastTheLimit(t *testing.T) {
	r := newStreamRun(t)
	a := newAggregate(r.origin, time.Second)
	tags := metrics.Tags{"bucket": "qa"}
	// One dropped iteration and one useful time per second for 1500 s.
	for s := range 1500 {
		off := time.Duration(s)*time.Second + 500*time.Millisecond
		_ = a.add([]metrics.Sample{r.at("dropped_iterations", off, 1, tags), r.at("usefulsse_useful", off, float64(s), tags)})
	}
	if a.width != 4*time.Second || len(a.windows) > maxWindows {
		t.Fatalf("width %v with %d windows; want 4s (1500 s past two doublings of 600 windows) and at most %d", a.width, len(a.windows), maxWindows)
	}
	var dropped float64
	var useful uint64
	for _, w := range a.windows {
		dropped += w.dropped
		if h := w.latency[latencyKey{"useful", "qa"}]; h != nil {
			useful += h.count
		}
	}
	if dropped != 1500 || useful != 1500 {
		t.Errorf("after merging: %v dropped, %d useful values; want 1500 of each", dropped, useful)
	}
	if w := a.windows[1]; w.dropped != 4 {
		t.Errorf("window 1 (4 s to 8 s) has %v dropped, want 4", w.dropped)
	}
	if h := a.windows[1].latency[latencyKey{"useful", "qa"}]; h.min != 4 || h.max != 7 {
		t.Errorf("window 1 useful min/max = %v/%v, want 4/7", h.min, h.max)
	}
}

func TestAggregateCapsBucketsDrawnOverTime(t *testing.T) {
	r := newStreamRun(t)
	a := newAggregate(r.origin, time.Second)
	for i := range maxSeriesBuckets + 3 {
		_ = a.add([]metrics.Sample{r.at("usefulsse_useful", time.Second, 100, metrics.Tags{"bucket": fmt.Sprintf("b%02d", i)})})
	}
	if len(a.buckets) != maxSeriesBuckets+3 {
		t.Errorf("waterfall buckets = %d, want every one (%d)", len(a.buckets), maxSeriesBuckets+3)
	}
	d := buildChartData(a)
	if len(d.Buckets) != maxSeriesBuckets+1 || d.Buckets[len(d.Buckets)-1] != otherBucket {
		t.Errorf("charted buckets = %v, want %d then %q last", d.Buckets, maxSeriesBuckets, otherBucket)
	}
	if h := a.windows[1].latency[latencyKey{"useful", otherBucket}]; h == nil || h.count != 3 {
		t.Errorf("%q holds %+v, want the 3 extra buckets' values", otherBucket, h)
	}
}

func TestAggregateChecks(t *testing.T) {
	r := newStreamRun(t)
	a := newAggregate(r.origin, time.Second)
	check := func(name, group string, ok bool) metrics.Sample {
		return r.at("checks", time.Second, boolValue(ok), metrics.Tags{"check": name, "group": group})
	}
	_ = a.add([]metrics.Sample{
		check("status 200", "", true), check("status 200", "", false), check("status 200", "", true),
		check("has decision", "::refunds::eu", true),
	})
	rows := checkRows(a)
	if len(rows) != 2 {
		t.Fatalf("rows = %+v, want 2", rows)
	}
	if r0 := rows[0]; r0.Name != "status 200" || r0.Passes != 2 || r0.Fail != 1 || r0.OK || r0.Rate != "66.66%" {
		t.Errorf("first check = %+v, want status 200 with 2 passes, 1 fail, 66.66%%", r0)
	}
	if r1 := rows[1]; r1.Group != "refunds › eu" || !r1.OK {
		t.Errorf("second check = %+v, want group refunds › eu, ok", r1)
	}
}

// BenchmarkHTMLAggregate measures folding one streamed request's samples
// (the usefulsse times, rates, an iteration) into the report's aggregate.
func BenchmarkHTMLAggregate(b *testing.B) {
	r := newStreamRun(b)
	a := newAggregate(r.origin, time.Second)
	tags := metrics.Tags{"scenario": "s", "bucket": "qa"}
	batch := r.request(tags, 0, false, 2, 10, 100, 400, 450)
	batch = append(batch, r.at("iteration_duration", 0, 450, tags), r.at("checks", 0, 1, tags.With("check", "ok")))
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		for j := range batch {
			batch[j].Time = r.origin.Add(time.Duration(i) * time.Millisecond)
		}
		_ = a.add(batch)
	}
	b.ReportMetric(float64(len(batch)), "samples/op")
}

// TestChartsOverTimeDrawMoments keeps each chart over time on a moment: a
// series whose Trend is not one is never fed and draws an empty chart.
func TestChartsOverTimeDrawMoments(t *testing.T) {
	for _, c := range overTime {
		if label, ok := momentLabel(c.Metric); !ok || label != c.Key {
			t.Errorf("chart %q draws %s, whose moment label is %q (a moment: %v)", c.Key, c.Metric, label, ok)
		}
	}
}
