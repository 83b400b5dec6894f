package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/executor"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// ExecutionStatus is the state of a run, numbered as k6's REST API numbers
// it in the status attribute of GET /v1/status.
type ExecutionStatus uint32

// The states of a run, in the order a run goes through them.
const (
	StatusCreated ExecutionStatus = iota
	StatusInitVUs
	StatusInitExecutors
	StatusInitDone
	StatusPausedBeforeRun
	StatusStarted
	StatusSetup
	StatusRunning
	StatusTeardown
	StatusEnded
	StatusInterrupted
	StatusMarkedAsFailed
)

// Status is a snapshot of a run, the attributes of k6's status document.
type Status struct {
	Status ExecutionStatus
	// Paused is true while a test started with --paused waits to be
	// resumed, and while a running test whose scenarios are all
	// externally-controlled is paused.
	Paused bool
	// VUs are the VUs running iterations now; VUsMax the VUs initialised.
	VUs, VUsMax int64
	// Stopped is true once the run was stopped before its end: by the
	// REST API, a signal, exec.test.abort() or an abortOnFail threshold.
	Stopped bool
	// Running is true from the start (after the pause) to the end of
	// teardown.
	Running bool
	// Tainted is true while a threshold is crossed.
	Tainted bool
}

// ErrAlreadyPaused is returned by SetPaused(true) on a test that waits to
// be resumed.
var ErrAlreadyPaused = errors.New("execution is already paused")

// ErrNotExternallyControlled is returned by Scale when the test has no
// externally-controlled scenario, the only executor whose VUs change
// while it runs; k6's message.
var ErrNotExternallyControlled = errors.New("an externally-controlled executor needs to be configured for live configuration updates")

// Control is the handle through which the REST API watches and steers one
// run of a Test: a pause gate before setup and the scenarios, a stop that
// takes the same path as SIGINT, read-only views of the metrics and groups,
// and the setup data. Create it with NewControl and pass it in
// Config.Control; its methods are safe for concurrent use, before, during
// and after Execute.
type Control struct {
	t    *Test
	opts options.Options

	status atomic.Uint32
	exec   atomic.Pointer[execution]

	// steer serialises SetPaused and Scale, which may wait for
	// iterations to stop; mu is not held meanwhile, so Status answers.
	steer sync.Mutex

	mu      sync.Mutex
	paused  bool
	resume  chan struct{}
	started bool
	ended   bool
	stopped bool
	runCtx  context.Context
	cancel  context.CancelFunc

	setupMu   sync.Mutex
	setupJSON []byte
}

// NewControl returns the control of a run of t with the consolidated opts;
// the run waits to be resumed before setup when opts.Paused is set.
func NewControl(t *Test, opts options.Options) *Control {
	return &Control{t: t, opts: opts, paused: opts.Paused, resume: make(chan struct{})}
}

// bind attaches the control to the execution and its run context, whose
// cancel stops the run.
func (c *Control) bind(e *execution, runCtx context.Context, cancel context.CancelFunc) {
	c.exec.Store(e)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.runCtx, c.cancel = runCtx, cancel
	if c.stopped {
		cancel()
	}
}

func (c *Control) setStatus(s ExecutionStatus) { c.status.Store(uint32(s)) }

// Status returns a snapshot of the run.
func (c *Control) Status() Status {
	c.mu.Lock()
	s := Status{Status: ExecutionStatus(c.status.Load()), Paused: c.paused, Running: c.started && !c.ended}
	// Once the run ended, its context is canceled whatever the outcome.
	s.Stopped = c.stopped || (c.ended && s.Status == StatusInterrupted) ||
		(!c.ended && c.runCtx != nil && c.runCtx.Err() != nil)
	c.mu.Unlock()
	if e := c.exec.Load(); e != nil {
		s.VUs, s.VUsMax = e.VUsActive(), e.VUsInitialized()
		s.Stopped = s.Stopped || e.aborted.Load() || e.thresholdStop.Load()
	}
	c.t.Run.Engine.Read(func() { s.Tainted = len(metrics.CrossedMetrics(c.t.Run.Registry)) > 0 })
	return s
}

// SetPaused resumes a test that waits before its start (pause false), and
// pauses or resumes a running test whose scenarios are all
// externally-controlled, as k6 does: their VUs finish the iterations in
// flight and wait, and their durations do not count the pause. As in k6,
// every other request is an error: pausing a test that waits already,
// pausing a paused test or resuming a running one, and pausing or
// resuming a started test with a scenario of another executor.
func (c *Control) SetPaused(pause bool) error {
	c.steer.Lock()
	defer c.steer.Unlock()
	c.mu.Lock()
	if !c.started && c.paused {
		defer c.mu.Unlock()
		if pause {
			return ErrAlreadyPaused
		}
		c.paused = false
		close(c.resume)
		return nil
	}
	c.mu.Unlock()
	controlled, err := c.pausable()
	if err != nil {
		return err
	}
	for _, ex := range controlled {
		if err := ex.SetPaused(pause); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case pause && c.paused:
		return errors.New("test execution was already paused")
	case !pause && !c.paused:
		return errors.New("test execution wasn't paused")
	}
	c.paused = pause
	return nil
}

