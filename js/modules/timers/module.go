// Package k6timers is the "k6/timers" JavaScript module: setTimeout,
// clearTimeout, setInterval and clearInterval on the VU's event loop. The
// same functions are the script's globals: package js installs them from
// the VU's Timers, and the module exports that same set, so an id from the
// global setTimeout can be cleared with the imported clearTimeout. The
// package is named after the module's import path, like k6metrics.
package k6timers

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/timers"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newInstance) }

// Holder is a VU that keeps one Timers for its globals; the module
// exports that one instead of a second, separate set.
type Holder interface {
	Timers() *Timers
}

type instance struct{ timers *Timers }

func newInstance(vu modules.VU) modules.Instance {
	if h, ok := vu.(Holder); ok && h.Timers() != nil {
		return instance{h.Timers()}
	}
	return instance{NewTimers(vu)}
}

// Exports returns the four timer functions as named exports and as the
// default export's properties.
func (i instance) Exports() modules.Exports {
	named := i.timers.Functions()
	return modules.Exports{Default: named, Named: named}
}
