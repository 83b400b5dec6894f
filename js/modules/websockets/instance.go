package k6websockets

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// The ready states of a WebSocket, as the browser numbers them.
const (
	connecting = 0
	open       = 1
	closing    = 2
	closed     = 3
)

// instance is the module in one VU: the WebSocket and Blob classes.
type instance struct {
	vu     modules.VU
	dialer *Dialer
	// wsCtor and blobCtor are the classes; blobProto is Blob.prototype
	// and blobKey the symbol under which a Blob keeps its bytes.
	wsCtor, blobCtor *sobek.Object
	blobProto        *sobek.Object
	blobKey          *sobek.Symbol
}

var _ modules.Instance = (*instance)(nil)

// newInstance instantiates the module in vu.
func newInstance(vu modules.VU) modules.Instance {
	rt := vu.Runtime()
	m := &instance{vu: vu, dialer: NewDialer(vu), blobKey: sobek.NewSymbol("blob")}
	m.wsCtor = rt.ToValue(m.newWebSocket).ToObject(rt)
	proto := m.wsCtor.Get("prototype").ToObject(rt)
	for name, v := range map[string]int{"CONNECTING": connecting, "OPEN": open, "CLOSING": closing, "CLOSED": closed} {
		for _, o := range []*sobek.Object{m.wsCtor, proto} {
			_ = o.DefineDataProperty(name, rt.ToValue(v), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
		}
	}
	m.blobCtor = rt.ToValue(m.newBlob).ToObject(rt)
	m.blobProto = m.blobCtor.Get("prototype").ToObject(rt)
	return m
}

// Exports returns WebSocket and Blob, as named exports and as the default
// export's properties.
func (m *instance) Exports() modules.Exports {
	named := map[string]any{"WebSocket": m.wsCtor, "Blob": m.blobCtor}
	return modules.Exports{Default: named, Named: named}
}
