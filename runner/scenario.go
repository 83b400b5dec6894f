package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/usefullatency/usefullatency/executor"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// scenarioRun is one scenario of a run: its config, its executor, the VUs
// initialised for it and the template of its iterations.
type scenarioRun struct {
	sc   options.Scenario
	ex   executor.Executor
	plan executor.Plan
	vus  []executor.VU
	info *modules.ScenarioInfo
	tags metrics.Tags
}

func (e *execution) newScenarioRun(sc options.Scenario, tuple options.Tuple) (*scenarioRun, error) {
	if !e.t.Main.HasFunction(sc.Exec) {
		return nil, fmt.Errorf("scenarios.%s.exec: function %q is not exported by the script", sc.Name, sc.Exec)
	}
	sr := &scenarioRun{sc: sc, tags: e.t.Run.Tags.With("scenario", sc.Name)}
	for k, v := range sc.Tags {
		sr.tags = sr.tags.With(k, v)
	}
	sr.info = &modules.ScenarioInfo{Name: sc.Name, Executor: sc.Executor, Exec: sc.Exec, Progress: sr.progress, Browser: sc.Browser}
	var seg executor.Segment
	if !tuple.IsFull() {
		seg = tuple
	}
	env := executor.Env{
		Scenario: sc, Iterate: e.iterate(sr), Engine: e.t.Run.Engine, Builtin: e.t.Run.Builtin,
		Tags: sr.tags, Segment: seg, Pace: e.cfg.Pace, Warn: func(m string) { fmt.Fprintln(e.cfg.Stderr, "WARN "+m) },
		NewVU: func(ctx context.Context) (executor.VU, error) {
			vu, err := e.newVU(ctx)
			if err != nil {
				e.errs.log(0, 0, fmt.Errorf("initialising a VU: %w", err))
				return nil, err
			}
			return vu, nil
		},
	}
	if sc.Executor == options.TraceReplay {
		var err error
		if env.Trace, err = e.readTrace(sc); err != nil {
			return nil, err
		}
	}
	ex, err := executor.New(env)
	if err != nil {
		return nil, err
	}
	sr.ex, sr.plan = ex, ex.Plan()
	return sr, nil
}

// TracePath returns the absolute path of a trace-replay scenario's file:
// File, relative to the main script's directory.
func (t *Test) TracePath(sc options.Scenario) string {
	if filepath.IsAbs(sc.File) {
		return filepath.Clean(sc.File)
	}
	return filepath.Join(filepath.Dir(t.Bundle.Path), sc.File)
}

// ReadTraces reads the files of the trace-replay scenarios through the
// bundle, so that a recording bundle (usefullatency archive) records them;
// it returns the first read that fails.
func (t *Test) ReadTraces(scenarios []options.Scenario) error {
	for _, sc := range scenarios {
		if sc.Executor != options.TraceReplay {
			continue
		}
		if _, err := t.Bundle.ReadFile(t.TracePath(sc)); err != nil {
			return fmt.Errorf("scenarios.%s.file: %w", sc.Name, err)
		}
	}
	return nil
}

// readTrace reads a trace-replay scenario's file once per run.
func (e *execution) readTrace(sc options.Scenario) (*executor.Trace, error) { return e.t.ReadTrace(sc) }

// ReadTrace reads and parses a trace-replay scenario's file, its path
// relative to the script's directory, through the bundle (from the
// archive when the test plays one).
func (t *Test) ReadTrace(sc options.Scenario) (*executor.Trace, error) {
	path := t.TracePath(sc)
	data, err := t.Bundle.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("scenarios.%s.file: %s does not exist", sc.Name, path)
	}
	if err != nil {
		return nil, fmt.Errorf("scenarios.%s.file: %w", sc.Name, err)
	}
	tr, err := executor.ParseTrace(path, data, sc)
	if err != nil {
		return nil, fmt.Errorf("scenarios.%s: %w", sc.Name, err)
	}
	return tr, nil
}

// run waits for the scenario's startTime, then runs its executor. The
// executor's VUs are handed over here, after they were initialised.
func (sr *scenarioRun) run(ctx context.Context, testStart time.Time) {
	start := testStart.Add(time.Duration(sr.sc.StartTime))
	t := time.NewTimer(time.Until(start))
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		sr.ex.Stats().Done.Store(true)
		return
	}
	sr.info.StartTime = start
	sr.ex.SetVUs(sr.vus)
	_ = sr.ex.Run(ctx, start)
}

// progress returns the scenario's progress from 0 to 1 by time.
func (sr *scenarioRun) progress() float64 {
	st := sr.ex.Stats()
	if st.Done.Load() {
		return 1
	}
	started := st.StartedAt.Load()
	if started == 0 || sr.plan.Duration <= 0 {
		return 0
	}
	return min(1, float64(time.Since(time.Unix(0, started)))/float64(sr.plan.Duration))
}

// iterate returns the scenario's iteration function: it runs the exec
// function on a VU and maps the result to an outcome. A completed
// iteration shorter than minIterationDuration is followed by a wait for
// the rest of it (after its metrics, as in k6), which ctx interrupts.
func (e *execution) iterate(sr *scenarioRun) executor.IterateFunc {
	minDur := time.Duration(e.cfg.Options.MinIterationDuration)
	return func(ctx context.Context, v executor.VU, it executor.Iteration) executor.Outcome {
		vu := v.(*js.VU)
		start := time.Now()
		err := vu.RunIteration(ctx, js.Iteration{Exec: sr.sc.Exec, Scenario: sr.info, Tags: sr.tags,
			Env: sr.sc.Env, InInstance: it.InInstance, InTest: it.InTest, Scheduled: it.Scheduled, Row: it.Row})
		var abort *js.AbortError
		switch {
		case err == nil:
			waitUntil(ctx, start.Add(minDur))
			return executor.Completed
		case errors.Is(err, js.ErrInterrupted):
			return executor.Interrupted
		case errors.As(err, &abort):
			return executor.Aborted
		}
		e.errs.log(vu.ID(), vu.State().Iteration-1, err)
		return executor.Failed
	}
}

// waitUntil returns at t, or earlier when ctx is done.
func waitUntil(ctx context.Context, t time.Time) {
	d := time.Until(t)
	if d <= 0 {
		return
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}
