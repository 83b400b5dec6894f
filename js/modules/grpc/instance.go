package k6grpc

import (
	"sync"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	"google.golang.org/grpc/codes"
)

// statusNames are the names of the status constants, by code.
var statusNames = map[string]codes.Code{
	"StatusOK": codes.OK, "StatusCanceled": codes.Canceled, "StatusUnknown": codes.Unknown,
	"StatusInvalidArgument": codes.InvalidArgument, "StatusDeadlineExceeded": codes.DeadlineExceeded,
	"StatusNotFound": codes.NotFound, "StatusAlreadyExists": codes.AlreadyExists,
	"StatusPermissionDenied": codes.PermissionDenied, "StatusResourceExhausted": codes.ResourceExhausted,
	"StatusFailedPrecondition": codes.FailedPrecondition, "StatusAborted": codes.Aborted,
	"StatusOutOfRange": codes.OutOfRange, "StatusUnimplemented": codes.Unimplemented,
	"StatusInternal": codes.Internal, "StatusUnavailable": codes.Unavailable,
	"StatusDataLoss": codes.DataLoss, "StatusUnauthenticated": codes.Unauthenticated,
}

// instance is the module in one VU: the Client and Stream classes.
type instance struct {
	vu      modules.VU
	metrics *Metrics
	codec   *codec
	// clientCtor and streamCtor are the classes; clientKey is the symbol
	// under which a Client object keeps its Go client.
	clientCtor, streamCtor *sobek.Object
	clientKey              *sobek.Symbol
	netOnce                sync.Once
	network                modules.Network
}

var _ modules.Instance = (*instance)(nil)

// newInstance instantiates the module in vu.
func newInstance(vu modules.VU) modules.Instance {
	rt := vu.Runtime()
	m := &instance{vu: vu, codec: newCodec(rt), clientKey: sobek.NewSymbol("grpc.client")}
	if run := vu.State().Run; run != nil {
		m.metrics = RegisterMetrics(run.Registry)
	}
	m.clientCtor = rt.ToValue(m.newClient).ToObject(rt)
	m.streamCtor = rt.ToValue(m.newStream).ToObject(rt)
	return m
}

// Exports returns Client, Stream and the status constants, as named
// exports and as the default export's properties.
func (m *instance) Exports() modules.Exports {
	named := map[string]any{"Client": m.clientCtor, "Stream": m.streamCtor}
	for name, code := range statusNames {
		named[name] = int(code)
	}
	return modules.Exports{Default: named, Named: named}
}

// net returns the VU's network settings, read once.
func (m *instance) net() modules.Network {
	m.netOnce.Do(func() {
		st := m.vu.State()
		m.network = st.Run.Network(st.VUID)
	})
	return m.network
}
