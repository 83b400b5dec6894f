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
	// rows are trace-replay's rows, by global index; nil otherwise.
	rows [][]byte
}

func newConstantArrivalRate(env Env) *arrivalRate {
	sc := env.Scenario
	d, tu := time.Duration(sc.Duration), time.Duration(sc.TimeUnit)
	at := func(i int64) time.Duration { return ConstantArrival(i, sc.Rate, tu) }
	if p := arrivalsOf(sc); p != nil {
		at = func(i int64) time.Duration { return p.ConstantAt(i, sc.Rate, tu) }
	}
	return &arrivalRate{
		env: env, duration: d,
		due: func(i int64) (time.Duration, bool) {
			if sc.Rate <= 0 {
				return 0, false
			}
			at := at(i)
			return at, at < d
		},
		desc: fmt.Sprintf("%.2f iterations/s%s for %s (maxVUs: %s, gracefulStop: %s)",
			float64(sc.Rate)/tu.Seconds(), arrivalNote(sc), d, vuRange(sc.PreAllocatedVUs, sc.MaxVUs), time.Duration(sc.GracefulStop)),
	}
}

func newRampingArrivalRate(env Env) *arrivalRate {
	sc := env.Scenario
	ra := NewRampingArrivals(sc.StartRate, sc.Stages, time.Duration(sc.TimeUnit))
	peak := float64(sc.StartRate)
	for _, st := range sc.Stages {
		peak = max(peak, float64(st.Target))
	}
	due := ra.At
	if p := arrivalsOf(sc); p != nil {
		// Iteration i is due when the integral reaches the i+1-th arrival.
		due = func(i int64) (time.Duration, bool) { return ra.AtUnits(p.Units(i + 1)) }
	}
	return &arrivalRate{
		env: env, duration: ra.Duration(), due: due,
		desc: fmt.Sprintf("Up to %.2f iterations/s%s for %s over %d stages (maxVUs: %s, gracefulStop: %s)",
			peak/time.Duration(sc.TimeUnit).Seconds(), arrivalNote(sc), ra.Duration(), len(sc.Stages),
			vuRange(sc.PreAllocatedVUs, sc.MaxVUs), time.Duration(sc.GracefulStop)),
	}
}

// newTraceReplay runs a trace: row i is due at Trace.Due[i], open loop as
// the arrival-rate executors, and its iteration gets the row. The
// scenario lasts until the last row is due.
func newTraceReplay(env Env) *arrivalRate {
	sc := env.Scenario
	tr := env.Trace
	if tr == nil {
		tr = &Trace{}
	}
	var d time.Duration
	if n := len(tr.Due); n > 0 {
		d = tr.Due[n-1]
	}
	return &arrivalRate{
		env: env, duration: d, rows: tr.Rows,
		due: func(i int64) (time.Duration, bool) {
			if i >= tr.Len() {
				return 0, false
			}
			return tr.Due[i], true
		},
		desc: fmt.Sprintf("%d rows of %s at speed %g over %s (maxVUs: %s, gracefulStop: %s)",
			tr.Len(), sc.File, sc.Speed, d, vuRange(sc.PreAllocatedVUs, sc.MaxVUs), time.Duration(sc.GracefulStop)),
	}
}

// arrivalsOf returns the scenario's random arrival process, nil for the
// regular schedule.
func arrivalsOf(sc options.Scenario) *Arrivals {
	k := sc.ArrivalShape()
	if k == 0 {
		return nil
	}
	return NewArrivals(k, ArrivalSeed(sc.ArrivalSeed, sc.Name))
}

// arrivalNote names a random arrival process for the banner: "" for the
// regular schedule, " poisson (seed 0)", " gamma k=0.25 (seed 7)".
func arrivalNote(sc options.Scenario) string {
	switch sc.Arrival {
	case options.ArrivalPoisson:
		return fmt.Sprintf(" poisson (seed %d)", sc.ArrivalSeed)
	case options.ArrivalGamma:
		return fmt.Sprintf(" gamma k=%g (seed %d)", sc.ArrivalShape(), sc.ArrivalSeed)
	}
	return ""
}

func (a *arrivalRate) Stats() *Stats { return &a.stats }

func (a *arrivalRate) Plan() Plan {
	sc := a.env.Scenario
	return Plan{PreVUs: sc.PreAllocatedVUs, MaxVUs: sc.MaxVUs, Duration: a.duration,
		GracefulStop: time.Duration(sc.GracefulStop), Description: a.desc}
}

