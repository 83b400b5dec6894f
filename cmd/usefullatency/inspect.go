package main

import (
	"context"
	"fmt"
	"io"

	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/runner"
)

// inspectCmd implements `usefullatency inspect [--execution-requirements]
// script.js|archive.tar`: the options the test resolves to with the
// environment and flags applied, as one JSON document on stdout; with
// --execution-requirements also "totalDuration" and "maxVUs" of the whole,
// unsegmented test. Log lines go to stderr (in logfmt when it is not a
// terminal, as k6 logs).
func inspectCmd(args []string, stdout, stderr io.Writer) int {
	var requirements bool
	f, script, env, code, done := parseRunWith(args, "inspect", stderr, func(f *runFlags) {
		f.fs.BoolVar(&requirements, "execution-requirements", false,
			"add totalDuration and maxVUs, what the whole test needs, to the options")
	})
	if done {
		return code
	}
	stderr = f.redacted(stderr)
	test, opts, code, ok := loadScript(context.Background(), f, script, env, stderr, stderr)
	if !ok {
		return code
	}
	for _, w := range opts.Warnings {
		fmt.Fprintln(stderr, "WARN "+w)
	}
	render := opts.InspectJSON
	if requirements {
		if err := traceLengths(test, opts.Scenarios); err != nil {
			return fail(stderr, runner.ExitInvalidConfig, err)
		}
		render = opts.ExecutionRequirementsJSON
	}
	b, err := render()
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	fmt.Fprintln(stdout, string(b))
	return 0
}

// traceLengths reads the trace of every trace-replay scenario so that its
// length counts in the test's total duration.
func traceLengths(test *runner.Test, scenarios []options.Scenario) error {
	for i, sc := range scenarios {
		if sc.Executor != options.TraceReplay {
			continue
		}
		tr, err := test.ReadTrace(sc)
		if err != nil {
			return err
		}
		if n := len(tr.Due); n > 0 {
			scenarios[i].TraceLength = options.Duration(tr.Due[n-1])
		}
	}
	return nil
}
