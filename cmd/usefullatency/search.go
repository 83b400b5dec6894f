package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/executor"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/output"
	"github.com/usefullatency/usefullatency/runner"
	"github.com/usefullatency/usefullatency/search"
)

// searchFlags are the flags `search` adds to run's.
type searchFlags struct {
	strategy             string
	min, max, resolution float64
	raise                float64
	step, settle         time.Duration
	repeat               int
	scenarios            []string
	expect               float64
	json, report         string
}

// add registers the search flags on fs, beside run's.
func (s *searchFlags) add(fs *pflag.FlagSet) {
	setUsage(fs, "Usage: usefullatency search [flags] script.js\n\n"+
		"Finds the highest arrival rate at which every threshold of the script holds: it scales the\n"+
		"arrival-rate scenarios together (keeping their mix), runs each rate for a step, judges the\n"+
		"step's window on the thresholds and on the runner's own health, and prints each step, the\n"+
		"capacity and the first gate to fail above it. Exit 0, or 99 when the capacity is below\n"+
		"--expect; 104 for a script or flags that cannot be searched. The flags of run apply too.\n\nFlags:\n")
	fs.StringVar(&s.strategy, "strategy", "staircase", "staircase (steps within one run) or runs (a bisection of fresh runs)")
	fs.Float64Var(&s.min, "min", 0, "lowest rate to try, iterations/s over the scaled scenarios (default: the script's own rate)")
	fs.Float64Var(&s.max, "max", 0, "highest rate to try (default: 10 × the script's own rate)")
	fs.Float64Var(&s.resolution, "resolution", 1, "the search stops when the highest pass and the lowest failure are this close, iterations/s")
	fs.Float64Var(&s.raise, "raise", 0, "staircase: how much each step raises the rate before the first failure (default: an eighth of --max − --min)")
	fs.DurationVar(&s.step, "step-duration", 30*time.Second, "how long each rate runs")
	fs.DurationVar(&s.settle, "settle", 10*time.Second, "the start of each step that is not judged (the system settles at the new rate); also the pause after a failed step")
	fs.IntVar(&s.repeat, "repeat", 1, "runs: fresh runs at each rate; a rate passes when all of them pass")
	fs.StringArrayVar(&s.scenarios, "scenario", nil, "scale only this arrival-rate scenario (repeatable; default: every one)")
	fs.Float64Var(&s.expect, "expect", 0, "exit 99 when the capacity found is below this rate (a CI gate on capacity)")
	fs.StringVar(&s.json, "json", "", "write the search's steps and answer as JSON to FILE (- for stdout)")
	// run's --report becomes the search's page: the runs write none.
	fs.Lookup("report").Usage = "write the search's HTML page to FILE: each gate's value against the rate"
}

// searcher is one `usefullatency search`.
type searcher struct {
	f              *runFlags
	sf             *searchFlags
	script         string
	env            map[string]string
	stdout, stderr io.Writer
	console        io.Writer
	// scaled are the names of the scaled scenarios; base is their rate
	// together, iterations/s, at scale 1.
	scaled []string
	base   float64
	bounds search.Bounds
	// runs counts the runs started.
	runs int
}

// searchCmd implements `usefullatency search [flags] script.js`.
func searchCmd(args []string, stdout, stderr io.Writer) int {
	sf := &searchFlags{}
	f, script, env, code, done := parseRunWith(args, "search", stderr, func(f *runFlags) { sf.add(f.fs) })
	if done {
		return code
	}
	stderr = f.redacted(stderr)
	sf.report, f.report = f.report, ""
	if sf.strategy != "staircase" && sf.strategy != "runs" {
		return fail(stderr, runner.ExitInvalidConfig, fmt.Errorf("--strategy %q: staircase or runs", sf.strategy))
	}
	ses, err := openSession(f, env, stdout, stderr)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	defer ses.close()
	s := &searcher{f: f, sf: sf, script: script, env: env, stdout: stdout, stderr: stderr, console: ses.console}
	return s.run(ses.ctx, ses.force)
}

