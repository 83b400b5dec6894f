// Package k6data is the "k6/data" JavaScript module: SharedArray, data
// built once per run in init code and read by every VU. The package is
// named after the module's import path, like k6metrics and k6execution.
package k6data

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/data"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newData) }
