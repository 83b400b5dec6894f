// Package k6csv is the "k6/experimental/csv" JavaScript module: csv.parse
// reads a whole file of k6/experimental/fs into rows shared read-only by
// every VU (as a SharedArray), and csv.Parser streams a file's rows one by
// one. Parsing is Go's encoding/csv. The package is named after the module
// (k6csv), so that it does not shadow encoding/csv.
package k6csv

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// Name is the module's import specifier.
const Name = "k6/experimental/csv"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newCSV) }

// newCSV returns one VU's exports: parse and Parser.
func newCSV(vu modules.VU) modules.Instance {
	named := map[string]any{
		"parse":  func(file, options sobek.Value) *sobek.Promise { return parse(vu, file, options) },
		"Parser": vu.Runtime().ToValue(parserConstructor(vu)),
	}
	return modules.Static{Default: named, Named: named}
}