// run searches and prints the answer; the exit code is 99 when the
// capacity lies below --expect.
func (s *searcher) run(ctx, force context.Context) int {
	began := time.Now()
	var strat search.Strategy
	code, ok := s.prepare(ctx)
	if !ok {
		return code
	}
	if s.sf.strategy == "runs" {
		strat = search.NewBisect(s.bounds, s.sf.repeat)
		code = s.acrossRuns(ctx, force, strat.(*search.Bisect))
	} else {
		strat = search.NewStaircase(s.bounds, s.sf.raise)
		code = s.withinRun(ctx, force, strat)
	}
	ans := strat.Answer()
	ans.Seconds = math.Round(time.Since(began).Seconds()*10) / 10
	_, _, more := strat.Next()
	ans.Interrupted = more
	if s.f.fs.Changed("expect") {
		ans.SetExpect(s.sf.expect)
	}
	if err := s.write(&ans); err != nil {
		return fail(s.stderr, runner.ExitInvalidConfig, err)
	}
	if code != 0 {
		return code
	}
	if ans.Met != nil && !*ans.Met {
		fmt.Fprintf(s.stderr, "ERRO the capacity found is below --expect %s req/s\n", search.FormatRate(s.sf.expect))
		return search.ExitBelowExpected
	}
	return 0
}

// prepare loads the script once to find the scenarios to scale and the
// bounds of the search.
func (s *searcher) prepare(ctx context.Context) (int, bool) {
	_, opts, code, ok := loadScript(ctx, s.f, s.script, s.env, s.console, s.stderr)
	if !ok {
		return code, false
	}
	if err := s.scale(opts); err != nil {
		return fail(s.stderr, runner.ExitInvalidConfig, err), false
	}
	if len(opts.Thresholds) == 0 {
		return fail(s.stderr, runner.ExitInvalidConfig, fmt.Errorf("%s has no thresholds: a search finds the highest rate at which they all hold", s.script)), false
	}
	s.bounds = search.Bounds{Min: s.sf.min, Max: s.sf.max, Resolution: s.sf.resolution}
	if !s.f.fs.Changed("min") {
		s.bounds.Min = s.base
	}
	if !s.f.fs.Changed("max") {
		s.bounds.Max = 10 * s.bounds.Min
	}
	if err := s.bounds.Check(); err != nil {
		return fail(s.stderr, runner.ExitInvalidConfig, err), false
	}
	if s.sf.settle < 0 || s.sf.step <= s.sf.settle {
		return fail(s.stderr, runner.ExitInvalidConfig, fmt.Errorf("--step-duration %v: longer than --settle (%v)", s.sf.step, s.sf.settle)), false
	}
	if s.sf.repeat < 1 {
		return fail(s.stderr, runner.ExitInvalidConfig, fmt.Errorf("--repeat %d: at least 1", s.sf.repeat)), false
	}
	fmt.Fprintf(s.stderr, "search: %s, %s req/s at scale 1 over %s; %s to %s req/s, resolution %s; steps of %v judged after %v\n",
		s.sf.strategy, search.FormatRate(s.base), strings.Join(s.scaled, ", "), search.FormatRate(s.bounds.Min),
		search.FormatRate(s.bounds.Max), search.FormatRate(s.bounds.Resolution), s.sf.step, s.sf.settle)
	return 0, true
}

// scale finds the arrival-rate scenarios to scale (--scenario, or all)
// and their rate together.
func (s *searcher) scale(opts options.Options) error {
	for _, name := range s.sf.scenarios {
		i := slices.IndexFunc(opts.Scenarios, func(sc options.Scenario) bool { return sc.Name == name })
		if i < 0 {
			return fmt.Errorf("--scenario %s: the script has no such scenario", name)
		}
		if !arrivalRate(opts.Scenarios[i]) {
			return fmt.Errorf("--scenario %s: a %s scenario has no rate to scale; search scales constant- and ramping-arrival-rate scenarios", name, opts.Scenarios[i].Executor)
		}
	}
	for _, sc := range opts.Scenarios {
		if arrivalRate(sc) && (len(s.sf.scenarios) == 0 || slices.Contains(s.sf.scenarios, sc.Name)) {
			s.scaled = append(s.scaled, sc.Name)
			s.base += executor.BaseRate(sc)
		}
	}
	if len(s.scaled) == 0 {
		return fmt.Errorf("%s has no constant- or ramping-arrival-rate scenario: a search scales arrival rates", s.script)
	}
	return nil
}

