package webcrypto

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the import specifier of the module older k6 scripts take the
// Web Crypto API from (k6 0.44 to 0.5x), before it became the global
// crypto.
const Name = "k6/experimental/webcrypto"

// New returns the module: its named export crypto (also the default
// export's crypto member) is the VU's global crypto object.
func New() modules.Module {
	return modules.ModuleFunc(func(vu modules.VU) modules.Instance { return instance{vu: vu} })
}

type instance struct{ vu modules.VU }

// Exports returns crypto, the global object package js installed.
func (i instance) Exports() modules.Exports {
	rt := i.vu.Runtime()
	c := rt.Get("crypto")
	def := rt.NewObject()
	_ = def.Set("crypto", c)
	return modules.Exports{Default: def, Named: map[string]any{"crypto": c}}
}
