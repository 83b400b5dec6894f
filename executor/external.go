package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Controlled is an executor whose VUs are steered while it runs, through
// the REST API: k6's externally-controlled.
type Controlled interface {
	Executor
	// Scale sets the active VUs and maxVUs, the whole test's counts (an
	// execution segment runs its share of them); nil keeps a count. It
	// returns when the change took effect: the VUs added initialised, the
	// VUs taken away stopped.
	Scale(vus, maxVUs *int64) error
	// SetPaused pauses the VUs, letting their iterations finish, or
	// resumes them; asking for the current state does nothing.
	SetPaused(pause bool) error
}

var _ Controlled = (*externallyControlled)(nil)

// externallyControlled runs k6's externally-controlled executor. Its VUs
// loop like constant-vus' while they are active: VU k, in the order they
// were initialised, is active while k < vus and the executor is not
// paused. maxVUs VUs are initialised before the test; raising maxVUs
// initialises more, lowering it (not below the scenario's own maxVUs)
// gives the VUs above it up. A VU made inactive by Scale has its
// iteration interrupted; a pause lets it finish. The scenario ends after
// its duration, paused time excluded, or, for duration 0, when the test
// stops; its iterations are then interrupted (it has no gracefulStop).
type externallyControlled struct {
	env      Env
	stats    Stats
	plan     Plan
	index    atomic.Int64
	duration time.Duration
	// startMax is the scenario's maxVUs, the whole test's: maxVUs never
	// goes below it.
	startMax int64

	// change serialises Scale and SetPaused, which apply one at a time.
	change sync.Mutex

	// mu guards the fields below, which the VUs' loops read.
	mu sync.Mutex
	// vus and maxVUs are the counts as last set, the whole test's.
	vus, maxVUs int64
	phase       phase
	// ctx is the run's context, set by Run; its end stops every loop.
	ctx context.Context
	// active is this instance's share of vus: VUs 0..active-1 loop.
	active  int64
	handles []*vuHandle
	paused  bool
	// pausedAt is when the current pause began; pausedFor the length of
	// the pauses that ended, which the scenario's end is moved by.
	pausedAt  time.Time
	pausedFor time.Duration
	// pauseChanged wakes Run's clock on a pause or a resume.
	pauseChanged chan struct{}
	loops        sync.WaitGroup
}

// phase is where the executor is in its life.
type phase uint8

const (
	phaseWaiting phase = iota // before Run
	phaseRunning
	phaseEnded
)

// vuHandle is one VU of the executor and the state of its loop, guarded
// by the executor's mu.
type vuHandle struct {
	k  int64
	vu VU
	// wake tells a parked loop to look again whether it may run.
	wake chan struct{}
	// looping is true from the loop's first iteration until it parks;
	// stopped is closed when it parks.
	looping bool
	stopped chan struct{}
	// cancel interrupts the iteration in flight; nil between iterations.
	cancel context.CancelFunc
	// removed ends the loop: maxVUs went below the VU.
	removed bool
}

func newExternallyControlled(env Env) *externallyControlled {
	sc := env.Scenario
	d := time.Duration(sc.Duration)
	shown := "infinite"
	if d > 0 {
		shown = d.String()
	}
	maxVUs := env.scale(sc.MaxVUs)
	return &externallyControlled{
		env: env, duration: d, startMax: sc.MaxVUs, vus: sc.VUs, maxVUs: sc.MaxVUs,
		pauseChanged: make(chan struct{}, 1),
		plan: Plan{PreVUs: maxVUs, MaxVUs: maxVUs, Duration: d,
			Description: fmt.Sprintf("Externally controlled execution with %d VUs, %d max VUs, %s duration (scaled over the REST API)",
				env.scale(sc.VUs), maxVUs, shown)},
	}
}

func (x *externallyControlled) Stats() *Stats   { return &x.stats }
func (x *externallyControlled) Plan() Plan      { return x.plan }
func (x *externallyControlled) SetVUs(vus []VU) { x.env.VUs = vus }

// errEnded refuses changes once the scenario is over.
func (x *externallyControlled) errEnded() error {
	return fmt.Errorf("the externally-controlled scenario %q has ended", x.env.Scenario.Name)
}

