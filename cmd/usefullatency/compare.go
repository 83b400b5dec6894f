package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/compare"
	"github.com/usefullatency/usefullatency/output"
	"github.com/usefullatency/usefullatency/result"
	"github.com/usefullatency/usefullatency/runner"
)

// exitRegressed is compare's exit code when a gated row regressed.
const exitRegressed = compare.ExitRegressed

// exitUsage is the exit code of a command line that cannot be run.
const exitUsage = 2

// compareFlags are the flags of `compare`.
type compareFlags struct {
	fs             *pflag.FlagSet
	base, new      []string
	minEffect      []string
	confidence     string
	resamples      int
	seed           uint64
	metrics        []string
	failOn         []string
	allowDifferent bool
	json           string
	report         string
	noColor        bool
}

func newCompareFlags(stderr io.Writer) *compareFlags {
	f := &compareFlags{fs: pflag.NewFlagSet("compare", pflag.ContinueOnError)}
	fs := f.fs
	fs.SetOutput(stderr)
	setUsage(fs, "Usage: usefullatency compare [flags] BASE... -- NEW...\n"+
		"       usefullatency compare [flags] --base a.res,b.res --new c.res\n\n"+
		"Compares two sets of runs of one test (result files of -o result=FILE; several files\n"+
		"on a side are repeats, a merged file is one run): per bucket and per metric the gates\n"+
		"use, each side's value, the difference with a bootstrap confidence interval, and a\n"+
		"verdict against --min-effect. Exit 0 when no gated row regressed, 111 when one did,\n"+
		"104 for files that cannot be compared, 2 for a wrong command line.\n\nFlags:\n")
	fs.StringSliceVar(&f.base, "base", nil, "the base side's result files, comma-separated (instead of BASE... --)")
	fs.StringSliceVar(&f.new, "new", nil, "the new side's result files, comma-separated (instead of -- NEW...)")
	fs.StringArrayVar(&f.minEffect, "min-effect", nil, "smallest change that counts: 5% (relative, the default), 50ms (times), 0.01 (rates, counts); repeatable")
	fs.StringVar(&f.confidence, "confidence", "0.95", "level of the confidence intervals: 0.95 or 95%")
	fs.IntVar(&f.resamples, "resamples", compare.DefaultResamples, "bootstrap resamples per row")
	fs.Uint64Var(&f.seed, "seed", compare.DefaultSeed, "seed of the bootstrap: the same files and seed give the same intervals")
	fs.StringArrayVar(&f.metrics, "metric", nil, "compare this metric, NAME or NAME{tag:value}, instead of the default rows (repeatable)")
	fs.StringArrayVar(&f.failOn, "fail-on", nil, "gate only this row, 'metric{tag:value}:stat', e.g. 'usefulsse_useful{bucket:qa}:p(95)' (repeatable)")
	fs.BoolVar(&f.allowDifferent, "allow-different", false, "compare results of different tests (script, scenarios or thresholds differ) by metric name and tags")
	fs.StringVar(&f.json, "json", "", "write the comparison as JSON to FILE (- for stdout, instead of the table)")
	fs.StringVar(&f.report, "report", "", "write the comparison's HTML page to FILE")
	fs.BoolVar(&f.noColor, "no-color", false, "no colours in the table")
	return f
}

// compareCmd implements `usefullatency compare [flags] BASE... -- NEW...`.
func compareCmd(args []string, stdout, stderr io.Writer) int {
	f := newCompareFlags(stderr)
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return fail(stderr, exitUsage, err)
	}
	basePaths, newPaths, err := f.sides()
	if err != nil {
		return fail(stderr, exitUsage, err)
	}
	opts, err := f.options()
	if err != nil {
		return fail(stderr, exitUsage, err)
	}
	base, err := readRuns(basePaths)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	news, err := readRuns(newPaths)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	rep, err := compare.Compare(base, news, opts)
	switch {
	case errors.Is(err, compare.ErrOption):
		return fail(stderr, exitUsage, err)
	case err != nil:
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	if err := f.write(rep, stdout); err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	if reg := rep.Regressed(); len(reg) > 0 {
		return exitRegressed
	}
	return 0
}

// sides returns the two sides' files: BASE... -- NEW..., or --base and
// --new.
func (f *compareFlags) sides() (base, news []string, err error) {
	args, dash := f.fs.Args(), f.fs.ArgsLenAtDash()
	if len(f.base) > 0 || len(f.new) > 0 {
		if len(args) > 0 || len(f.base) == 0 || len(f.new) == 0 {
			return nil, nil, errors.New("compare takes --base FILES and --new FILES together, and then no other file: usefullatency compare --base a.res --new b.res")
		}
		return f.base, f.new, nil
	}
	if dash <= 0 || dash == len(args) {
		return nil, nil, errors.New("compare needs files on both sides of --: usefullatency compare [flags] BASE… -- NEW…")
	}
	return args[:dash], args[dash:], nil
}

// options turns the flags into compare.Options.
func (f *compareFlags) options() (compare.Options, error) {
	eff, err := compare.ParseEffects(f.minEffect)
	if err != nil {
		return compare.Options{}, err
	}
	conf, err := parseConfidence(f.confidence)
	if err != nil {
		return compare.Options{}, err
	}
	if f.resamples < 100 {
		return compare.Options{}, fmt.Errorf("--resamples %d: want at least 100", f.resamples)
	}
	if f.seed == 0 {
		return compare.Options{}, errors.New("--seed 0: want a seed above 0")
	}
	return compare.Options{Confidence: conf, MinEffect: &eff, Resamples: f.resamples, Seed: f.seed,
		Metrics: f.metrics, FailOn: f.failOn, AllowDifferent: f.allowDifferent}, nil
}

// parseConfidence parses --confidence: a level in (0, 1), "0.9", or a
// percentage, "90%".
func parseConfidence(s string) (float64, error) {
	v, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	c, err := strconv.ParseFloat(v, 64)
	if pct {
		c /= 100
	}
	if err != nil || !(c > 0 && c < 1) {
		return 0, fmt.Errorf("--confidence %q: want a level between 0 and 1 (0.95) or a percentage (95%%)", s)
	}
	return c, nil
}

// readRuns reads a side's result files; errors name the file.
func readRuns(paths []string) ([]*result.File, error) {
	out := make([]*result.File, 0, len(paths))
	for _, p := range paths {
		rf, err := result.ReadFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, rf)
	}
	return out, nil
}

// write writes the table on stdout (unless --json -), the JSON and the
// HTML page.
func (f *compareFlags) write(rep *compare.Report, stdout io.Writer) error {
	if f.json != "-" {
		if err := compare.WriteText(stdout, rep, isTerminal(stdout) && !f.noColor); err != nil {
			return err
		}
	}
	if f.json != "" {
		if err := writeTo(f.json, stdout, func(w io.Writer) error { return compare.WriteJSON(w, rep) }); err != nil {
			return fmt.Errorf("--json %s: %w", f.json, err)
		}
	}
	if f.report != "" {
		if err := writeTo(f.report, stdout, func(w io.Writer) error { return output.WriteCompareReport(w, rep) }); err != nil {
			return fmt.Errorf("--report %s: %w", f.report, err)
		}
	}
	return nil
}

// writeTo writes with fn to the file at path, or to stdout for "-".
func writeTo(path string, stdout io.Writer, fn func(io.Writer) error) error {
	if path == "-" {
		return fn(stdout)
	}
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(fh); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}
