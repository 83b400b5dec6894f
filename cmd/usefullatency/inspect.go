package main

import (
	"context"
	"fmt"
	"io"

	"github.com/usefullatency/usefullatency/runner"
)

// inspectCmd implements `usefullatency inspect script.js`: the options the
// script resolves to with the environment applied, as JSON.
func inspectCmd(args []string, stdout, stderr io.Writer) int {
	f, script, env, code, done := parseRun(args, "inspect", stderr)
	if done {
		return code
	}
	_, opts, code, ok := loadScript(context.Background(), f, script, env, stderr, stderr)
	if !ok {
		return code
	}
	b, err := opts.InspectJSON()
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	fmt.Fprintln(stdout, string(b))
	return 0
}
