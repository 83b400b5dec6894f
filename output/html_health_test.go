package output

import (
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// healthSamples are a bucket's requests with the health metrics: CPU
// samples a second apart (cpu[i] at i+1 s) and read lags.
func healthSamples(r *streamRun, cpu []float64, lags ...float64) []metrics.Sample {
	for _, n := range []string{metrics.ProbeReadLag, metrics.ProbeCoalescedEvents, metrics.ProbeClientCPU, metrics.ProbeEvents} {
		r.m[n] = metrics.ProbeMetric(n).MustRegister(r.reg)
	}
	tags := metrics.Tags{"scenario": "s", "bucket": "chat"}
	samples := r.request(tags, 10*time.Millisecond, false, 1, 2, 3, 4, 5)
	for i, v := range cpu {
		samples = append(samples, r.at(metrics.ProbeClientCPU, time.Duration(i+1)*time.Second, v, nil))
	}
	for _, v := range lags {
		samples = append(samples, r.at(metrics.ProbeReadLag, time.Second, v, tags), r.at(metrics.ProbeEvents, time.Second, 10, tags))
	}
	return append(samples, r.at(metrics.ProbeCoalescedEvents, time.Second, 2, tags))
}

// TestHTMLClientHealth checks the report's load generator line: trusted,
// saturated with its stretch of the run, late reads, and absent without
// the health metrics.
func TestHTMLClientHealth(t *testing.T) {
	cases := []struct {
		name string
		cpu  []float64
		lags []float64
		want []string
	}{
		{"healthy", []float64{0.2, 0.4}, []float64{0.1, 0.2},
			[]string{`<p class="health" id="load-generator">`, "CPU peak <b>40.00%</b>", "2 of 20 events shared a read", "can be trusted"}},
		{"saturated", []float64{0.2, 0.95, 1, 0.3}, []float64{0.1, 0.2},
			[]string{`class="health late"`, "saturated from 1 s to 3 s", "may be late"}},
		{"late reads", []float64{0.2}, []float64{1, 90}, []string{`class="health late"`, "may be late"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newStreamRun(t)
			r.origin = time.Now()
			page := reportOf(t, r.reg, healthSamples(r, c.cpu, c.lags...))
			for _, w := range c.want {
				if !strings.Contains(page, w) {
					i := strings.Index(page, "load-generator")
					t.Errorf("report lacks %q near: %s", w, page[max(i-40, 0):min(i+400, len(page))])
				}
			}
		})
	}
	r := newStreamRun(t)
	r.origin = time.Now()
	page := reportOf(t, r.reg, r.request(metrics.Tags{"bucket": "chat"}, time.Millisecond, false, 1, 2, 3, 4, 5))
	if strings.Contains(page, "load-generator") {
		t.Error("a load generator line without health metrics")
	}
}
