package search

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// Window collects the samples of one step between From and To (absolute
// times): the samples a step is judged on. Add is safe for concurrent use
// and keeps only the samples inside the window.
type Window struct {
	From, To time.Time

	mu      sync.Mutex
	samples []metrics.Sample
}

// NewWindow returns a window over [from, to).
func NewWindow(from, to time.Time) *Window { return &Window{From: from, To: to} }

// Add keeps the samples timed inside the window.
func (w *Window) Add(samples []metrics.Sample) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range samples {
		if !s.Time.Before(w.From) && s.Time.Before(w.To) {
			w.samples = append(w.samples, s)
		}
	}
}

// Limits are the bounds of the runner's health beyond which a step counts
// as limited by the runner.
type Limits struct {
	// CPU is the mean client_cpu (fraction of the cores) from which the
	// runner counts as saturated.
	CPU float64
	// LagP95 is the schedule lag p95, in milliseconds, above which the
	// runner started its iterations too late.
	LagP95 float64
	// ReadLagP99 is the probe's read lag p99, in milliseconds, above which
	// its timings may be late.
	ReadLagP99 float64
}

// DefaultLimits are the runner-health bounds of a search: CPU at 90 % of
// the cores, schedule lag p95 over 100 ms, read lag p99 over 50 ms.
var DefaultLimits = Limits{CPU: metrics.ClientSaturated, LagP95: 100, ReadLagP99: 50}

// Judge evaluates every threshold of thresholds on the window's samples,
// with the metrics of defs (the test's registry: names and types), and
// reads the runner's health. The step's verdict is Limited when the
// runner's health crossed a limit, else Fail when a gate failed, else
// Pass.
func (w *Window) Judge(defs *metrics.Registry, thresholds map[string][]metrics.ThresholdConfig, lim Limits) (Step, error) {
	w.mu.Lock()
	samples := w.samples
	w.mu.Unlock()
	reg := metrics.NewRegistry()
	for _, m := range defs.All() {
		if m.Parent == nil {
			if _, err := reg.NewMetric(m.Name, m.Type, m.Contains); err != nil {
				return Step{}, err
			}
		}
	}
	if err := metrics.ApplyThresholds(reg, thresholds); err != nil {
		return Step{}, err
	}
	counts := map[string]int64{}
	eng := metrics.NewEngine(reg)
	batch := make([]metrics.Sample, 0, len(samples))
	for _, s := range samples {
		m := reg.Get(s.Metric.Name)
		if m == nil { // registered after the judge read defs
			var err error
			if m, err = reg.NewMetric(s.Metric.Name, s.Metric.Type, s.Metric.Contains); err != nil {
				continue
			}
		}
		s.Metric = m
		batch = append(batch, s)
		counts[m.Name]++
		for _, sub := range m.Submetrics {
			if s.Tags.Contains(sub.Selector) {
				counts[sub.Metric.Name]++
			}
		}
	}
	eng.Push(batch...)
	span := w.To.Sub(w.From)
	step := Step{Gates: gates(reg, thresholds, span, counts)}
	step.Health = health(reg, cpuValues(batch), lim)
	if lag := reg.Get("schedule_lag"); lag != nil && span > 0 {
		step.Achieved = float64(counts[lag.Name]) / span.Seconds()
	}
	step.Result = verdict(step)
	return step, nil
}

// verdict is Limited when the runner was saturated; else Fail when a gate
// failed that does not merely count dropped iterations; else Limited when
// iterations were dropped (the load asked for never ran); else Pass.
func verdict(s Step) Verdict {
	if s.Health.saturated {
		return Limited
	}
	for _, g := range s.Failed() {
		if !strings.HasPrefix(g.Metric, droppedIterations) {
			return Fail
		}
	}
	if s.Health.Dropped > 0 {
		return Limited
	}
	if len(s.Failed()) > 0 {
		return Fail
	}
	return Pass
}

// droppedIterations is the metric counting the iterations not started.
const droppedIterations = "dropped_iterations"

// cpuValues returns the client_cpu values among samples.
func cpuValues(samples []metrics.Sample) []float64 {
	var out []float64
	for _, s := range samples {
		if s.Metric.Name == metrics.ProbeClientCPU {
			out = append(out, s.Value)
		}
	}
	return out
}

// gates evaluates the thresholds in the order of their sorted keys.
func gates(reg *metrics.Registry, thresholds map[string][]metrics.ThresholdConfig, span time.Duration, counts map[string]int64) []Gate {
	keys := make([]string, 0, len(thresholds))
	for k := range thresholds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []Gate
	seen := map[*metrics.Threshold]bool{}
	for _, k := range keys {
		m := metricOf(reg, k)
		if m == nil {
			continue
		}
		for _, t := range m.Thresholds {
			if seen[t] {
				continue
			}
			seen[t] = true
			pass := t.Eval(m, span)
			g := Gate{Metric: m.Name, Source: t.Source, Limit: t.Target, Pass: pass, Samples: counts[m.Name]}
			if v := t.LastValue; !math.IsNaN(v) && !math.IsInf(v, 0) {
				g.Value = &v
			}
			out = append(out, g)
		}
	}
	return out
}

// metricOf finds the metric or submetric a threshold key names.
func metricOf(reg *metrics.Registry, key string) *metrics.Metric {
	name, sel, hasSel := strings.Cut(key, "{")
	m := reg.Get(strings.TrimSpace(name))
	if m == nil || !hasSel {
		return m
	}
	sub, err := reg.Submetric(m, strings.TrimSuffix(strings.TrimSpace(sel), "}"))
	if err != nil {
		return nil
	}
	return sub
}

// health reads the runner's metrics of the window and names the limits
// they crossed.
func health(reg *metrics.Registry, cpu []float64, lim Limits) Health {
	var h Health
	if c, ok := metrics.SinkOf[*metrics.CounterSink](reg, droppedIterations); ok {
		h.Dropped = int64(c.Sum)
	}
	if t, ok := metrics.SinkOf[*metrics.TrendSink](reg, "schedule_lag"); ok && !t.Empty() {
		h.LagP95 = ptr(t.P(0.95))
	}
	if t, ok := metrics.SinkOf[*metrics.TrendSink](reg, metrics.ProbeReadLag); ok && !t.Empty() {
		h.ReadLagP99 = ptr(t.P(0.99))
	}
	if len(cpu) > 0 {
		sum, hi := 0.0, cpu[0]
		for _, v := range cpu {
			sum, hi = sum+v, math.Max(hi, v)
		}
		h.CPU, h.CPUMax = ptr(sum/float64(len(cpu))), ptr(hi)
	}
	limit := func(saturated bool, format string, args ...any) {
		h.Limits = append(h.Limits, fmt.Sprintf(format, args...))
		h.saturated = h.saturated || saturated
	}
	if h.CPU != nil && *h.CPU >= lim.CPU {
		limit(true, "runner CPU at %.0f%% of its cores", *h.CPU*100)
	}
	if h.LagP95 != nil && *h.LagP95 > lim.LagP95 {
		limit(true, "iterations started late: schedule lag p95 %.0f ms", *h.LagP95)
	}
	if h.ReadLagP99 != nil && *h.ReadLagP99 > lim.ReadLagP99 {
		limit(true, "sockets read late: read lag p99 %.0f ms", *h.ReadLagP99)
	}
	if h.Dropped > 0 {
		limit(false, "%d iterations dropped: no VU was free (raise maxVUs)", h.Dropped)
	}
	return h
}

func ptr(v float64) *float64 { return &v }
