package output

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/metrics"
)

// TestPrometheusSeriesCap adds samples of 5,000 distinct tag sets with
// K6_PROMETHEUS_RW_MAX_SERIES=1000: only the first 1,000 series are kept
// and pushed, the others' samples are counted as dropped, and the aggregate
// of a kept series still takes its new samples.
func TestPrometheusSeriesCap(t *testing.T) {
	rc, srv := newReceiver(t)
	var log bytes.Buffer
	out, err := New("experimental-prometheus-rw="+srv.URL, Params{
		Env: map[string]string{"K6_PROMETHEUS_RW_MAX_SERIES": "1000"}, Registry: metrics.NewRegistry(), Log: &log,
	})
	if err != nil {
		t.Fatal(err)
	}
	o := out.(*PrometheusRW)
	reqs := metrics.NewRegistry().MustNewMetric("http_reqs", metrics.Counter)
	batch := make([]metrics.Sample, 0, 5001)
	for i := range 5000 {
		batch = append(batch, metrics.Sample{Metric: reqs, Tags: metrics.Tags{"id": strconv.Itoa(i)}, Value: 1})
	}
	batch = append(batch, metrics.Sample{Metric: reqs, Tags: metrics.Tags{"id": "7"}, Value: 1})
	o.AddSamples(batch)
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	got := rc.last(t)
	if len(got) != 1000 {
		t.Errorf("%d series pushed, want the cap of 1000", len(got))
	}
	if v := got["k6_http_reqs_total{id=7}"].value; v != 2 {
		t.Errorf("kept series id=7 = %v, want 2", v)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "1000 series") || !strings.Contains(lines[1], "4000 samples") ||
		!strings.Contains(lines[1], "K6_PROMETHEUS_RW_MAX_SERIES") {
		t.Errorf("want one warning when the cap is reached and one with the count at the end, got:\n%s", log.String())
	}
	if _, err := New("experimental-prometheus-rw", Params{Env: map[string]string{"K6_PROMETHEUS_RW_MAX_SERIES": "0"}}); err == nil ||
		!strings.Contains(err.Error(), "K6_PROMETHEUS_RW_MAX_SERIES") {
		t.Errorf("K6_PROMETHEUS_RW_MAX_SERIES=0: %v", err)
	}
}

// TestPrometheusSeriesMemory adds one sample to each of 2,000 Trend series
// (a tag with a unique value per request) and checks that the aggregates
// hold less than 16 MB: a series that saw one value must not reserve room
// for thousands.
func TestPrometheusSeriesMemory(t *testing.T) {
	stats, err := parseTrendStats("p(99)")
	if err != nil {
		t.Fatal(err)
	}
	a := newPromAggregator(stats)
	dur := metrics.NewRegistry().MustNewMetric("http_req_duration", metrics.Trend, metrics.Time)
	batch := make([]metrics.Sample, 2000)
	for i := range batch {
		batch[i] = metrics.Sample{Metric: dur, Tags: metrics.Tags{"request_id": strconv.Itoa(i)}, Value: 12.5}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	a.add(batch)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 16<<20 {
		t.Errorf("2000 one-sample Trend series hold %d MB", grown>>20)
	}
	runtime.KeepAlive(a)
}
