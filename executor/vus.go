package executor

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// looping runs closed-model scenarios: each VU starts its next iteration
// when the last one ended, while the executor lets it.
type looping struct {
	env   Env
	stats Stats
	plan  Plan
	index atomic.Int64
	// windows returns, for VU k, the spans when it may start iterations.
	windows func(k int64) []Window
	// limit, when set, claims one of a shared budget of iterations.
	limit func() bool
	// rampDown is the grace given to iterations still running when their
	// VU is ramped down before the end.
	rampDown time.Duration
	// budget is how many iterations the scenario owes on this instance
	// (shared-iterations, per-vu-iterations; 0 for the others), and
	// started how many began: what maxDuration left unstarted is dropped.
	budget  func() int64
	started atomic.Int64
}

func newConstantVUs(env Env) *looping {
	sc := env.Scenario
	d := time.Duration(sc.Duration)
	return steady(env, d, fmt.Sprintf("%d looping VUs for %s", sc.VUs, d), "")
}

func newRampingVUs(env Env) *looping {
	sc := env.Scenario
	steps := RampSteps(sc.StartVUs, sc.Stages)
	var d time.Duration
	for _, st := range sc.Stages {
		d += time.Duration(st.Duration)
	}
	peak := MaxVUs(steps)
	return &looping{
		env: env, rampDown: time.Duration(sc.GracefulRampDown),
		windows: func(k int64) []Window { return Windows(k, steps, d) },
		plan: Plan{PreVUs: peak, MaxVUs: peak, Duration: d, GracefulStop: time.Duration(sc.GracefulStop),
			Description: fmt.Sprintf("Up to %d looping VUs for %s over %d stages (gracefulRampDown: %s, gracefulStop: %s)",
				peak, d, len(sc.Stages), time.Duration(sc.GracefulRampDown), time.Duration(sc.GracefulStop))},
	}
}

func newPerVUIterations(env Env) *looping {
	sc := env.Scenario
	d := time.Duration(sc.MaxDuration)
	l := steady(env, d, fmt.Sprintf("%d iterations for each of %d VUs", sc.Iterations, sc.VUs),
		fmt.Sprintf("maxDuration: %s, ", d))
	l.budget = func() int64 { return sc.Iterations * int64(len(l.env.VUs)) }
	return l
}

func newSharedIterations(env Env) *looping {
	sc := env.Scenario
	d := time.Duration(sc.MaxDuration)
	l := steady(env, d, fmt.Sprintf("%d iterations shared among %d VUs", sc.Iterations, sc.VUs),
		fmt.Sprintf("maxDuration: %s, ", d))
	var claimed atomic.Int64
	l.limit = func() bool { return claimed.Add(1) <= sc.Iterations }
	l.budget = func() int64 { return sc.Iterations }
	return l
}

// steady is a looping executor whose sc.VUs VUs all loop from 0 to d. The
// banner reads "what (settings gracefulStop: …)".
func steady(env Env, d time.Duration, what, settings string) *looping {
	sc := env.Scenario
	return &looping{
		env:     env,
		windows: func(int64) []Window { return []Window{{On: 0, Off: d}} },
		plan: Plan{PreVUs: sc.VUs, MaxVUs: sc.VUs, Duration: d, GracefulStop: time.Duration(sc.GracefulStop),
			Description: fmt.Sprintf("%s (%sgracefulStop: %s)", what, settings, time.Duration(sc.GracefulStop))},
	}
}

func (l *looping) Stats() *Stats { return &l.stats }
func (l *looping) Plan() Plan    { return l.plan }

// Run starts one goroutine per VU and returns when all have stopped.
func (l *looping) Run(ctx context.Context, start time.Time) error {
	l.stats.StartedAt.Store(start.UnixNano())
	defer l.stats.Done.Store(true)
	l.stats.Initialised.Store(int64(len(l.env.VUs)))
	end := start.Add(l.plan.Duration + l.plan.GracefulStop)
	var wg sync.WaitGroup
	for k, vu := range l.env.VUs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.runVU(ctx, int64(k), vu, start, end)
		}()
	}
	wg.Wait()
	if ctx.Err() == nil {
		l.dropUnstarted(time.Now())
	}
	return nil
}

// dropUnstarted counts, as k6 does, the iterations of an iteration-based
// scenario that maxDuration left unstarted: one dropped_iterations sample
// of their number.
func (l *looping) dropUnstarted(at time.Time) {
	if l.budget == nil {
		return
	}
	n := l.budget() - l.started.Load()
	if n <= 0 {
		return
	}
	l.stats.Dropped.Add(n)
	l.env.Engine.Push(metrics.Sample{Metric: l.env.Builtin.DroppedIterations, Tags: l.env.Tags, Time: at, Value: float64(n)})
}

// runVU runs VU k's iterations within its windows.
func (l *looping) runVU(ctx context.Context, k int64, vu VU, start, hardEnd time.Time) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	perVU := l.env.Scenario.Executor == options.PerVUIterations
	done := int64(0)
	for _, w := range l.windows(k) {
		if !sleepUntil(ctx, timer, start.Add(w.On)) {
			return
		}
		deadline := hardEnd
		if ramp := start.Add(w.Off + l.rampDown); w.RampDown && ramp.Before(hardEnd) {
			deadline = ramp
		}
		l.stats.activate()
		for ctx.Err() == nil && time.Now().Before(start.Add(w.Off)) {
			if perVU && done >= l.env.Scenario.Iterations || l.limit != nil && !l.limit() {
				l.stats.deactivate()
				return
			}
			inTest := int64(-1)
			if perVU {
				// Unique across instances: the VU's global index in the
				// scenario times the iterations per VU, plus its count.
				inTest = l.env.global(k)*l.env.Scenario.Iterations + done
			}
			done++
			l.started.Add(1)
			l.iterate(ctx, vu, deadline, inTest)
		}
		l.stats.deactivate()
	}
}

// iterate runs one iteration that is interrupted at deadline. inTest < 0
// means the global index of the instance's iteration count.
func (l *looping) iterate(ctx context.Context, vu VU, deadline time.Time, inTest int64) {
	ictx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	scheduled := time.Now()
	l.env.pushLag(scheduled)
	local := l.index.Add(1) - 1
	if inTest < 0 {
		inTest = l.env.global(local)
	}
	l.stats.count(l.env.Iterate(ictx, vu, Iteration{InInstance: local, InTest: inTest, Scheduled: scheduled}))
}

// SetVUs hands the executor its initialised VUs.
func (l *looping) SetVUs(vus []VU) { l.env.VUs = vus }
