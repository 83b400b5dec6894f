package metrics

import (
	"testing"
	"time"
)

func TestBreakdownGroupsByFirstPresentKey(t *testing.T) {
	reg := NewRegistry()
	useful := reg.MustNewMetric("usefulsse_useful", Trend, Time)
	other := reg.MustNewMetric("other", Trend)
	b := NewBreakdown([]string{"bucket", "scenario"}, useful)
	e := NewEngine(reg)
	e.Subscribe(b.Add)
	now := time.Now()
	e.Push(
		Sample{Metric: useful, Tags: Tags{"bucket": "qa", "scenario": "s"}, Time: now, Value: 100},
		Sample{Metric: useful, Tags: Tags{"bucket": "qa", "scenario": "s"}, Time: now, Value: 300},
		Sample{Metric: useful, Tags: Tags{"scenario": "plain"}, Time: now, Value: 7},
		Sample{Metric: useful, Tags: Tags{"other": "x"}, Time: now, Value: 1},
		Sample{Metric: other, Tags: Tags{"bucket": "qa"}, Time: now, Value: 1},
	)
	if g := b.Groups(); len(g) != 2 || g[0] != "plain" || g[1] != "qa" {
		t.Fatalf("groups = %v", g)
	}
	if avg := b.Sink("qa", "usefulsse_useful").(*TrendSink).Avg(); avg != 200 {
		t.Fatalf("qa avg = %v", avg)
	}
	if b.Sink("qa", "other") != nil {
		t.Fatal("metrics not broken down must not be aggregated")
	}
}

// With SplitBy("layer"), the UI probe's samples of a bucket form a row of
// their own beside the stream probe's.
func TestBreakdownSplitsLayers(t *testing.T) {
	reg := NewRegistry()
	useful := reg.MustNewMetric("usefulsse_useful", Trend, Time)
	b := NewBreakdown([]string{"bucket", "scenario"}, useful).SplitBy(ProbeLayer)
	e := NewEngine(reg)
	e.Subscribe(b.Add)
	now := time.Now()
	e.Push(
		Sample{Metric: useful, Tags: Tags{"bucket": "qa"}, Time: now, Value: 100},
		Sample{Metric: useful, Tags: Tags{"bucket": "qa", ProbeLayer: "ui"}, Time: now, Value: 900},
		Sample{Metric: useful, Tags: Tags{"scenario": "s", ProbeLayer: "ui"}, Time: now, Value: 50},
	)
	if g := b.Groups(); len(g) != 3 || g[0] != "qa" || g[1] != "qa (ui)" || g[2] != "s (ui)" {
		t.Fatalf("groups = %v", g)
	}
	if avg := b.Sink("qa (ui)", "usefulsse_useful").(*TrendSink).Avg(); avg != 900 {
		t.Fatalf("qa (ui) avg = %v", avg)
	}
	if avg := b.Sink("qa", "usefulsse_useful").(*TrendSink).Avg(); avg != 100 {
		t.Fatalf("qa avg = %v", avg)
	}
}
