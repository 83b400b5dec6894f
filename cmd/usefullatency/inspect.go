package main

import (
	"context"
	"fmt"
	"io"

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
	_, opts, code, ok := loadScript(context.Background(), f, script, env, stderr, stderr)
	if !ok {
		return code
	}
	for _, w := range opts.Warnings {
		fmt.Fprintln(stderr, "WARN "+w)
	}
	render := opts.InspectJSON
	if requirements {
		render = opts.ExecutionRequirementsJSON
	}
	b, err := render()
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	fmt.Fprintln(stdout, string(b))
	return 0
}
