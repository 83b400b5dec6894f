package runner

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/cpugate"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// TestSaturatedSpans checks that consecutive saturated seconds merge into
// one span starting where the first of them started.
func TestSaturatedSpans(t *testing.T) {
	s := time.Second
	cases := []struct {
		name string
		in   []float64 // one sample a second
		want []span
	}{
		{"idle", []float64{0.1, 0.5, 0.89}, nil},
		{"one stretch", []float64{0.2, 0.95, 1, 0.9, 0.3}, []span{{1 * s, 4 * s}}},
		{"two stretches", []float64{1, 0.1, 0.1, 0.99}, []span{{0, s}, {3 * s, 4 * s}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var samples []cpuSample
			for i, f := range c.in {
				samples = append(samples, cpuSample{at: time.Duration(i+1) * s, frac: f})
			}
			if got := saturatedSpans(samples, 0.9); !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestHealthWarning checks when the run ends with a warning and what it
// says.
func TestHealthWarning(t *testing.T) {
	if w := healthWarning(nil, 3, 0); w != "" {
		t.Errorf("a healthy run warned: %q", w)
	}
	if w := healthWarning(nil, -1, 0); w != "" {
		t.Errorf("a run without read lag warned: %q", w)
	}
	w := healthWarning([]span{{12 * time.Second, 19 * time.Second}}, 83.25, 5)
	for _, part := range []string{"saturated", "from 12 s to 19 s", "read lag p99 83.2 ms", "5 events shared a read", "may be late"} {
		if !strings.Contains(w, part) {
			t.Errorf("%q lacks %q", w, part)
		}
	}
	if w := healthWarning(nil, 45, 0); !strings.Contains(w, "read its sockets late: read lag p99 45.0 ms") {
		t.Errorf("late reads without saturation: %q", w)
	}
}

// TestHealthSample checks the CPU fraction of each interval against a
// process CPU clock the test drives.
func TestHealthSample(t *testing.T) {
	var used time.Duration
	start := time.Unix(100, 0)
	h := &health{cpu: func() (time.Duration, bool) { return used, true }, cores: 2, start: start, lastAt: start}
	used = 2 * time.Second // both cores busy for the first second
	if f, ok := h.sample(start.Add(time.Second)); !ok || f != 1 {
		t.Errorf("first second: %v %v, want 1", f, ok)
	}
	used += 500 * time.Millisecond // a quarter of two cores
	if f, _ := h.sample(start.Add(2 * time.Second)); f != 0.25 {
		t.Errorf("second second: %v, want 0.25", f)
	}
	if _, ok := h.sample(start.Add(2 * time.Second)); ok {
		t.Error("a sample over no time")
	}
	if got := saturatedSpans(h.samples, 0.9); !slices.Equal(got, []span{{0, time.Second}}) {
		t.Errorf("spans %v", got)
	}
	if f := cpuFraction(3*time.Second, time.Second, 2); f != 1 {
		t.Errorf("more CPU than cores: %v, want 1", f)
	}
}

// TestProcessCPU checks that the process CPU clock moves when the process
// works.
func TestProcessCPU(t *testing.T) {
	before, ok := cpugate.ProcessCPU()
	if !ok {
		t.Skip("no process CPU clock on this platform")
	}
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	if after, _ := cpugate.ProcessCPU(); after <= before {
		t.Errorf("CPU time %v then %v after spinning (%d)", before, after, x)
	}
}

// TestWarnHealth checks the end-of-run warning of a run that used the
// probe: printed when the CPU samples show saturation, with the read lag
// and the coalesced events from the metrics; absent for a healthy run and
// for a run without the probe.
func TestWarnHealth(t *testing.T) {
	newExec := func(probe bool, cpu ...float64) (*execution, *bytes.Buffer) {
		reg := metrics.NewRegistry()
		run := &modules.Run{Engine: metrics.NewEngine(reg), Registry: reg, Tags: metrics.Tags{}}
		if probe {
			for _, n := range []string{metrics.ProbeEvents, metrics.ProbeReadLag, metrics.ProbeCoalescedEvents} {
				metrics.ProbeMetric(n).MustRegister(reg)
			}
			run.Engine.Push(metrics.Sample{Metric: reg.Get(metrics.ProbeReadLag), Value: 83.25},
				metrics.Sample{Metric: reg.Get(metrics.ProbeCoalescedEvents), Value: 5})
		}
		var errs bytes.Buffer
		h := &health{}
		for i, f := range cpu {
			h.samples = append(h.samples, cpuSample{at: time.Duration(i+1) * time.Second, frac: f})
		}
		return &execution{t: &Test{Run: run}, cfg: Config{Stderr: &errs}, health: h}, &errs
	}
	e, errs := newExec(true, 0.3, 0.95, 1, 0.2)
	e.warnHealth()
	if w := errs.String(); !strings.HasPrefix(w, "WARN the load generator was saturated") ||
		!strings.Contains(w, "from 1 s to 3 s: read lag p99 83.2 ms, 5 events shared a read") {
		t.Errorf("saturated run: %q", w)
	}
	e, errs = newExec(false, 1, 1)
	e.warnHealth()
	if errs.Len() != 0 {
		t.Errorf("a run without the probe warned: %q", errs.String())
	}
}