// Run hands every VU its loop, applies the counts set so far (a change
// while the test waited paused applies now), and returns when the
// scenario has ended and every iteration stopped.
func (x *externallyControlled) Run(ctx context.Context, start time.Time) error {
	x.stats.StartedAt.Store(start.UnixNano())
	defer x.stats.Done.Store(true)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	x.change.Lock()
	x.mu.Lock()
	x.ctx, x.phase = runCtx, phaseRunning
	vus, maxVUs := x.vus, x.maxVUs
	x.mu.Unlock()
	for _, vu := range x.env.VUs {
		x.addHandle(vu)
	}
	x.stats.Initialised.Store(int64(len(x.env.VUs)))
	err := x.apply(vus, maxVUs)
	x.change.Unlock()
	if err == nil {
		x.clock(runCtx, start)
	}
	cancel()
	x.loops.Wait()
	x.change.Lock()
	defer x.change.Unlock()
	x.mu.Lock()
	defer x.mu.Unlock()
	x.phase = phaseEnded
	// As k6 does at the end, the VUs above the scenario's own maxVUs are
	// given up.
	x.release(x.env.scale(x.startMax))
	return err
}

// clock returns when the scenario's duration has passed, paused time
// excluded, or when ctx ends; with duration 0 only when ctx ends.
func (x *externallyControlled) clock(ctx context.Context, start time.Time) {
	if x.duration == 0 {
		<-ctx.Done()
		return
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		x.mu.Lock()
		paused, end := x.paused, start.Add(x.duration+x.pausedFor)
		x.mu.Unlock()
		var tick <-chan time.Time
		if !paused {
			left := time.Until(end)
			if left <= 0 {
				return
			}
			timer.Reset(left)
			tick = timer.C
		}
		select {
		case <-ctx.Done():
			return
		case <-tick:
		case <-x.pauseChanged:
		}
	}
}

// Scale validates the counts as k6 does and applies them: before the
// start they are kept for it, after the end they are refused.
func (x *externallyControlled) Scale(vus, maxVUs *int64) error {
	x.change.Lock()
	defer x.change.Unlock()
	x.mu.Lock()
	newVUs, newMax, ph := x.vus, x.maxVUs, x.phase
	x.mu.Unlock()
	if vus != nil {
		newVUs = *vus
	}
	if maxVUs != nil {
		newMax = *maxVUs
	}
	if err := checkCounts(newVUs, newMax, x.startMax); err != nil {
		return err
	}
	switch ph {
	case phaseEnded:
		return x.errEnded()
	case phaseWaiting:
		x.mu.Lock()
		x.vus, x.maxVUs = newVUs, newMax
		x.mu.Unlock()
		return nil
	}
	return x.apply(newVUs, newMax)
}

// checkCounts applies k6's rules to new counts, with its messages: vus
// not negative and at most maxVUs, then maxVUs not below the scenario's
// starting maxVUs.
func checkCounts(vus, maxVUs, startMax int64) error {
	var problems []string
	if vus < 0 {
		problems = append(problems, "the number of VUs can't be negative")
	}
	if maxVUs < vus {
		problems = append(problems, fmt.Sprintf(
			"the number of active VUs (%d) must be less than or equal to the number of maxVUs (%d)", vus, maxVUs))
	}
	if problems != nil {
		return errors.New("invalid configuration supplied: " + strings.Join(problems, ", "))
	}
	if maxVUs < startMax {
		return fmt.Errorf("the new number of max VUs cannot be lower than the starting number of max VUs (%d)", startMax)
	}
	return nil
}

// apply moves the running executor to valid counts, as k6 does: it
// initialises the VUs up to maxVUs, one after the other, then starts the
// VUs that become active or stops, interrupting their iterations, those
// that no longer are, and waits for them, then gives up the VUs above
// maxVUs. Called with change held.
func (x *externallyControlled) apply(vus, maxVUs int64) error {
	wantMax, wantActive := x.env.scale(maxVUs), x.env.scale(vus)
	for int64(len(x.handles)) < wantMax {
		if x.ctx.Err() != nil {
			return x.ctx.Err()
		}
		vu, err := x.newVU()
		if err != nil {
			return fmt.Errorf("initialising a VU: %w", err)
		}
		x.addHandle(vu)
		x.stats.Initialised.Add(1)
	}
	x.mu.Lock()
	old := x.active
	x.active = wantActive
	var stopping []<-chan struct{}
	for k := min(old, wantActive); k < max(old, wantActive); k++ {
		h := x.handles[k]
		if wantActive > old {
			if !x.paused { // else the resume starts it
				x.start(h)
			}
			continue
		}
		if h.cancel != nil {
			h.cancel()
		}
		if h.looping {
			stopping = append(stopping, h.stopped)
		}
	}
	x.mu.Unlock()
	x.await(stopping)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.release(wantMax)
	x.vus, x.maxVUs = vus, maxVUs
	return nil
}

