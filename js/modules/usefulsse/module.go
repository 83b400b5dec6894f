// Package usefulsse is the k6/x/usefulsse JavaScript module: it turns the
// JavaScript arguments of a streaming request into an sse.Request, sends it
// with the VU's sse.Client, and turns the sse.Result back into a JavaScript
// object and into the usefulsse_* samples. The stream logic lives in package
// sse; this package only converts. It exposes Name and New in module.go, as
// every package under js/modules does, and registers nothing itself: the
// repository root registers it, the way an xk6 extension registers into k6.
package usefulsse

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/x/usefulsse"

// New returns the module; it is instantiated once per VU.
func New() modules.Module {
	return modules.ModuleFunc(func(vu modules.VU) modules.Instance { return NewProbe(vu) })
}
