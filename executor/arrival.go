package executor

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// arrivalRate runs an open-model scenario: iterations start on an absolute
// schedule whether or not earlier ones finished. When no VU is idle at an
// iteration's due time, the iteration is dropped and counted.
type arrivalRate struct {
	env   Env
	stats Stats
	// due returns when iteration i is due, false after the end.
	due      func(i int64) (time.Duration, bool)
	duration time.Duration
	desc     string
}

func newConstantArrivalRate(env Env) *arrivalRate {
	sc := env.Scenario
	d, tu := time.Duration(sc.Duration), time.Duration(sc.TimeUnit)
	return &arrivalRate{
		env: env, duration: d,
		due: func(i int64) (time.Duration, bool) {
			if sc.Rate <= 0 {
				return 0, false
			}
			at := ConstantArrival(i, sc.Rate, tu)
			return at, at < d
		},
		desc: fmt.Sprintf("%.2f iterations/s for %s (maxVUs: %s, gracefulStop: %s)",
			float64(sc.Rate)/tu.Seconds(), d, vuRange(sc.PreAllocatedVUs, sc.MaxVUs), time.Duration(sc.GracefulStop)),
	}
}

func newRampingArrivalRate(env Env) *arrivalRate {
	sc := env.Scenario
	ra := NewRampingArrivals(sc.StartRate, sc.Stages, time.Duration(sc.TimeUnit))
	peak := float64(sc.StartRate)
	for _, st := range sc.Stages {
		peak = max(peak, float64(st.Target))
	}
	return &arrivalRate{
		env: env, duration: ra.Duration(), due: ra.At,
		desc: fmt.Sprintf("Up to %.2f iterations/s for %s over %d stages (maxVUs: %s, gracefulStop: %s)",
			peak/time.Duration(sc.TimeUnit).Seconds(), ra.Duration(), len(sc.Stages),
			vuRange(sc.PreAllocatedVUs, sc.MaxVUs), time.Duration(sc.GracefulStop)),
	}
}

func (a *arrivalRate) Stats() *Stats { return &a.stats }

func (a *arrivalRate) Plan() Plan {
	sc := a.env.Scenario
	return Plan{PreVUs: sc.PreAllocatedVUs, MaxVUs: sc.MaxVUs, Duration: a.duration,
		GracefulStop: time.Duration(sc.GracefulStop), Description: a.desc}
}

// Run fires iterations on schedule until the duration ends, then waits up
// to gracefulStop for running ones before interrupting them.
func (a *arrivalRate) Run(ctx context.Context, start time.Time) error {
	a.stats.StartedAt.Store(start.UnixNano())
	defer a.stats.Done.Store(true)
	p := newPool(a.env.VUs, a.env.Scenario.MaxVUs, a.env.NewVU, &a.stats, a.env.Warn)
	iterCtx, cancel := context.WithDeadline(ctx, start.Add(a.duration+time.Duration(a.env.Scenario.GracefulStop)))
	defer cancel()
	var running sync.WaitGroup
	var started int64
	timer := time.NewTimer(0)
	defer timer.Stop()
	for i := int64(0); ; i++ {
		at, ok := a.due(i)
		if !ok {
			break
		}
		if a.env.Segment != nil && !a.env.Segment.Owns(i) {
			continue
		}
		scheduled := start.Add(at)
		if !sleepUntil(ctx, timer, scheduled) {
			break
		}
		vu := p.tryGet()
		if vu == nil {
			a.drop(scheduled)
			p.grow(ctx, a.env.Scenario.Name)
			continue
		}
		running.Add(1)
		a.stats.activate()
		local := started
		started++
		go func(vu VU, i int64) {
			defer running.Done()
			a.env.pushLag(scheduled)
			a.stats.count(a.env.Iterate(iterCtx, vu, Iteration{InInstance: local, InTest: i, Scheduled: scheduled}))
			a.stats.deactivate()
			p.put(vu)
		}(vu, i)
	}
	running.Wait()
	p.growing.Wait()
	return nil
}

// drop counts an iteration that found no idle VU.
func (a *arrivalRate) drop(at time.Time) {
	a.stats.Dropped.Add(1)
	a.env.Engine.Push(metrics.Sample{Metric: a.env.Builtin.DroppedIterations, Tags: a.env.Tags, Time: at, Value: 1})
}

// sleepUntil waits until t; it returns false if ctx ended first.
func sleepUntil(ctx context.Context, timer *time.Timer, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer.Reset(d)
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// pushLag records schedule_lag: how late the iteration starts compared
// with when it was due.
func (env *Env) pushLag(scheduled time.Time) {
	now := time.Now()
	env.Engine.Push(metrics.Sample{Metric: env.Builtin.ScheduleLag, Tags: env.Tags, Time: now,
		Value: float64(now.Sub(scheduled)) / float64(time.Millisecond)})
}

// SetVUs hands the executor its initialised VUs.
func (a *arrivalRate) SetVUs(vus []VU) { a.env.VUs = vus }

// vuRange renders "pre-max", or one number when they are equal, as k6's
// banner does.
func vuRange(pre, maxVUs int64) string {
	if pre == maxVUs {
		return fmt.Sprint(pre)
	}
	return fmt.Sprintf("%d-%d", pre, maxVUs)
}

// TargetRate returns the arrival rate due now, in iterations per second.
func (a *arrivalRate) TargetRate(elapsed time.Duration) float64 {
	sc := a.env.Scenario
	tu := time.Duration(sc.TimeUnit).Seconds()
	if sc.Executor == options.ConstantArrivalRate {
		return float64(sc.Rate) / tu
	}
	from, at := float64(sc.StartRate), time.Duration(0)
	for _, st := range sc.Stages {
		d := time.Duration(st.Duration)
		if elapsed < at+d && d > 0 {
			return (from + (float64(st.Target)-from)*float64(elapsed-at)/float64(d)) / tu
		}
		from, at = float64(st.Target), at+d
	}
	return from / tu
}
