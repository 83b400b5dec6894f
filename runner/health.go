package runner

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/internal/cpugate"
	"github.com/usefullatency/usefullatency/metrics"
)

// readLagWarn is the read lag p99, in milliseconds, above which the run
// ends with a warning even when the CPU never looked saturated.
const readLagWarn = 20.0

// cpuSample is the runner's CPU over one interval: its end, since the
// start of the run, and the process CPU as a fraction of all cores.
type cpuSample struct {
	at   time.Duration
	frac float64
}

// span is a stretch of the run, since its start.
type span struct{ from, to time.Duration }

// health watches the runner's own CPU once a second, so the run can say
// when its timings may be late: a saturated load generator reads sockets,
// fires timers and runs callbacks late.
type health struct {
	cpu     func() (time.Duration, bool) // the process's CPU time so far
	cores   int
	start   time.Time
	lastAt  time.Time
	lastCPU time.Duration
	samples []cpuSample
}

// newHealth starts watching at start.
func newHealth(start time.Time) *health {
	h := &health{cpu: cpugate.ProcessCPU, cores: runtime.NumCPU(), start: start, lastAt: start}
	h.lastCPU, _ = h.cpu()
	return h
}

// sample measures the CPU since the last sample; ok is false where the
// platform does not report it or no time passed.
func (h *health) sample(now time.Time) (frac float64, ok bool) {
	used, ok := h.cpu()
	wall := now.Sub(h.lastAt)
	if !ok || wall <= 0 {
		return 0, false
	}
	frac = cpuFraction(used-h.lastCPU, wall, h.cores)
	h.lastAt, h.lastCPU = now, used
	h.samples = append(h.samples, cpuSample{at: now.Sub(h.start), frac: frac})
	return frac, true
}

// cpuFraction is the share of cores busy: used / (wall × cores), at most 1.
func cpuFraction(used, wall time.Duration, cores int) float64 {
	return min(float64(used)/(float64(wall)*float64(max(cores, 1))), 1)
}

// saturatedSpans merges the consecutive samples at or above limit into
// spans; a sample covers the interval since the one before it.
func saturatedSpans(samples []cpuSample, limit float64) []span {
	var out []span
	var prev time.Duration
	for _, s := range samples {
		if s.frac >= limit {
			if n := len(out); n > 0 && out[n-1].to == prev {
				out[n-1].to = s.at
			} else {
				out = append(out, span{prev, s.at})
			}
		}
		prev = s.at
	}
	return out
}

// healthWarning is the line that ends a run whose timings may be late, or
// "" when nothing says so: the saturated spans, the read lag p99 in
// milliseconds (negative: none) and the events that shared a read.
func healthWarning(spans []span, lagP99 float64, coalesced int64) string {
	if len(spans) == 0 && lagP99 <= readLagWarn {
		return ""
	}
	var b strings.Builder
	if len(spans) == 0 {
		b.WriteString("the load generator read its sockets late")
	} else {
		parts := make([]string, len(spans))
		for i, s := range spans {
			parts[i] = fmt.Sprintf("from %s to %s", seconds(s.from), seconds(s.to))
		}
		fmt.Fprintf(&b, "the load generator was saturated (CPU at %.0f%% of its cores or more) %s",
			metrics.ClientSaturated*100, strings.Join(parts, ", "))
	}
	if lagP99 >= 0 {
		fmt.Fprintf(&b, ": read lag p99 %.1f ms", lagP99)
	}
	if coalesced > 0 {
		fmt.Fprintf(&b, ", %d events shared a read with the next", coalesced)
	}
	b.WriteString(" — its timings may be late")
	return b.String()
}

// seconds formats a moment of the run in whole seconds.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%d s", int64(d.Round(time.Second)/time.Second))
}

// probeInUse reports whether the run registered the streaming probe's
// metrics: the health metrics belong to it.
func (e *execution) probeInUse() bool {
	return e.t.Run.Registry.Get(metrics.ProbeEvents) != nil
}

// pushCPU samples the runner's CPU into usefulsse_client_cpu.
func (e *execution) pushCPU(now time.Time) {
	if e.health == nil || !e.probeInUse() {
		return
	}
	frac, ok := e.health.sample(now)
	if !ok {
		return
	}
	m := metrics.ProbeMetric(metrics.ProbeClientCPU).MustRegister(e.t.Run.Registry)
	e.t.Run.Engine.Push(metrics.Sample{Metric: m, Tags: e.t.Run.Tags, Time: now, Value: frac})
}

// warnHealth prints the health warning at the end of the scenarios.
func (e *execution) warnHealth() {
	if e.health == nil || !e.probeInUse() {
		return
	}
	lag, coalesced := -1.0, int64(0)
	e.t.Run.Engine.Read(func() {
		if m := e.t.Run.Registry.Get(metrics.ProbeReadLag); m != nil {
			if t, ok := m.Sink.(*metrics.TrendSink); ok && !t.Empty() {
				lag = t.P(0.99)
			}
		}
		if m := e.t.Run.Registry.Get(metrics.ProbeCoalescedEvents); m != nil {
			if c, ok := m.Sink.(*metrics.CounterSink); ok {
				coalesced = int64(c.Sum)
			}
		}
	})
	if w := healthWarning(saturatedSpans(e.health.samples, metrics.ClientSaturated), lag, coalesced); w != "" {
		fmt.Fprintln(e.cfg.Stderr, "WARN "+w)
	}
}
