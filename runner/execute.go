package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/executor"
	"github.com/usefullatency/usefullatency/internal/cpugate"
	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/output"
	"github.com/usefullatency/usefullatency/summary"
)

// ExitSetupTimeout and ExitTeardownTimeout are k6's codes for a setup() or
// teardown() that ran past its timeout.
const (
	ExitSetupTimeout    = 100
	ExitTeardownTimeout = 101
)

// Config is how a loaded test is run.
type Config struct {
	Options options.Options
	// ScriptName is shown in the banner.
	ScriptName     string
	Stdout, Stderr io.Writer
	// StdoutTTY and StderrTTY say whether the streams are terminals.
	StdoutTTY, StderrTTY bool
	// Env is the process environment, by key, from which the -o outputs
	// read their K6_* settings (K6_PROMETHEUS_RW_SERVER_URL,
	// K6_CSV_FILENAME, ...). The runner never reads the environment of the
	// process itself; nil reads as empty.
	Env map[string]string
	// Control is the handle through which the REST API watches and steers
	// the run; Execute makes its own when it is nil.
	Control *Control
	// APIAddress is where the REST API listens, "" when it does not; the
	// aggregator output tells the aggregator, which stops the run there.
	APIAddress string
	// Force ends with a second signal; nil never ends. Execute's ctx ends
	// with the first: it stops the scenarios, and interrupts the phase
	// running then (init, setup(), teardown(), handleSummary()). teardown()
	// and handleSummary() still run after a first signal that stopped the
	// scenarios; Force interrupts them, handleSummary() is then skipped,
	// and what is already measured (the summary export, the outputs' files)
	// is written before Execute returns.
	Force context.Context
	// Pace sets the rate of the arrival-rate scenarios it names step by
	// step (a capacity search); nil runs every scenario as written.
	Pace *executor.Pace
}

// execution is the state of one Execute call.
type execution struct {
	t   *Test
	cfg Config
	// capture is --probe-capture's packet capture, opened on first use.
	capture *probeCapture
	// signal is Execute's context, which the first signal ends.
	signal    context.Context
	scenarios []*scenarioRun
	// start and end are when the scenarios started and teardown ended;
	// nil until then.
	start, end atomic.Pointer[time.Time]
	ctl        *Control
	nextVU     atomic.Int64
	tuple      options.Tuple
	outputs    []output.Output
	// streaming breaks the usefulsse metrics down per bucket; nil when the
	// script does not use the streaming probe.
	streaming *metrics.Breakdown
	// byScenario breaks every metric down per scenario for the full
	// summary's SCENARIO sections; nil in the other modes, which do not
	// pay for it.
	byScenario *metrics.Breakdown
	// checksByScenario counts each scenario's checks by name; nil unless
	// byScenario is set.
	checksByScenario *metrics.CheckTally
	// byGroup breaks every metric down per group (its path), for the
	// full summary's GROUP sections; nil in the other modes.
	byGroup *metrics.Breakdown
	cancel  context.CancelFunc

	aborted       atomic.Bool
	markedFailed  atomic.Bool
	abortReason   atomic.Value
	thresholdStop atomic.Bool
	// lastVUs is the last vus sample; only the tickers' goroutine uses it.
	lastVUs int64
	// health samples the runner's CPU on the tickers' goroutine; read
	// after they stopped.
	health *health
	errs   *errorLog
	// duration is the test run duration the summary reported, in
	// nanoseconds; 0 until the summary is written. Atomic: the aggregator
	// output takes results from its own goroutine.
	duration atomic.Int64
}

