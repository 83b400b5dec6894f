package k6fs

import "github.com/grafana/sobek"

// ErrorKind classifies a failure of the module; scripts see its name as the
// error's name.
type ErrorKind int

// The kinds of errors, as k6 names them.
const (
	// NotFoundError: the file does not exist (or the archive lacks it).
	NotFoundError ErrorKind = iota + 1
	// InvalidResourceError: the path is a directory, or cannot be read.
	InvalidResourceError
	// ForbiddenError: the call is not allowed here (open() outside the
	// init context).
	ForbiddenError
	// TypeError: an argument of the wrong type or out of its range.
	TypeError
)

// String returns the kind's name.
func (k ErrorKind) String() string {
	switch k {
	case NotFoundError:
		return "NotFoundError"
	case InvalidResourceError:
		return "InvalidResourceError"
	case ForbiddenError:
		return "ForbiddenError"
	}
	return "TypeError"
}

// Error is a failure of open(), read() or seek(): scripts receive an Error
// whose name is the kind's (a TypeError for TypeError).
type Error struct {
	Kind    ErrorKind
	Message string
}

// Error returns the message.
func (e *Error) Error() string { return e.Kind.String() + ": " + e.Message }

// value returns the JavaScript error the promise rejects with.
func (e *Error) value(rt *sobek.Runtime) sobek.Value {
	if e.Kind == TypeError {
		return rt.NewTypeError(e.Message)
	}
	obj, err := rt.New(rt.Get("Error"), rt.ToValue(e.Message))
	if err != nil {
		return rt.ToValue(e.Message)
	}
	_ = obj.Set("name", e.Kind.String())
	return obj
}
