package js

import (
	"errors"
	"strings"

	"github.com/grafana/sobek"
)

// ErrInterrupted is returned when an iteration was stopped because its
// context was canceled (graceful stop expired, run interrupted).
var ErrInterrupted = errors.New("js: iteration interrupted")

// AbortError is returned when a script called exec.test.abort().
type AbortError struct{ Reason string }

func (e *AbortError) Error() string {
	if e.Reason == "" {
		return "test aborted"
	}
	return "test aborted: " + e.Reason
}

// ScriptError is an exception thrown by script code, with its JS stack.
type ScriptError struct{ Message string }

func (e *ScriptError) Error() string { return e.Message }

// InitOnlyError is thrown when an init-only API is used outside init code.
type InitOnlyError struct{ API string }

func (e *InitOnlyError) Error() string {
	return e.API + " is only available in the init context (top-level code of the script)"
}

// classify turns an error from sobek into one of this package's errors.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var interrupted *sobek.InterruptedError
	if errors.As(err, &interrupted) {
		return interruptCause(interrupted.Value())
	}
	var ex *sobek.Exception
	if errors.As(err, &ex) {
		return &ScriptError{Message: strings.TrimSpace(ex.String())}
	}
	return err
}

// interruptCause maps the value an interrupt carried to an error: a
// test.abort() becomes an *AbortError, anything else ErrInterrupted.
func interruptCause(v any) error {
	if r, ok := v.(interface{ AbortReason() string }); ok {
		return &AbortError{Reason: r.AbortReason()}
	}
	return ErrInterrupted
}