// arrivalRate reports whether a scenario has a rate a search can scale.
func arrivalRate(sc options.Scenario) bool {
	return sc.Executor == options.ConstantArrivalRate || sc.Executor == options.RampingArrivalRate
}

// runOptions adapts a run's options to a search up to the scale hi: the
// scaled scenarios start together, with their VUs, preallocated ones
// included, scaled to the highest rate, so that no step waits for VUs
// being initialised; the search judges the thresholds itself and prints
// its own summary.
func (s *searcher) runOptions(opts options.Options, hi float64) options.Options {
	opts.Scenarios = slices.Clone(opts.Scenarios)
	for i := range opts.Scenarios {
		sc := &opts.Scenarios[i]
		if !slices.Contains(s.scaled, sc.Name) {
			continue
		}
		pre := max(sc.PreAllocatedVUs, 1)
		sc.StartTime = 0
		sc.PreAllocatedVUs = int64(math.Ceil(float64(pre) * hi))
		sc.MaxVUs = int64(math.Ceil(float64(max(sc.MaxVUs, pre)) * hi))
		sc.PreAllocatedVUs = max(min(sc.PreAllocatedVUs, sc.MaxVUs), 1)
	}
	opts.NoThresholds, opts.NoSummary, opts.Quiet = true, true, true
	return opts
}

// load loads the script for one run and its options for scales up to hi.
func (s *searcher) load(ctx context.Context, hi float64) (*runner.Test, options.Options, int, bool) {
	test, opts, code, ok := loadScript(ctx, s.f, s.script, s.env, s.console, s.stderr)
	if !ok {
		return nil, opts, code, false
	}
	return test, s.runOptions(opts, hi), 0, true
}

// execute runs one test on pace; drive decides its steps meanwhile and
// returns when the run ended or it has decided every step.
func (s *searcher) execute(ctx, force context.Context, test *runner.Test, opts options.Options, pace *executor.Pace,
	drive func(finished <-chan struct{})) int {
	s.runs++
	finished, driven := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(driven)
		drive(finished)
	}()
	code, err := test.Execute(ctx, runner.Config{Options: opts, ScriptName: s.script, Stdout: s.stdout, Stderr: s.stderr,
		Env: options.EnvMap(os.Environ()), Force: force, Pace: pace})
	close(finished)
	<-driven
	if err != nil {
		return fail(s.stderr, max(code, runner.ExitInvalidConfig), err)
	}
	return code
}

// withinRun runs the staircase: one run whose paced scenarios change rate
// at every step, each step judged when it ends.
func (s *searcher) withinRun(ctx, force context.Context, strat search.Strategy) int {
	test, opts, code, ok := s.load(ctx, s.bounds.Max/s.base)
	if !ok {
		return code
	}
	pace := executor.NewPace(64*(s.sf.step+s.sf.settle), s.scaled...)
	col := newCollector(test)
	return s.execute(ctx, force, test, opts, pace, func(finished <-chan struct{}) {
		defer pace.End()
		select {
		case <-pace.Started():
		case <-finished:
			return
		}
		rest := false
		for {
			rate, phase, ok := strat.Next()
			if !ok {
				return
			}
			if rest {
				pace.Step(0, s.sf.settle)
			}
			length := s.sf.step
			if phase == search.PhaseConfirm {
				length *= confirmLength
			}
			from := pace.Step(rate/s.base, length)
			st, ok := s.judgeStep(col, test, opts, pace.Start(), from, from+length, finished, false)
			if !ok {
				return
			}
			st.Rate, st.Phase, st.Run = rate, phase, s.runs
			s.record(strat, st)
			rest = st.Result != search.Pass
		}
	})
}

