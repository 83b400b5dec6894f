// Package k6redis is the k6/experimental/redis module: a Client whose
// methods send one Redis command each and return a promise settled on the
// VU's event loop. The round trip runs on a goroutine of its own through
// go-redis, over the VU's network settings. Only single-node servers are
// supported: cluster and sentinel options are refused.
package k6redis

import (
	"sync"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// Name is the import specifier of the module.
const Name = "k6/experimental/redis"

// New returns the module: its default export holds Client, also a named
// export.
func New() modules.Module {
	return modules.ModuleFunc(func(vu modules.VU) modules.Instance { return &instance{vu: vu} })
}

// instance is the module in one VU.
type instance struct {
	vu      modules.VU
	netOnce sync.Once
	network modules.Network
}

// Exports returns Client as the default export's member and a named export.
func (m *instance) Exports() modules.Exports {
	rt := m.vu.Runtime()
	ctor := rt.ToValue(m.newClient)
	def := rt.NewObject()
	_ = def.Set("Client", ctor)
	return modules.Exports{Default: def, Named: map[string]any{"Client": ctor}}
}

// net returns the VU's network settings, read once, on first use (never
// in the init context, where the VU has no state).
func (m *instance) net() modules.Network {
	m.netOnce.Do(func() {
		st := m.vu.State()
		m.network = st.Run.Network(st.VUID)
	})
	return m.network
}

// newClient is the constructor new Client(url | options): it reads the
// options at once (a bad URL or option throws) and connects on the first
// command.
func (m *instance) newClient(call sobek.ConstructorCall) *sobek.Object {
	rt := m.vu.Runtime()
	arg := call.Argument(0)
	var spec any
	if arg != nil && !sobek.IsUndefined(arg) && !sobek.IsNull(arg) {
		spec = arg.Export()
	}
	cfg, err := parseConfig(spec)
	if err != nil {
		panic(rt.NewTypeError("redis.Client: " + err.Error()))
	}
	c := &client{m: m, cfg: cfg}
	for _, cmd := range commands {
		_ = call.This.Set(cmd.method, c.method(cmd))
	}
	return nil
}
