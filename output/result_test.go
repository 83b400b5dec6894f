package output

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/result"
)

// The result output notes the time of the sample whose value each gauge
// (and gauge submetric) keeps — the last pushed — hands them to the
// snapshot and writes what it returns.
func TestResultOutput(t *testing.T) {
	reg := metrics.NewRegistry()
	eng := metrics.NewEngine(reg)
	g := reg.MustNewMetric("queue_depth", metrics.Gauge)
	sub, err := reg.Submetric(g, "pool:a")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.res")
	var seen map[string]time.Time
	snapshot := func(times map[string]time.Time) *result.File {
		seen = times
		var f *result.File
		eng.Read(func() {
			f = result.Snapshot(result.Source{Registry: reg, End: time.Now(), GaugeTimes: times})
		})
		return f
	}
	o, err := New("result="+path, Params{Registry: reg, Result: snapshot})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	eng.Subscribe(o.AddSamples)
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	eng.Push(
		metrics.Sample{Metric: g, Tags: metrics.Tags{"pool": "a"}, Value: 3, Time: t0.Add(2 * time.Second)},
		metrics.Sample{Metric: g, Tags: metrics.Tags{"pool": "b"}, Value: 5, Time: t0.Add(3 * time.Second)},
		metrics.Sample{Metric: g, Tags: metrics.Tags{"pool": "a"}, Value: 4, Time: t0.Add(time.Second)},
	)
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	if !seen[g.Name].Equal(t0.Add(time.Second)) || !seen[sub.Name].Equal(t0.Add(time.Second)) {
		t.Errorf("gauge times = %v, want that of the last sample pushed, 1 s", seen)
	}
	f, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := f.Metrics[0]
	if m.Sink.Value != 4 || m.Submetrics[0].Sink.Value != 4 || !m.Sink.Last.Equal(t0.Add(time.Second)) {
		t.Errorf("written gauge = %+v", m)
	}
	if _, err := New("result", Params{Result: snapshot}); err == nil {
		t.Error("-o result without a path was accepted")
	}
}
