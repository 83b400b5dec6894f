// Package runner runs a test: it loads the script, consolidates options,
// initialises VUs, runs setup, the scenarios, teardown and the summary, and
// maps what happened to k6's exit codes.
package runner

import "fmt"

// Exit codes, as k6 defines them.
const (
	ExitOK               = 0
	ExitThresholdsFailed = 99
	ExitStoppedFromAPI   = 103
	ExitInvalidConfig    = 104
	ExitSignal           = 105
	ExitCannotStartAPI   = 106
	ExitScriptException  = 107
	ExitAborted          = 108
	ExitMarkedAsFailed   = 110
)

// ExitError carries the exit code a failure maps to. Its message is one
// line meant for the user.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// exitf returns an ExitError with a formatted message.
func exitf(code int, format string, args ...any) *ExitError {
	return &ExitError{Code: code, Err: fmt.Errorf(format, args...)}
}