// pausable returns the executors of the test when all of them can be
// paused, else the error that names the first scenario that cannot.
func (c *Control) pausable() ([]executor.Controlled, error) {
	e := c.exec.Load()
	if e == nil {
		return nil, errors.New("the test can't be paused or resumed once it has started; start it paused with --paused instead")
	}
	var out []executor.Controlled
	for _, sr := range e.scenarios {
		ex, ok := sr.ex.(executor.Controlled)
		if !ok {
			return nil, fmt.Errorf("%s executor '%s' can't be paused or resumed once the test has started; start it paused with --paused instead",
				sr.sc.Executor, sr.sc.Name)
		}
		out = append(out, ex)
	}
	return out, nil
}

// Scale sets the active VUs and the VUs initialised (maxVUs) of the
// test's first externally-controlled scenario, by startTime then name, as
// k6's REST API does; nil keeps a count. Without such a scenario it
// returns ErrNotExternallyControlled; a change the executor refuses (vus
// above maxVUs, maxVUs below the scenario's own) returns the executor's
// error. It returns when the change took effect.
func (c *Control) Scale(vus, maxVUs *int64) error {
	c.steer.Lock()
	defer c.steer.Unlock()
	var first *options.Scenario
	for i := range c.opts.Scenarios {
		sc := &c.opts.Scenarios[i]
		if sc.Executor == options.ExternallyControlled && (first == nil || sc.StartTime < first.StartTime ||
			sc.StartTime == first.StartTime && sc.Name < first.Name) {
			first = sc
		}
	}
	if first == nil {
		return ErrNotExternallyControlled
	}
	e := c.exec.Load()
	if e == nil {
		return errors.New("the test's scenarios are not ready yet: try again once its VUs are initialising")
	}
	for _, sr := range e.scenarios {
		if ex, ok := sr.ex.(executor.Controlled); ok && sr.sc.Name == first.Name {
			return ex.Scale(vus, maxVUs)
		}
	}
	return ErrNotExternallyControlled
}

// Stop stops the run as a first SIGINT does: the iterations in flight are
// interrupted, teardown runs, the summary is written, and the run exits
// with ExitStoppedFromAPI unless it was already stopped otherwise.
func (c *Control) Stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped || (c.runCtx != nil && c.runCtx.Err() != nil) {
		return
	}
	c.stopped = true
	if c.cancel != nil {
		c.cancel()
	}
}

// stoppedFromAPI reports whether Stop stopped the run.
func (c *Control) stoppedFromAPI() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopped
}

// waitStart waits while the test is paused; it returns false when ctx
// ended first. Either way the test counts as started afterwards only when
// it returns true.
func (c *Control) waitStart(ctx context.Context) bool {
	c.mu.Lock()
	paused, resume := c.paused, c.resume
	c.mu.Unlock()
	if paused {
		c.setStatus(StatusPausedBeforeRun)
		select {
		case <-resume:
		case <-ctx.Done():
			return false
		}
	}
	c.mu.Lock()
	c.started = true
	c.mu.Unlock()
	c.setStatus(StatusStarted)
	return true
}

// end marks the run as over with its final status.
func (c *Control) end(s ExecutionStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	c.setStatus(s)
}

// ReadMetrics calls fn, with the samples folded so far locked, on every
// metric and submetric that received a sample, sorted by name, and the
// test's run time (0 before the scenarios start, frozen at its end), from
// which counters' rates are computed.
func (c *Control) ReadMetrics(fn func(observed []*metrics.Metric, elapsed time.Duration)) {
	var elapsed time.Duration
	if e := c.exec.Load(); e != nil {
		elapsed = e.Elapsed()
	}
	c.t.Run.Engine.Read(func() {
		var observed []*metrics.Metric
		for _, m := range c.t.Run.Registry.All() {
			if !m.Sink.Empty() {
				observed = append(observed, m)
			}
			for _, sub := range m.Submetrics {
				if !sub.Metric.Sink.Empty() {
					observed = append(observed, sub.Metric)
				}
			}
		}
		fn(observed, elapsed)
	})
}

// RootGroup returns the root of the test's groups and checks.
func (c *Control) RootGroup() *metrics.Group { return c.t.Run.Root }

// SetupData returns the setup data as JSON; nil when there is none.
func (c *Control) SetupData() []byte {
	c.setupMu.Lock()
	defer c.setupMu.Unlock()
	return c.setupJSON
}

// SetSetupData replaces the setup data (JSON, or nil for none). VUs take
// the setup data as the scenarios start; a change after that reaches
// teardown and the VUs initialised later.
func (c *Control) SetSetupData(data []byte) {
	c.setupMu.Lock()
	defer c.setupMu.Unlock()
	c.setupJSON = data
}

// RunSetup runs the script's setup() now, within setupTimeout, and keeps
// its result as the setup data.
func (c *Control) RunSetup(ctx context.Context) error {
	data, _, err := c.t.callSetup(ctx, time.Duration(c.opts.SetupTimeout))
	if err != nil {
		return err
	}
	c.SetSetupData(data)
	return nil
}

// RunTeardown runs the script's teardown(data) now, within
// teardownTimeout, with the current setup data.
func (c *Control) RunTeardown(ctx context.Context) error {
	_, err := c.t.callTeardown(ctx, time.Duration(c.opts.TeardownTimeout), c.SetupData())
	return err
}