// Execute runs the test with consolidated options and returns the exit
// code. The summary and exports are written whatever the outcome once
// the test started; ctx being canceled (a signal) stops the test with 105.
func (t *Test) Execute(ctx context.Context, cfg Config) (int, error) {
	ctl := cfg.Control
	if ctl == nil {
		ctl = NewControl(t, cfg.Options)
	}
	e := &execution{t: t, cfg: cfg, ctl: ctl, errs: newErrorLog(cfg.Stderr), signal: ctx}
	defer func() { e.capture.close() }() // prepare opens it with --probe-capture on
	defer t.Run.End()                    // what VUs kept open across iterations (k6/browser's Chromium)
	if err := e.prepare(); err != nil {
		return ExitInvalidConfig, err
	}
	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	ctl.bind(e, runCtx, stopRun)
	if err := e.startOutputs(); err != nil {
		return ExitInvalidConfig, err
	}
	defer e.stopOutputs()
	t.planTurns()
	initStart := time.Now()
	ctl.setStatus(StatusInitVUs)
	if err := e.initVUs(runCtx); err != nil {
		if runCtx.Err() != nil {
			ctl.end(StatusInterrupted)
			return e.interrupted("VU initialisation", ctx.Err() != nil)
		}
		return initExit(err), err
	}
	ctl.setStatus(StatusInitDone)
	e.banner(time.Since(initStart))
	width := t.governWidth()
	code, proceed, err := e.run(runCtx)
	width.Stop()
	if !proceed {
		ctl.end(StatusInterrupted)
		if runCtx.Err() != nil && errors.Is(err, js.ErrInterrupted) {
			return e.interrupted("setup()", ctx.Err() != nil)
		}
		return e.setupFailed(code, err)
	}
	signaled := ctx.Err() != nil
	failed := e.finalThresholds()
	e.linger(ctx)
	interrupted, serr := e.summarize()
	if serr != nil && err == nil {
		err = serr
	}
	// A signal that interrupted handleSummary() stopped the run too; the
	// one that ends --linger did not.
	return e.exitCode(signaled || interrupted, code, failed), err
}

// run waits while the test is paused, then runs setup, the scenarios and
// teardown, and marks the run's end. A test stopped while paused skips
// them all. proceed is false when setup failed: the run goes straight to
// its summary (setupFailed).
func (e *execution) run(ctx context.Context) (code int, proceed bool, err error) {
	if e.ctl.Status().Paused && !e.cfg.Options.Quiet {
		fmt.Fprintln(e.cfg.Stderr, "INFO the test is paused: PATCH /v1/status with paused: false starts it")
	}
	if !e.ctl.waitStart(ctx) {
		e.ctl.end(StatusInterrupted)
		return 0, true, nil
	}
	if code, err := e.setup(ctx); err != nil {
		return code, false, err
	}
	e.ctl.setStatus(StatusRunning)
	e.runScenarios(ctx)
	code, err = e.teardown()
	now := time.Now()
	e.end.Store(&now)
	switch {
	case ctx.Err() != nil || e.aborted.Load() || e.thresholdStop.Load():
		e.ctl.end(StatusInterrupted)
	case e.markedFailed.Load():
		e.ctl.end(StatusMarkedAsFailed)
	default:
		e.ctl.end(StatusEnded)
	}
	return code, true, err
}

// setupFailed ends a run whose setup() threw, aborted the test or ran
// past its timeout: as k6 does, the summary and exports are still written
// and handleSummary() still runs (on what init measured), teardown does
// not run, and the exit code is setup's.
func (e *execution) setupFailed(code int, err error) (int, error) {
	now := time.Now()
	e.end.Store(&now)
	if _, serr := e.summarize(); serr != nil {
		return code, errors.Join(err, serr)
	}
	return code, err
}

// interrupted ends a run stopped (by a signal when signaled, else through
// the REST API) before its scenarios started, during stage: the summary and
// exports are written as for any stopped run, teardown does not run, and
// the exit code is ExitSignal (or ExitStoppedFromAPI).
func (e *execution) interrupted(stage string, signaled bool) (int, error) {
	code := e.exitCode(signaled, 0, false)
	err := exitf(code, "the test was interrupted during %s", stage)
	if _, serr := e.summarize(); serr != nil {
		return code, errors.Join(err, serr)
	}
	return code, err
}