// Run fires iterations on schedule until the duration ends, then waits up
// to gracefulStop for running ones before interrupting them.
//
// The loop looks at the schedule in passes: each pass takes every
// iteration due by now (DueBy), starts as many of them, oldest first, as
// VUs were idle when the pass began, and drops the rest at once, counted in
// bulk. A rate faster than the machine starts iterations (1e8/s) so costs
// one pass per started batch, not one step per due iteration, and the
// scenario ends at its duration (plus gracefulStop for the iterations in
// flight) whatever the rate.
func (a *arrivalRate) Run(ctx context.Context, start time.Time) error {
	a.stats.StartedAt.Store(start.UnixNano())
	defer a.stats.Done.Store(true)
	if a.env.Pace.Paces(a.env.Scenario.Name) {
		a.env.Pace.begin(start)
		go a.env.Pace.wake(ctx.Done())
	}
	p := newPool(a.env.VUs, a.env.Scenario.MaxVUs, a.env.NewVU, &a.stats, a.env.Warn)
	iterCtx, cancel := context.WithDeadline(ctx, start.Add(a.duration+time.Duration(a.env.Scenario.GracefulStop)))
	defer cancel()
	l := &arrivalLoop{a: a, p: p, ctx: ctx, iterCtx: iterCtx, start: start, workers: newWorkers()}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for next := int64(0); ; {
		at, ok := a.due(next)
		if !ok || !sleepUntil(ctx, timer, start.Add(at)) {
			break
		}
		end := DueBy(a.due, next, time.Since(start))
		l.pass(next, end)
		next = end
	}
	l.running.Wait()
	l.workers.stop()
	p.growing.Wait()
	return nil
}

// arrivalLoop is the state of one Run of an arrival-rate scenario.
type arrivalLoop struct {
	a            *arrivalRate
	p            *pool
	ctx, iterCtx context.Context
	start        time.Time
	running      sync.WaitGroup
	// started counts the iterations started on this instance.
	started int64
	workers *workers
}

// pass handles the iterations from..end-1, all due: those of this
// instance's segment start on the VUs idle now, oldest first; the others
// that remain are dropped in bulk.
func (l *arrivalLoop) pass(from, end int64) {
	seg := l.a.env.Segment
	owned := ownedIn(seg, from, end)
	l.warnBehind(owned)
	i := from
	for idle := l.p.idleCount(); idle > 0 && i < end; i++ {
		if seg != nil && !seg.Owns(i) {
			continue
		}
		vu := l.p.tryGet()
		if vu == nil { // only this loop takes VUs: never, but safe
			break
		}
		l.run(vu, i)
		idle--
		owned--
	}
	if owned > 0 {
		l.a.drop(owned)
		l.p.growBy(l.ctx, l.a.env.Scenario.Name, owned)
	}
}

// run starts global iteration i on vu.
func (l *arrivalLoop) run(vu VU, i int64) {
	at, _ := l.a.due(i)
	scheduled := l.start.Add(at)
	l.running.Add(1)
	l.a.stats.activate()
	local := l.started
	l.started++
	l.workers.run(func() {
		defer l.running.Done()
		l.a.env.pushLag(scheduled)
		it := Iteration{InInstance: local, InTest: i, Scheduled: scheduled}
		if l.a.rows != nil {
			it.Row = l.a.rows[i]
		}
		l.a.stats.count(l.a.env.Iterate(l.iterCtx, vu, it))
		l.a.stats.deactivate()
		l.p.put(vu)
	})
}

// behindFloor is the fewest iterations due in one pass that tell a
// scheduler fallen behind rather than the slack of its timer.
const behindFloor = 100

// warnBehind warns when owned iterations came due in one pass, more than
// the scenario's maxVUs (and than behindFloor): more than any number of its
// VUs could start at once, so the machine, not the VUs, cannot keep the
// rate. A scenario prints one warning about dropped iterations: this one
// or the pool's (maxVUs reached), whichever comes first.
func (l *arrivalLoop) warnBehind(owned int64) {
	sc := l.a.env.Scenario
	if owned <= max(sc.MaxVUs, behindFloor) || l.a.env.Warn == nil || l.p.warned.Swap(true) {
		return
	}
	l.a.env.Warn(fmt.Sprintf("scenario %s: iterations come due faster than this machine starts them (%d at once, more than maxVUs %d); "+
		"the ones it cannot start are dropped and counted in dropped_iterations", sc.Name, owned, sc.MaxVUs))
}

// ownedIn counts the global indices from..end-1 that seg owns (all of
// them when seg is nil).
func ownedIn(seg Segment, from, end int64) int64 {
	if seg == nil {
		return end - from
	}
	return seg.Scale(end) - seg.Scale(from)
}

// drop counts n iterations that found no idle VU, as one dropped_iterations
// sample of value n.
func (a *arrivalRate) drop(n int64) {
	a.stats.Dropped.Add(n)
	a.env.Engine.Push(metrics.Sample{Metric: a.env.Builtin.DroppedIterations, Tags: a.env.Tags, Time: time.Now(), Value: float64(n)})
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

// TargetRate returns the arrival rate due now, in iterations per second;
// for trace-replay, the rows due in the last second.
func (a *arrivalRate) TargetRate(elapsed time.Duration) float64 {
	sc := a.env.Scenario
	if sc.Executor == options.TraceReplay { // the rows due in the last second
		return float64(DueBy(a.due, 0, elapsed) - DueBy(a.due, 0, elapsed-time.Second))
	}
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
