// Package k6fs is the "k6/experimental/fs" JavaScript module: open() reads
// a file of the test once per run, in the init context, and every VU gets
// a File over the same bytes, with its own read position. The package is
// named after the module (k6fs), so that it does not shadow io/fs.
package k6fs

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// Name is the module's import specifier.
const Name = "k6/experimental/fs"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newFS) }

// newFS returns one VU's exports: open and SeekMode.
func newFS(vu modules.VU) modules.Instance {
	rt := vu.Runtime()
	seekMode := rt.NewObject()
	for name, v := range map[string]SeekMode{"Start": SeekStart, "Current": SeekCurrent, "End": SeekEnd} {
		_ = seekMode.DefineDataProperty(name, rt.ToValue(int(v)), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
	}
	named := map[string]any{
		"open":     func(path sobek.Value) *sobek.Promise { return open(vu, path) },
		"SeekMode": seekMode,
	}
	return modules.Static{Default: named, Named: named}
}
