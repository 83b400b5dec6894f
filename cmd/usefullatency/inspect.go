package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/runner"
)

var errHelp = pflag.ErrHelp

// inspectCmd implements `usefullatency inspect script.js`: the options the
// script resolves to with the environment applied, as JSON.
func inspectCmd(args []string, stdout, stderr io.Writer) int {
	f := newRunFlags(stderr)
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, errHelp) {
			return 0
		}
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	if f.fs.NArg() != 1 {
		return fail(stderr, runner.ExitInvalidConfig, errors.New("inspect needs exactly one script: usefullatency inspect script.js"))
	}
	env, err := scriptEnv(f)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	test, err := runner.Load(f.fs.Arg(0), env, stderr)
	if err != nil {
		return failExit(stderr, err)
	}
	opts, err := consolidate(f, test.ScriptOptions)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	b, err := opts.InspectJSON()
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	fmt.Fprintln(stdout, string(b))
	return 0
}
