package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/output"
	"github.com/usefullatency/usefullatency/result"
	"github.com/usefullatency/usefullatency/runner"
	"github.com/usefullatency/usefullatency/summary"
)

// mergeFlags are the flags of `merge`: the summary flags of run.
type mergeFlags struct {
	fs              *pflag.FlagSet
	summaryExport   string
	report          string
	trendStats      string
	summaryTimeUnit string
	summaryMode     string
	noSummary       bool
	noThresholds    bool
	noColor         bool
	script          string
	env             []string
	out             string
	quiet           bool
}

func newMergeFlags(stderr io.Writer) *mergeFlags {
	f := &mergeFlags{fs: pflag.NewFlagSet("merge", pflag.ContinueOnError)}
	fs := f.fs
	fs.SetOutput(stderr)
	setUsage(fs, "Usage: usefullatency merge [flags] FILE...\n\n"+
		"One summary of the results the runners of a test wrote with -o result=FILE,\n"+
		"thresholds evaluated on the whole test (exit 99 when one fails, 104 for a file\n"+
		"that cannot be merged). A file may hold up to 1 GiB decompressed;\n"+
		"K6_RESULT_MAX_SIZE=4GiB raises the limit.\n\nFlags:\n")
	fs.StringVar(&f.summaryExport, "summary-export", "", "write the merged summary as JSON to FILE")
	fs.StringVar(&f.report, "report", "", "write the merged HTML report to FILE")
	fs.StringVar(&f.trendStats, "summary-trend-stats", "", "trend stats in the summary, e.g. avg,p(95),p(99.9); default: the runners'")
	fs.StringVar(&f.summaryTimeUnit, "summary-time-unit", "", "fixed time unit of the summary: s, ms or us")
	fs.StringVar(&f.summaryMode, "summary-mode", "", "compact, full, legacy or disabled (no summary)")
	fs.BoolVar(&f.noSummary, "no-summary", false, "do not print the summary")
	fs.BoolVar(&f.noThresholds, "no-thresholds", false, "do not evaluate thresholds")
	fs.BoolVar(&f.noColor, "no-color", false, "no colours in the output")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "accepted as k6 takes it: merge shows no progress anyway")
	fs.StringVar(&f.script, "script", "", "the test's script: its handleSummary(data) gets the merged data")
	fs.StringArrayVarP(&f.env, "env", "e", nil, "script environment variable KEY=VALUE for --script (repeatable)")
	fs.StringVarP(&f.out, "out", "o", "", "also write the merged result to FILE, or result=FILE as run takes it (it merges again)")
	return f
}

// mergeCmd implements `usefullatency merge [flags] FILE…`: one summary of
// the results the runners of one test wrote with -o result=FILE, its
// thresholds evaluated on the whole test (exit 99 when one failed).
// Unreadable, damaged or mismatched files exit 104.
func mergeCmd(args []string, stdout, stderr io.Writer) int {
	f := newMergeFlags(stderr)
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	if f.fs.NArg() == 0 {
		return fail(stderr, runner.ExitInvalidConfig, errors.New("merge needs result files: usefullatency merge [flags] FILE…"))
	}
	if f.summaryMode != "" && !strings.Contains(",compact,full,legacy,disabled,", ","+f.summaryMode+",") {
		return fail(stderr, runner.ExitInvalidConfig, fmt.Errorf("--summary-mode %q: want compact, full, legacy or disabled", f.summaryMode))
	}
	limits, err := result.LimitsFromEnv(options.EnvMap(os.Environ()))
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	merged, err := readAndMerge(f.fs.Args(), limits, stderr)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	return f.judge(merged, false, stdout, stderr)
}