// newVU initialises one more VU; the executor cannot grow without NewVU.
func (x *externallyControlled) newVU() (VU, error) {
	if x.env.NewVU == nil {
		return nil, errors.New("this run cannot initialise VUs during the test")
	}
	return x.env.NewVU(x.ctx)
}

// release gives up the VUs from the n-th on, which are idle: their loops
// end. Called with mu held.
func (x *externallyControlled) release(n int64) {
	if int64(len(x.handles)) <= n {
		return
	}
	for _, h := range x.handles[n:] {
		h.removed = true
		h.signal()
	}
	gone := int64(len(x.handles)) - n
	x.handles = x.handles[:n]
	x.stats.Initialised.Add(-gone)
	x.stats.Released.Add(gone)
}

// SetPaused pauses or resumes the VUs, as k6's executor does: a pause
// lets the iterations in flight finish and returns when they have; it is
// refused before the scenario starts and after it ended.
func (x *externallyControlled) SetPaused(pause bool) error {
	x.change.Lock()
	defer x.change.Unlock()
	x.mu.Lock()
	switch {
	case x.phase == phaseWaiting:
		x.mu.Unlock()
		return errors.New("cannot pause the externally controlled executor before it has started")
	case x.phase == phaseEnded:
		x.mu.Unlock()
		return x.errEnded()
	case pause == x.paused:
		x.mu.Unlock()
		return nil
	}
	x.paused = pause
	var stopping []<-chan struct{}
	if pause {
		x.pausedAt = time.Now()
		for _, h := range x.handles {
			if h.looping {
				stopping = append(stopping, h.stopped)
			}
		}
	} else {
		x.pausedFor += time.Since(x.pausedAt)
		for _, h := range x.handles[:x.active] {
			x.start(h)
		}
	}
	x.mu.Unlock()
	select {
	case x.pauseChanged <- struct{}{}:
	default:
	}
	x.await(stopping)
	return nil
}

// await waits until every channel is closed or the run ends.
func (x *externallyControlled) await(stopping []<-chan struct{}) {
	for _, ch := range stopping {
		select {
		case <-ch:
		case <-x.ctx.Done():
			return
		}
	}
}

// addHandle appends vu as the next VU and starts its loop, parked until
// it may run.
func (x *externallyControlled) addHandle(vu VU) {
	x.mu.Lock()
	h := &vuHandle{k: int64(len(x.handles)), vu: vu, wake: make(chan struct{}, 1)}
	x.handles = append(x.handles, h)
	x.mu.Unlock()
	x.loops.Add(1)
	go x.loop(h)
}

// start counts h as active from now on, as the status reports it, and
// wakes its loop. Called with mu held.
func (x *externallyControlled) start(h *vuHandle) {
	if !h.looping {
		h.looping, h.stopped = true, make(chan struct{})
		x.stats.activate()
	}
	h.signal()
}

// signal wakes h's loop if it is parked.
func (h *vuHandle) signal() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// loop runs h's iterations while it may, and parks in between.
func (x *externallyControlled) loop(h *vuHandle) {
	defer x.loops.Done()
	for {
		ictx, ok := x.next(h)
		if ictx != nil {
			x.iterate(ictx, h)
			continue
		}
		if !ok {
			return
		}
		select {
		case <-h.wake:
		case <-x.ctx.Done():
		}
	}
}

// next decides, under mu, what h's loop does: run an iteration under the
// returned context, park (nil, true), or end (nil, false).
func (x *externallyControlled) next(h *vuHandle) (context.Context, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if h.removed || x.ctx.Err() != nil || x.paused || h.k >= x.active {
		if h.looping {
			h.looping = false
			close(h.stopped)
			x.stats.deactivate()
		}
		return nil, !h.removed && x.ctx.Err() == nil
	}
	x.start(h)
	ictx, cancel := context.WithCancel(x.ctx)
	h.cancel = cancel
	return ictx, true
}

// iterate runs one iteration of h's VU under ctx.
func (x *externallyControlled) iterate(ctx context.Context, h *vuHandle) {
	scheduled := time.Now()
	x.env.pushLag(scheduled)
	local := x.index.Add(1) - 1
	x.stats.count(x.env.Iterate(ctx, h.vu, Iteration{InInstance: local, InTest: x.env.global(local), Scheduled: scheduled}))
	x.mu.Lock()
	h.cancel()
	h.cancel = nil
	x.mu.Unlock()
}
