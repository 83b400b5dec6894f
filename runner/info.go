package runner

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// The execution reports instance-wide counters to k6/execution.

func (e *execution) sum(f func(*scenarioRun) int64) int64 {
	var n int64
	for _, sr := range e.scenarios {
		n += f(sr)
	}
	return n
}

// VUsActive returns the VUs running iterations now.
func (e *execution) VUsActive() int64 {
	return e.sum(func(sr *scenarioRun) int64 { return sr.ex.Stats().Active.Load() })
}

// VUsInitialized returns the VUs initialised so far, less those the
// scenarios gave up (an externally-controlled scenario's lowered maxVUs).
func (e *execution) VUsInitialized() int64 {
	return e.nextVU.Load() - e.sum(func(sr *scenarioRun) int64 { return sr.ex.Stats().Released.Load() })
}

// IterationsCompleted returns the iterations that ran to their end or
// threw.
func (e *execution) IterationsCompleted() int64 {
	return e.sum(func(sr *scenarioRun) int64 { return sr.ex.Stats().Completed.Load() })
}

// IterationsInterrupted returns the iterations a stop cut short or an
// abort ended; one that threw is complete, as in k6.
func (e *execution) IterationsInterrupted() int64 {
	return e.sum(func(sr *scenarioRun) int64 { return sr.ex.Stats().Interrupted.Load() })
}

// Elapsed returns the time since the scenarios started, until teardown
// ended; 0 before they start.
func (e *execution) Elapsed() time.Duration {
	start := e.start.Load()
	if start == nil {
		return 0
	}
	if end := e.end.Load(); end != nil {
		return end.Sub(*start)
	}
	return time.Since(*start)
}

// startTickers evaluates thresholds every 2 s, pushes the vus and vus_max
// gauges every second and draws progress; the returned function stops them
// after a last sample. vus is the most VUs active since the previous
// sample, so its last value is the VUs that ran at the end of the test
// (not 0, once they stopped), as k6 shows it.
func (e *execution) startTickers(ctx context.Context) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	prog := newProgress(e)
	go func() {
		defer close(finished)
		e.pushGauges(gaugesStart)
		gauges, thresholds := time.NewTicker(time.Second), time.NewTicker(2*time.Second)
		defer gauges.Stop()
		defer thresholds.Stop()
		draw := time.NewTicker(prog.interval())
		defer draw.Stop()
		for {
			select {
			case now := <-gauges.C:
				e.pushGauges(gaugesTick)
				e.pushCPU(now)
			case <-thresholds.C:
				e.checkThresholds()
			case <-draw.C:
				prog.draw(false)
			case <-done:
				e.pushGauges(gaugesFinal)
				e.pushCPU(time.Now())
				e.pushNetworkZeros()
				prog.draw(true)
				return
			}
		}
	}()
	return func() { close(done); <-finished }
}

// pushNetworkZeros adds a zero to data_sent and data_received once
// iterations ran. k6 counts both for every iteration, so they are in its
// summary and export at 0 B when a script sent nothing; the zeros do the
// same without a sample per iteration.
func (e *execution) pushNetworkZeros() {
	if e.IterationsCompleted()+e.IterationsInterrupted() == 0 {
		return
	}
	now, b := time.Now(), e.t.Run.Builtin
	e.t.Run.Engine.Push(
		metrics.Sample{Metric: b.DataSent, Tags: e.t.Run.Tags, Time: now},
		metrics.Sample{Metric: b.DataReceived, Tags: e.t.Run.Tags, Time: now},
	)
}

// gaugeSample says which sample of the run pushGauges takes.
type gaugeSample int

const (
	// gaugesStart is before any VU ran: vus_max only.
	gaugesStart gaugeSample = iota
	// gaugesTick is one per second: vus is the most VUs active since the
	// previous sample.
	gaugesTick
	// gaugesFinal is at the end. The VUs are winding down then, so vus is
	// never below the previous sample: a tick that landed while they
	// stopped must not make the last value the few still stopping.
	gaugesFinal
)

// pushGauges samples vus_max and, but at the start, vus.
func (e *execution) pushGauges(kind gaugeSample) {
	now, b := time.Now(), e.t.Run.Builtin
	samples := []metrics.Sample{{Metric: b.VUsMax, Tags: e.t.Run.Tags, Time: now, Value: float64(e.VUsInitialized())}}
	if kind != gaugesStart {
		peak := e.sum(func(sr *scenarioRun) int64 { return sr.ex.Stats().TakePeak() })
		if kind == gaugesFinal {
			peak = max(peak, e.lastVUs)
		}
		e.lastVUs = peak
		samples = append(samples, metrics.Sample{Metric: b.VUs, Tags: e.t.Run.Tags, Time: now, Value: float64(peak)})
	}
	e.t.Run.Engine.Push(samples...)
}

// checkThresholds evaluates thresholds during the run and stops it when
// an abortOnFail threshold fails.
func (e *execution) checkThresholds() {
	if e.cfg.Options.NoThresholds {
		return
	}
	var abort bool
	e.t.Run.Engine.Read(func() {
		_, abort = metrics.EvalThresholds(e.t.Run.Registry, e.Elapsed(), false)
	})
	if abort && e.thresholdStop.CompareAndSwap(false, true) {
		var names []string
		e.t.Run.Engine.Read(func() { names = metrics.CrossedMetrics(e.t.Run.Registry) })
		fmt.Fprintf(e.cfg.Stderr, "ERRO thresholds on metrics '%s' were crossed; at least one has abortOnFail enabled, stopping the test\n",
			strings.Join(names, ", "))
		e.cancel()
	}
}
