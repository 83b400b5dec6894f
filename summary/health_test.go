package summary

import (
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// healthRun is a run of the probe with its health metrics: one bucket of
// requests, a CPU peak and read lags.
func healthRun(t *testing.T, cpu float64, lags ...float64) Input {
	r := newRun(t)
	probe := func(name string) *metrics.Metric { return metrics.ProbeMetric(name).MustRegister(r.reg) }
	failed, events := probe(metrics.ProbeFailed), probe(metrics.ProbeEvents)
	b := metrics.NewBreakdown([]string{"bucket"}, failed)
	tags := metrics.Tags{"bucket": "chat"}
	for range 3 {
		s := []metrics.Sample{{Metric: failed, Tags: tags, Value: 0}}
		b.Add(s)
		r.eng.Push(s...)
	}
	r.push(events, tags, 40, 40, 40)
	r.push(probe(metrics.ProbeCoalescedEvents), tags, 0, 2, 1)
	r.push(probe(metrics.ProbeClientCPU), nil, 0.2, cpu, 0.3)
	r.push(probe(metrics.ProbeReadLag), tags, lags...)
	in := r.input(10 * time.Second)
	in.Streaming = b
	return in
}

// TestTextClientHealth checks the load generator's line under the
// streaming tables: trusted when the CPU and the read lag stay low, late
// when either is high, absent without health metrics.
func TestTextClientHealth(t *testing.T) {
	cases := []struct {
		name string
		in   Input
		want []string
	}{
		{"healthy", healthRun(t, 0.5, 0.1, 0.2, 0.3),
			[]string{"load generator: CPU peak 50.00% of its cores, read lag p99 ", "3 of 120 events shared a read", "can be trusted"}},
		{"saturated", healthRun(t, 0.97, 0.1, 0.2, 0.3), []string{"CPU peak 97.00%", "may be late"}},
		{"late reads", healthRun(t, 0.5, 1, 2, 80), []string{"read lag p99 ", "may be late"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Text(c.in, TextOptions{})
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("summary lacks %q:\n%s", w, got)
				}
			}
		})
	}
	if got := Text(richRun(t), TextOptions{}); strings.Contains(got, "load generator:") {
		t.Errorf("a health line without health metrics:\n%s", got)
	}
}
