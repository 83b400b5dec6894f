package uiprobe

import (
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// TestSamples checks the samples of a result: one per moment reached, the
// useful_reached and failed rates, the layer and error_code tags, the end's time.
func TestSamples(t *testing.T) {
	reg := metrics.NewRegistry()
	end := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	r := Result{Timings: Timings{FirstText: msPtr(120), Useful: msPtr(480)}, UsefulReached: true,
		EndedAt: end, ErrorCode: CodeTimeout}
	got := map[string]float64{}
	for _, s := range r.Samples(reg, metrics.Tags{"bucket": "qa"}) {
		if s.Tags["layer"] != "ui" || s.Tags["bucket"] != "qa" || s.Tags["error_code"] != CodeTimeout || !s.Time.Equal(end) {
			t.Errorf("%s: tags %v at %v", s.Metric.Name, s.Tags, s.Time)
		}
		got[s.Metric.Name] = s.Value
	}
	want := map[string]float64{metrics.ProbeFirstText: 120, metrics.ProbeUseful: 480, metrics.ProbeUsefulReached: 1, metrics.ProbeFailed: 1}
	if len(got) != len(want) {
		t.Fatalf("samples %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if m := reg.Get(metrics.ProbeUsefulReached); m == nil || m.Type != metrics.Rate {
		t.Errorf("useful_reached registered as %+v, want a Rate", m)
	}
}
