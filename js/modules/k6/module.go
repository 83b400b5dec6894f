// Package k6 is the "k6" JavaScript module: check, group, sleep, fail and
// randomSeed. Like every package under js/modules, it exposes Name and New
// in module.go and registers nothing itself: package js registers the k6
// modules.
package k6

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newCore) }
