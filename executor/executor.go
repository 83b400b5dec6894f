// Package executor runs scenarios: it decides when iterations start and on
// which VU, for each of k6's executors. Schedules are pure functions of the
// elapsed time (schedule.go); the executors turn them into iterations.
package executor

import (
	"context"
	"fmt"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// VU is an initialised virtual user, opaque to executors.
type VU interface {
	ID() int64
}

// Outcome is how an iteration ended.
type Outcome uint8

// Iteration outcomes.
const (
	// Completed: the iteration function returned.
	Completed Outcome = iota
	// Failed: it threw an exception (logged by the iterate function); k6
	// counts such iterations as complete (its progress,
	// exec.instance.iterationsCompleted).
	Failed
	// Interrupted: it was stopped (graceful stop expired or run stopped).
	Interrupted
	// Aborted: it called exec.test.abort(); the run stops.
	Aborted
)

// Iteration identifies one iteration of a scenario.
type Iteration struct {
	// InInstance counts the scenario's iterations on this instance from 0;
	// InTest is the index unique across the instances of an execution
	// segment sequence.
	InInstance, InTest int64
	// Scheduled is when the iteration was due: its arrival time for the
	// arrival-rate executors, the moment the VU was free for the others.
	Scheduled time.Time
	// Row is the trace row of a trace-replay iteration, a JSON object; nil
	// for the other executors.
	Row []byte
}

// IterateFunc runs an iteration on vu, with ctx canceled when the
// iteration must be interrupted.
type IterateFunc func(ctx context.Context, vu VU, it Iteration) Outcome

// Segment selects this instance's share of global iteration indices.
type Segment interface {
	// Owns reports whether the global index belongs to this instance.
	Owns(index int64) bool
	// Global maps the instance's local-th index to its global index.
	Global(local int64) int64
	// Scale returns how many of the global indices 0..n-1 it owns.
	Scale(n int64) int64
}

// global maps a local index through the segment, if any.
func (env *Env) global(local int64) int64 {
	if env.Segment == nil {
		return local
	}
	return env.Segment.Global(local)
}

// scale returns this instance's share of a VU count n of the whole test.
func (env *Env) scale(n int64) int64 {
	if env.Segment == nil {
		return n
	}
	return env.Segment.Scale(n)
}

// Env is what an executor needs from the run.
type Env struct {
	Scenario options.Scenario
	// VUs are the VUs initialised for this scenario before the test.
	VUs []VU
	// NewVU initialises one more VU (arrival-rate executors grow up to
	// maxVUs, externally-controlled when its maxVUs is raised); nil for
	// executors that never grow.
	NewVU   func(ctx context.Context) (VU, error)
	Iterate IterateFunc
	Engine  *metrics.Engine
	Builtin *metrics.Builtin
	// Tags are the scenario's sample tags.
	Tags metrics.Tags
	// Segment filters arrival-rate iterations; nil owns everything.
	Segment Segment
	// Warn logs a one-line warning.
	Warn func(msg string)
	// Trace is a trace-replay scenario's file (ParseTrace); without it the
	// scenario has no rows.
	Trace *Trace
	// Pace, when it paces the scenario, sets an arrival-rate scenario's
	// rate step by step (a capacity search); nil runs it as written.
	Pace *Pace
}

// Executor runs one scenario.
type Executor interface {
	// Run starts iterations from start (the scenario's own start time)
	// until the scenario ends, and returns when no iteration is running.
	// Canceling ctx stops the scenario at once, interrupting iterations.
	Run(ctx context.Context, start time.Time) error
	// Stats returns live counters of the scenario.
	Stats() *Stats
	// Plan describes the scenario for the banner.
	Plan() Plan
	// SetVUs hands the executor the VUs initialised for it before Run.
	SetVUs(vus []VU)
}

// Plan is the static shape of a scenario.
type Plan struct {
	// PreVUs are initialised before the test, MaxVUs at most.
	PreVUs, MaxVUs int64
	// Duration is the longest the scenario can run, GracefulStop excluded.
	Duration     time.Duration
	GracefulStop time.Duration
	// Description is the banner's text, e.g. "100.00 iterations/s for 1m0s".
	Description string
}

// New returns the executor for env.Scenario.
func New(env Env) (Executor, error) {
	sc := env.Scenario
	switch sc.Executor {
	case options.ConstantArrivalRate, options.RampingArrivalRate:
		if env.Pace.Paces(sc.Name) {
			return newPacedArrivals(env), nil
		}
	}
	switch sc.Executor {
	case options.ConstantArrivalRate:
		return newConstantArrivalRate(env), nil
	case options.RampingArrivalRate:
		return newRampingArrivalRate(env), nil
	case options.ConstantVUs:
		return newConstantVUs(env), nil
	case options.RampingVUs:
		return newRampingVUs(env), nil
	case options.PerVUIterations:
		return newPerVUIterations(env), nil
	case options.SharedIterations:
		return newSharedIterations(env), nil
	case options.TraceReplay:
		return newTraceReplay(env), nil
	case options.ExternallyControlled:
		return newExternallyControlled(env), nil
	}
	return nil, fmt.Errorf("scenario %q: unknown executor %q", sc.Name, sc.Executor)
}

// PlanOf returns the plan of a scenario without building its executor.
func PlanOf(sc options.Scenario) Plan {
	ex, err := New(Env{Scenario: sc})
	if err != nil {
		return Plan{}
	}
	return ex.Plan()
}
