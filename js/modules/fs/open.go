package k6fs

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// sharedPrefix keys the bytes of opened files in the run's shared store.
const sharedPrefix = "k6/experimental/fs:"

// open returns a promise of a File on the file at path, relative to the
// calling module. The file is read once per run, by the first VU that
// opens it, and every VU shares its bytes. It rejects outside the init
// context, and for a missing file or a directory.
func open(vu modules.VU, path sobek.Value) *sobek.Promise {
	rt := vu.Runtime()
	promise, resolve, reject := rt.NewPromise()
	f, err := openFile(vu, path)
	if err != nil {
		_ = reject(err.value(rt))
		return promise
	}
	_ = resolve(rt.ToValue(f))
	return promise
}

// openFile reads (or finds in the run's shared store) the file named by
// path and returns a File at its start.
func openFile(vu modules.VU, path sobek.Value) (*File, *Error) {
	if !vu.InInit() {
		return nil, &Error{Kind: ForbiddenError, Message: "open() of k6/experimental/fs is only available in the init context"}
	}
	var name string
	ok := path != nil
	if ok {
		name, ok = path.Export().(string)
	}
	if !ok || name == "" {
		return nil, &Error{Kind: TypeError, Message: "open(path): path must be a non-empty string"}
	}
	abs := vu.ResolvePath(name)
	data, err := vu.State().Run.Shared.GetOrBuild(sharedPrefix+abs, func() (any, error) {
		b, err := vu.ReadFile(abs)
		return &content{path: abs, data: b}, err
	})
	if err != nil {
		return nil, readError(name, abs, err)
	}
	c := data.(*content)
	return &File{Path: c.path, content: c}, nil
}

// readError classifies an error reading the file named name (at abs).
func readError(name, abs string, err error) *Error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Kind: NotFoundError, Message: fmt.Sprintf("open(%q): no such file: %s", name, abs)}
	case errors.Is(err, syscall.EISDIR):
		return &Error{Kind: InvalidResourceError, Message: fmt.Sprintf("open(%q): %s is a directory", name, abs)}
	}
	return &Error{Kind: InvalidResourceError, Message: fmt.Sprintf("open(%q): %v", name, err)}
}
