// Package k6execution is the "k6/execution" JavaScript module: what a
// script can learn of the running test (exec.scenario, exec.vu,
// exec.instance, exec.test) and exec.test.abort(). The package is named
// after the module's import path, like k6metrics and k6data.
package k6execution

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/execution"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newExecution) }