// judge writes the merged result (-o), the summary, the export and the
// report of a merged result and returns the exit code: 99 when a threshold
// fails on it (or aborted says one stopped the test), else 0.
func (f *mergeFlags) judge(merged *result.File, aborted bool, stdout, stderr io.Writer) int {
	if f.out != "" {
		if code := writeMerged(f.out, merged, stderr); code != 0 {
			return code
		}
	}
	run, err := merged.Materialize(f.noThresholds)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	failed := run.EvalThresholds()
	var main *js.VU
	if f.script != "" {
		test, code := mergeScript(f, stderr)
		if test == nil {
			return code
		}
		main = test.Main
	}
	if err := f.writeSummary(run, main, stdout, stderr); err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	switch {
	case failed:
		fmt.Fprintf(stderr, "ERRO thresholds on metrics '%s' have been crossed\n", strings.Join(run.Crossed(), ", "))
		return runner.ExitThresholdsFailed
	case aborted:
		fmt.Fprintln(stderr, "ERRO an abortOnFail threshold crossed during the test stopped it")
		return runner.ExitThresholdsFailed
	}
	return 0
}

// writeMerged writes the merged result to out, "FILE" or "result=FILE" as
// run takes it: with the setup data the merged files kept, none with
// ",setupData=false".
func writeMerged(out string, merged *result.File, stderr io.Writer) int {
	arg := strings.TrimPrefix(out, "result=")
	path, keep, err := output.ResultArg(arg)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, fmt.Errorf("--out %s: %w", out, err))
	}
	if path != arg {
		merged.KeepSetupData = merged.KeepSetupData && keep
	}
	if err := result.WriteFile(path, merged); err != nil {
		return fail(stderr, runner.ExitInvalidConfig, fmt.Errorf("--out %s: %w", path, err))
	}
	return 0
}

// readAndMerge reads every file within limits and merges them, printing
// the merge's warnings.
func readAndMerge(paths []string, limits result.Limits, stderr io.Writer) (*result.File, error) {
	files := make([]*result.File, 0, len(paths))
	for _, p := range paths {
		rf, err := limits.ReadFile(p)
		if err != nil {
			return nil, err
		}
		files = append(files, rf)
	}
	merged, warnings, err := result.Merge(files)
	for _, w := range warnings {
		fmt.Fprintln(stderr, "WARN "+w)
	}
	return merged, err
}

// mergeScript loads the script whose handleSummary gets the merged data.
func mergeScript(f *mergeFlags, stderr io.Writer) (*runner.Test, int) {
	env := options.EnvMap(os.Environ())
	flags, err := keyValues("--env", f.env)
	if err != nil {
		return nil, fail(stderr, runner.ExitInvalidConfig, err)
	}
	for k, v := range flags {
		env[k] = v
	}
	test, err := runner.Load(f.script, env, stderr)
	if err != nil {
		return nil, failExit(stderr, err)
	}
	return test, 0
}

// writeSummary writes the text summary (or handleSummary's files), the
// export and the HTML report of the merged run.
func (f *mergeFlags) writeSummary(run *result.Run, main *js.VU, stdout, stderr io.Writer) error {
	stats := run.TrendStats
	if f.trendStats != "" {
		stats = strings.Split(f.trendStats, ",")
	}
	unit := run.TimeUnit
	if f.summaryTimeUnit != "" {
		unit = f.summaryTimeUnit
	}
	tty := isTerminal(stdout) && !f.noColor
	in := summary.Input{
		Metrics: run.Registry.All(), Root: run.Root, TrendStats: stats, TimeUnit: unit,
		Duration: run.Duration, SetupData: run.SetupData, Streaming: run.Streaming,
		NoColor: !tty, IsStdOutTTY: tty, IsStdErrTTY: isTerminal(stderr),
	}
	err := runner.WriteSummary(main, in, runner.SummaryOptions{
		Export: f.summaryExport, NoSummary: f.noSummary || f.summaryMode == "disabled", Color: tty,
		Mode: summary.ParseMode(f.summaryMode), Stdout: stdout, Stderr: stderr,
	}, func(fn func()) { fn() })
	if f.report != "" {
		if rerr := output.WriteMergedReport(f.report, run, stdout); rerr != nil && err == nil {
			err = fmt.Errorf("--report %s: %w", f.report, rerr)
		}
	}
	return err
}