// prepare applies thresholds, tags and the execution segment and builds
// the scenarios' executors.
func (e *execution) prepare() error {
	o, run := e.cfg.Options, e.t.Run
	if o.SummaryExport != "" {
		if err := checkWritable(o.SummaryExport); err != nil {
			return fmt.Errorf("--summary-export: %w", err)
		}
	}
	if !o.NoThresholds {
		var err error
		// Under the engine's lock: the REST API may read the metrics.
		run.Engine.Read(func() { err = metrics.ApplyThresholds(run.Registry, o.Thresholds) })
		if err != nil {
			return err
		}
	}
	run.Tags = metrics.Tags(o.Tags)
	if run.Tags == nil {
		run.Tags = metrics.Tags{}
	}
	run.Options = optionsMap(o)
	run.InsecureSkipTLSVerify = o.InsecureSkipTLS
	run.ProcessEnv = e.cfg.Env
	if run.ProcessEnv == nil {
		run.ProcessEnv = map[string]string{} // Config.Env: nil reads as empty
	}
	run.ProbeNetHTTP = o.ProbeTransport == "nethttp"
	capture, err := newProbeCapture(o.ProbeCapture, e.cfg.Stderr)
	if err != nil {
		return err
	}
	e.capture, run.Capture = capture, capture.get
	run.Info = e
	run.Abort = e.abort
	run.Fail = e.fail
	tuple, err := o.ExecutionTuple()
	if err != nil {
		return err
	}
	e.tuple = tuple
	e.streaming = streamingBreakdown(run)
	if summary.ParseMode(o.SummaryMode) == summary.Full && !o.NoSummary {
		e.byScenario = tagBreakdown(run, "scenario")
		e.checksByScenario = metrics.NewCheckTally("scenario", run.Builtin.Checks)
		run.Engine.Subscribe(e.checksByScenario.Add)
		e.byGroup = tagBreakdown(run, "group")
	}
	for _, sc := range o.Scenarios {
		sr, err := e.newScenarioRun(options.ScaleScenario(sc, tuple), tuple)
		if err != nil {
			return err
		}
		e.scenarios = append(e.scenarios, sr)
	}
	return nil
}