// acrossRuns runs the bisection: a fresh run per rate and repeat, each
// one step long.
func (s *searcher) acrossRuns(ctx, force context.Context, strat *search.Bisect) int {
	for {
		rate, phase, ok := strat.Next()
		if !ok {
			return 0
		}
		repeat := strat.RepeatOf()
		test, opts, code, ok := s.load(ctx, rate/s.base)
		if !ok {
			return code
		}
		pace := executor.NewPace(s.sf.step, s.scaled...)
		pace.Step(rate/s.base, s.sf.step)
		pace.End()
		col := newCollector(test)
		var st search.Step
		judged := false
		code = s.execute(ctx, force, test, opts, pace, func(finished <-chan struct{}) {
			select {
			case <-pace.Started():
			case <-finished:
				return
			}
			st, judged = s.judgeStep(col, test, opts, pace.Start(), 0, s.sf.step, finished, true)
		})
		if code != 0 {
			return code
		}
		if !judged {
			return runner.ExitSignal
		}
		st.Rate, st.Phase, st.Run, st.Repeat = rate, phase, s.runs, repeat
		s.record(strat, st)
	}
}

// confirmLength is how many steps long a confirmation step is: above the
// knee a queue grows from the step's start, and a longer step gives it
// the time to show in the gates.
const confirmLength = 2

// judgeStep collects the window of the step from..to (after the pace's
// start) past its settling time, waits for its end and judges it. A run
// that ended first is judged on what it measured when last is set (the
// run's one step ended with its last iteration); else the step is lost
// (false).
func (s *searcher) judgeStep(col *collector, test *runner.Test, opts options.Options, start time.Time, from, to time.Duration,
	finished <-chan struct{}, last bool) (search.Step, bool) {
	win := search.NewWindow(start.Add(from+s.sf.settle), start.Add(to))
	col.window.Store(win)
	timer := time.NewTimer(time.Until(win.To))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-finished:
		if !last {
			return search.Step{}, false
		}
	}
	st, err := win.Judge(test.Run.Registry, opts.Thresholds, search.DefaultLimits)
	if err != nil {
		fmt.Fprintln(s.stderr, "ERRO judging the step: "+err.Error())
		return st, false
	}
	st.Start, st.End = (from + s.sf.settle).Seconds(), to.Seconds()
	return st, true
}

// record gives a judged step to the strategy and prints it.
func (s *searcher) record(strat search.Strategy, st search.Step) {
	strat.Record(st)
	fmt.Fprintf(s.stderr, "search: %s\n", st)
}

// write prints the table and answer, and writes --json and --report.
func (s *searcher) write(ans *search.Answer) error {
	if s.sf.json == "-" {
		return writeJSON(s.stdout, ans)
	}
	if err := ans.WriteTable(s.stdout); err != nil {
		return err
	}
	if s.sf.json != "" {
		if err := writeTo(s.sf.json, s.stdout, func(w io.Writer) error { return writeJSON(w, ans) }); err != nil {
			return fmt.Errorf("--json %s: %w", s.sf.json, err)
		}
	}
	if s.sf.report != "" {
		if err := writeTo(s.sf.report, s.stdout, func(w io.Writer) error { return output.WriteSearchReport(w, ans, s.script) }); err != nil {
			return fmt.Errorf("--report %s: %w", s.sf.report, err)
		}
	}
	return nil
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// collector hands a run's samples to the window of the step being judged.
type collector struct {
	window atomic.Pointer[search.Window]
}

// newCollector subscribes a collector to the test's samples.
func newCollector(test *runner.Test) *collector {
	c := &collector{}
	test.Run.Engine.Subscribe(func(samples []metrics.Sample) {
		if w := c.window.Load(); w != nil {
			w.Add(samples)
		}
	})
	return c
}
