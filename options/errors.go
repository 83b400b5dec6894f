package options

import "errors"

// FieldError is one problem with one option. Path names the option the way
// the user wrote it: a script path ("scenarios.api.vus",
// `thresholds["http_req_duration"][0]`), an environment variable ("K6_VUS")
// or a layer ("script") for conflicts between options of one layer.
// FromScript, FromEnv and Consolidate return only FieldErrors, joined with
// errors.Join when there are several.
type FieldError struct {
	Path string
	Err  error
}

// Error renders the problem on one line as "path: reason".
func (e *FieldError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the underlying reason.
func (e *FieldError) Unwrap() error { return e.Err }

// at locates err at path, unless err is nil or already carries a
// FieldError (nested parsers locate their own errors more precisely).
func at(path string, err error) error {
	var fe *FieldError
	if err == nil || errors.As(err, &fe) {
		return err
	}
	return &FieldError{Path: path, Err: err}
}

// problems collects the failed checks of one object, located under path.
type problems struct {
	path string
	errs []error
}

// add records err at path.field unless err is nil; errors that are
// already located keep their location.
func (p *problems) add(field string, err error) {
	if err == nil {
		return
	}
	path := p.path
	switch {
	case path == "":
		path = field
	case field != "":
		path += "." + field
	}
	p.errs = append(p.errs, at(path, err))
}

// check records reason at path.field when ok is false.
func (p *problems) check(ok bool, field string, reason error) {
	if !ok {
		p.add(field, reason)
	}
}
