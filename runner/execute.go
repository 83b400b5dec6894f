package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/executor"
	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/output"
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
}

// execution is the state of one Execute call.
type execution struct {
	t         *Test
	cfg       Config
	scenarios []*scenarioRun
	start     time.Time
	setupJSON []byte
	nextVU    atomic.Int64
	tuple     options.Tuple
	outputs   []output.Output
	// streaming breaks the usefulsse metrics down per bucket; nil when the
	// script does not use the streaming probe.
	streaming *metrics.Breakdown
	cancel    context.CancelFunc

	aborted       atomic.Bool
	markedFailed  atomic.Bool
	abortReason   atomic.Value
	thresholdStop atomic.Bool
	errs          *errorLog
}

// Execute runs the test with consolidated options and returns the exit
// code. The summary and exports are written whatever the outcome once
// the test started; ctx being canceled (a signal) stops the test with 105.
func (t *Test) Execute(ctx context.Context, cfg Config) (int, error) {
	e := &execution{t: t, cfg: cfg, errs: newErrorLog(cfg.Stderr)}
	if err := e.prepare(); err != nil {
		return ExitInvalidConfig, err
	}
	if err := e.startOutputs(); err != nil {
		return ExitInvalidConfig, err
	}
	defer e.stopOutputs()
	initStart := time.Now()
	if err := e.initVUs(ctx); err != nil {
		if ctx.Err() != nil {
			return e.interrupted("VU initialisation")
		}
		return initExit(err), err
	}
	e.banner(time.Since(initStart))
	code, err := e.setup(ctx)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, js.ErrInterrupted) {
			return e.interrupted("setup()")
		}
		return code, err
	}
	e.runScenarios(ctx)
	code, err = e.teardown(ctx)
	failed := e.finalThresholds()
	if serr := e.summarize(); serr != nil && err == nil {
		err = serr
	}
	return e.exitCode(ctx, code, failed), err
}

// interrupted ends a run stopped by a signal before its scenarios started
// (during stage): the summary and exports are written as for any stopped
// run, teardown does not run, and the exit code is ExitSignal.
func (e *execution) interrupted(stage string) (int, error) {
	err := exitf(ExitSignal, "the test was interrupted during %s", stage)
	if serr := e.summarize(); serr != nil {
		return ExitSignal, errors.Join(err, serr)
	}
	return ExitSignal, err
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
		if err := metrics.ApplyThresholds(run.Registry, o.Thresholds); err != nil {
			return err
		}
	}
	run.Tags = metrics.Tags(o.Tags)
	if run.Tags == nil {
		run.Tags = metrics.Tags{}
	}
	run.Options = optionsMap(o)
	run.InsecureSkipTLSVerify = o.InsecureSkipTLS
	run.Info = e
	run.Abort = e.abort
	run.Fail = e.fail
	tuple, err := o.ExecutionTuple()
	if err != nil {
		return err
	}
	e.tuple = tuple
	e.streaming = streamingBreakdown(run)
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
	if err := vu.SetSetupData(e.setupJSON); err != nil {
		return nil, err
	}
	return vu, nil
}

// setup runs the script's setup() on VU 0 and keeps its result as JSON;
// noSetup skips it, so the VUs' data is undefined.
func (e *execution) setup(ctx context.Context) (int, error) {
	if e.cfg.Options.NoSetup || !e.t.Main.HasFunction("setup") {
		return 0, nil
	}
	sctx, cancel := context.WithTimeout(ctx, time.Duration(e.cfg.Options.SetupTimeout))
	defer cancel()
	res, err := e.t.Main.Call(sctx, "setup")
	if err != nil {
		if errors.Is(err, js.ErrInterrupted) && sctx.Err() == context.DeadlineExceeded {
			return ExitSetupTimeout, fmt.Errorf("setup() execution timed out after %s", time.Duration(e.cfg.Options.SetupTimeout))
		}
		return e.scriptExit(err), fmt.Errorf("setup() failed: %w", err)
	}
	if res != nil {
		b, err := json.Marshal(res.Export())
		if err != nil {
			return ExitScriptException, fmt.Errorf("setup() returned data that is not JSON: %w", err)
		}
		e.setupJSON = b
	}
	for _, sr := range e.scenarios {
		for _, vu := range sr.vus {
			if err := vu.(*js.VU).SetSetupData(e.setupJSON); err != nil {
				return ExitScriptException, err
			}
		}
	}
	return 0, e.t.Main.SetSetupData(e.setupJSON)
}

// teardown runs the script's teardown(data) on VU 0, unless noTeardown.
func (e *execution) teardown(ctx context.Context) (int, error) {
	if e.cfg.Options.NoTeardown || !e.t.Main.HasFunction("teardown") {
		return 0, nil
	}
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Duration(e.cfg.Options.TeardownTimeout))
	defer cancel()
	if _, err := e.t.Main.Call(tctx, "teardown", e.t.Main.SetupValue()); err != nil {
		if errors.Is(err, js.ErrInterrupted) && tctx.Err() == context.DeadlineExceeded {
			return ExitTeardownTimeout, fmt.Errorf("teardown() execution timed out after %s", time.Duration(e.cfg.Options.TeardownTimeout))
		}
		return e.scriptExit(err), fmt.Errorf("teardown() failed: %w", err)
	}
	return 0, nil
}

// scriptExit maps an error of setup or teardown to its exit code.
func (e *execution) scriptExit(err error) int {
	var abort *js.AbortError
	if errors.As(err, &abort) {
		return ExitAborted
	}
	return ExitScriptException
}

// runScenarios starts every scenario at its startTime and waits for all,
// evaluating thresholds and emitting VU gauges meanwhile.
func (e *execution) runScenarios(ctx context.Context) {
	runCtx, cancel := context.WithCancel(ctx)
	e.cancel = cancel
	defer cancel()
	e.start = time.Now()
	stopTickers := e.startTickers(runCtx)
	var wg sync.WaitGroup
	for _, sr := range e.scenarios {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sr.run(runCtx, e.start)
		}()
	}
	wg.Wait()
	stopTickers()
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
// then test.abort(), a signal, test.fail(), failed thresholds.
func (e *execution) exitCode(ctx context.Context, code int, failed bool) int {
	switch {
	case code != 0:
		return code
	case e.aborted.Load():
		return ExitAborted
	case ctx.Err() != nil:
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
	b := metrics.NewBreakdown([]string{"bucket", "scenario"}, ms...)
	run.Engine.Subscribe(b.Add)
	return b
}

// startOutputs builds and starts the -o outputs and subscribes them to the
// engine, so they see every sample from the first one on.
func (e *execution) startOutputs() error {
	for _, spec := range e.cfg.Options.Out {
		o, err := output.New(spec, output.Params{Env: e.cfg.Env, Registry: e.t.Run.Registry, Stdout: e.cfg.Stdout, Log: e.cfg.Stderr})
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
