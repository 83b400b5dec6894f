package result

import (
	"bytes"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// probeShare is one runner's part of a streaming test, requests n ∈ [from,
// to): request n is in bucket qa unless n%3 == 2 (retrieval); qa requests
// name objectives and meet them unless n%4 == 0, retrieval requests name
// none. Its breakdown is the runner's: the probe's metrics per bucket.
func probeShare(seg string, from, to int, start time.Time) *File {
	reg := metrics.NewRegistry()
	eng := metrics.NewEngine(reg)
	var ms []*metrics.Metric
	for _, name := range metrics.ProbeBreakdownNames() {
		ms = append(ms, metrics.ProbeMetric(name).MustRegister(reg))
	}
	good, useful, failed := reg.Get(metrics.ProbeGood), reg.Get(metrics.ProbeUseful), reg.Get(metrics.ProbeFailed)
	if _, err := reg.Submetric(good, "bucket:qa"); err != nil {
		panic(err)
	}
	b := metrics.NewBreakdown([]string{"bucket", "scenario"}, ms...)
	eng.Subscribe(b.Add)
	for n := from; n < to; n++ {
		tags := metrics.Tags{"bucket": "qa", "scenario": "chat"}
		if n%3 == 2 {
			tags = metrics.Tags{"bucket": "retrieval", "scenario": "chat"}
		}
		at := start.Add(time.Duration(n) * time.Millisecond)
		eng.Push(metrics.Sample{Metric: useful, Tags: tags, Value: float64(n), Time: at},
			metrics.Sample{Metric: failed, Tags: tags, Value: 0, Time: at})
		if tags["bucket"] == "qa" {
			v := 1.0
			if n%4 == 0 {
				v = 0
			}
			eng.Push(metrics.Sample{Metric: good, Tags: tags, Value: v, Time: at})
		}
	}
	o := options.Options{
		ExecutionSegment: seg, ExecutionSegmentSequence: "0,1/3,2/3,1",
		Thresholds: map[string][]metrics.ThresholdConfig{"usefulsse_good{bucket:qa}": {{Source: "rate>=0.75"}}},
	}
	return Snapshot(Source{
		Script: "probe.js", ScriptSource: []byte("export default function () {}"), Options: o,
		Registry: reg, Root: metrics.NewRootGroup(), Streaming: b,
		Start: start, End: start.Add(time.Minute), Duration: time.Minute,
	})
}

// TestMergedGoodputEqualsWhole merges three runners' result files, each
// written and read back, and finds the goodput of the test in one piece:
// per bucket (qa's good sink, none for retrieval), the sub-metric and its
// threshold's verdict and value.
func TestMergedGoodputEqualsWhole(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var shares []*File
	for i, seg := range []string{"0:1/3", "1/3:2/3", "2/3:1"} {
		var buf bytes.Buffer
		if err := Write(&buf, probeShare(seg, 40*i, 40*(i+1), t0)); err != nil {
			t.Fatal(err)
		}
		f, err := Read(&buf)
		if err != nil {
			t.Fatal(err)
		}
		shares = append(shares, f)
	}
	merged, warnings, err := Merge(shares)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("Merge = %v, warnings %v", err, warnings)
	}
	whole, got := materialize(t, probeShare("0:1", 0, 120, t0)), materialize(t, merged)
	for _, bucket := range []string{"qa", "retrieval"} {
		w, _ := whole.Streaming.Sink(bucket, metrics.ProbeGood).(*metrics.RateSink)
		g, _ := got.Streaming.Sink(bucket, metrics.ProbeGood).(*metrics.RateSink)
		switch {
		case bucket == "retrieval" && (w != nil || g != nil):
			t.Errorf("retrieval: good sinks %v (whole) and %v (merged), want none: its requests named no objective", w, g)
		case bucket == "qa" && (w == nil || g == nil || *w != *g || g.Total != 80 || g.Trues != 60):
			t.Errorf("qa: merged good %+v, whole %+v, want 60 of 80 in both", g, w)
		}
	}
	wf, gf := whole.EvalThresholds(), got.EvalThresholds()
	sub := func(r *Run) *metrics.Metric {
		for _, s := range r.Registry.Get(metrics.ProbeGood).Submetrics {
			return s.Metric
		}
		t.Fatal("no usefulsse_good{bucket:qa}")
		return nil
	}
	ws, gs := sub(whole), sub(got)
	if wf || gf || *ws.Sink.(*metrics.RateSink) != *gs.Sink.(*metrics.RateSink) ||
		ws.Thresholds[0].LastValue != 0.75 || gs.Thresholds[0].LastValue != 0.75 {
		t.Errorf("usefulsse_good{bucket:qa} rate>=0.75: whole failed %v at %v, merged failed %v at %v; want both to pass at 0.75",
			wf, ws.Thresholds[0].LastValue, gf, gs.Thresholds[0].LastValue)
	}
}