func optionsMap(o options.Options) map[string]any {
	b, err := o.InspectJSON()
	if err != nil {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// planTurns bounds how many VUs run JavaScript at once (cpugate.Plan) and
// gives the process the scheduler slot more that the network reads on.
// The VUs created from then on take turns; a test run again keeps its
// gate.
func (t *Test) planTurns() {
	if t.Run.JS != nil {
		return
	}
	procs, turns := cpugate.Plan()
	runtime.GOMAXPROCS(procs)
	t.Run.JS = cpugate.New(turns)
}

// governWidth adapts the process's scheduler slots to the load from now
// on (cpugate.Width); USEFULLATENCY_JS_TURNS=off keeps them fixed.
func (t *Test) governWidth() *cpugate.Width {
	if os.Getenv("USEFULLATENCY_JS_TURNS") == "off" {
		return nil
	}
	var log io.Writer
	if os.Getenv("USEFULLATENCY_WIDTH_LOG") != "" {
		log = os.Stderr
	}
	return cpugate.GovernWidth(log)
}

// initVUs initialises every scenario's pre-allocated VUs, in parallel.
func (e *execution) initVUs(ctx context.Context) error {
	var jobs []*[]executor.VU
	var counts []int64
	for _, sr := range e.scenarios {
		jobs = append(jobs, &sr.vus)
		counts = append(counts, sr.plan.PreVUs)
	}
	return initParallel(ctx, jobs, counts, e.newVU)
}

// newVU initialises the next VU of the test.
func (e *execution) newVU(ctx context.Context) (*js.VU, error) {
	id := e.nextVU.Add(1)
	vu, err := e.t.Bundle.NewVU(ctx, id, e.t.Run)
	if err != nil {
		return nil, err
	}
	vu.State().VUIDInTest = e.tuple.Global(id-1) + 1
	if err := vu.SetSetupData(e.ctl.SetupData()); err != nil {
		return nil, err
	}
	return vu, nil
}

// runScenarios starts every scenario at its startTime and waits for all,
// evaluating thresholds and emitting VU gauges meanwhile.
func (e *execution) runScenarios(ctx context.Context) {
	runCtx, cancel := context.WithCancel(ctx)
	e.cancel = cancel
	defer cancel()
	start := time.Now()
	e.start.Store(&start)
	e.health = newHealth(start)
	stopTickers := e.startTickers(runCtx)
	var wg sync.WaitGroup
	for _, sr := range e.scenarios {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sr.run(runCtx, start)
		}()
	}
	wg.Wait()
	stopTickers()
	e.warnHealth()
}

// linger keeps the process, and so the REST API, up after the end of the
// test until ctx ends (SIGINT or SIGTERM), when options.linger is set and
// no signal stopped the test already; the summary is written afterwards,
// as k6 does.
func (e *execution) linger(ctx context.Context) {
	if !e.cfg.Options.Linger || ctx.Err() != nil {
		return
	}
	if !e.cfg.Options.Quiet {
		fmt.Fprintln(e.cfg.Stderr, "INFO the test has ended; --linger keeps the process and its REST API up until SIGINT or SIGTERM")
	}
	<-ctx.Done()
}

// abort stops the test because the script called exec.test.abort().
func (e *execution) abort(reason string) {
	e.abortReason.Store(reason)
	if e.aborted.CompareAndSwap(false, true) {
		msg := "test aborted by the script"
		if reason != "" {
			msg += ": " + reason
		}
		fmt.Fprintln(e.cfg.Stderr, "ERRO "+msg)
	}
	if e.cancel != nil {
		e.cancel()
	}
}

// fail marks the test as failed because the script called
// exec.test.fail(); the run goes on and exits 110.
func (e *execution) fail(reason string) {
	e.markedFailed.Store(true)
	msg := "test marked as failed"
	if reason != "" {
		msg += ": " + reason
	}
	fmt.Fprintln(e.cfg.Stderr, "ERRO "+msg)
}

// finalThresholds evaluates the thresholds once more at the end.
func (e *execution) finalThresholds() (failed bool) {
	if e.cfg.Options.NoThresholds {
		return false
	}
	e.t.Run.Engine.Read(func() {
		failed, _ = metrics.EvalThresholds(e.t.Run.Registry, e.Elapsed(), true)
	})
	return failed
}

// exitCode picks the run's exit code: a setup or teardown failure first,
// then test.abort(), a stop through the REST API, a signal (signaled: ctx
// ended before the run did), test.fail(), failed thresholds.
func (e *execution) exitCode(signaled bool, code int, failed bool) int {
	switch {
	case code != 0:
		return code
	case e.aborted.Load():
		return ExitAborted
	case e.ctl.stoppedFromAPI():
		return ExitStoppedFromAPI
	case signaled:
		return ExitSignal
	case e.markedFailed.Load():
		return ExitMarkedAsFailed
	case failed || e.thresholdStop.Load():
		return ExitThresholdsFailed
	}
	return ExitOK
}

// streamingBreakdown subscribes a per-bucket breakdown of the usefulsse
// metrics to the engine when the script imported the probe (its metrics
// exist once init code ran), for the "where the time goes" summary.
func streamingBreakdown(run *modules.Run) *metrics.Breakdown {
	var ms []*metrics.Metric
	for _, name := range metrics.ProbeBreakdownNames() {
		if m := run.Registry.Get(name); m != nil {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return nil
	}
	b := metrics.NewBreakdown([]string{"bucket", "scenario"}, ms...).SplitBy(metrics.ProbeLayer)
	run.Engine.Subscribe(b.Add)
	return b
}

// tagBreakdown subscribes to the engine a breakdown of every metric the
// script and the modules registered, by the value of tag.
func tagBreakdown(run *modules.Run, tag string) *metrics.Breakdown {
	b := metrics.NewBreakdown([]string{tag}, run.Registry.All()...)
	run.Engine.Subscribe(b.Add)
	return b
}

// startOutputs builds and starts the -o outputs and subscribes them to the
// engine, so they see every sample from the first one on.
func (e *execution) startOutputs() error {
	for _, spec := range e.cfg.Options.Out {
		o, err := output.New(spec, output.Params{Env: e.cfg.Env, Registry: e.t.Run.Registry, Stdout: e.cfg.Stdout,
			Log: e.cfg.Stderr, APIAddress: e.cfg.APIAddress, Result: e.resultSnapshot})
		if err != nil {
			e.stopOutputs()
			return err
		}
		if err := o.Start(); err != nil {
			e.stopOutputs()
			return fmt.Errorf("--out %s: %w", spec, err)
		}
		e.outputs = append(e.outputs, o)
		e.t.Run.Engine.Subscribe(o.AddSamples)
	}
	return nil
}

// stopOutputs flushes and closes the outputs, also after an interrupted
// run, so nothing measured is lost from a file.
func (e *execution) stopOutputs() {
	for _, o := range e.outputs {
		if err := o.Stop(); err != nil {
			fmt.Fprintf(e.cfg.Stderr, "ERRO output %s: %s\n", o.Description(), redact.Text(err.Error()))
		}
	}
	e.outputs = nil
}
