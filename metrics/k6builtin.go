package metrics

// k6BuiltinMetric is a metric k6 registers in every run, whether or not
// the script produces it, so thresholds on it are always valid.
type k6BuiltinMetric struct {
	typ      MetricType
	contains ValueType
}

// k6BuiltinMetrics are k6's built-in metrics by name, with their types as
// k6's metrics reference lists them (standard, HTTP, WebSockets, gRPC),
// plus sse_event, which xk6-sse registers.
var k6BuiltinMetrics = map[string]k6BuiltinMetric{
	"vus": {Gauge, Default}, "vus_max": {Gauge, Default},
	"iterations": {Counter, Default}, "iteration_duration": {Trend, Time},
	"dropped_iterations": {Counter, Default}, "checks": {Rate, Default},
	"group_duration": {Trend, Time},
	"data_received":  {Counter, Data}, "data_sent": {Counter, Data},

	"http_reqs": {Counter, Default}, "http_req_failed": {Rate, Default},
	"http_req_duration": {Trend, Time}, "http_req_blocked": {Trend, Time},
	"http_req_connecting": {Trend, Time}, "http_req_tls_handshaking": {Trend, Time},
	"http_req_sending": {Trend, Time}, "http_req_waiting": {Trend, Time},
	"http_req_receiving": {Trend, Time},

	"ws_connecting": {Trend, Time}, "ws_session_duration": {Trend, Time},
	"ws_sessions": {Counter, Default}, "ws_ping": {Trend, Time},
	"ws_msgs_sent": {Counter, Default}, "ws_msgs_received": {Counter, Default},

	"grpc_req_duration": {Trend, Time}, "grpc_streams": {Counter, Default},
	"grpc_streams_msgs_sent": {Counter, Default}, "grpc_streams_msgs_received": {Counter, Default},

	"sse_event": {Counter, Default},
}

// knownMetric returns the metric called name: the registered one, or, for
// a k6 built-in nobody registered yet, a new empty one of k6's type. It
// returns nil for any other name.
func knownMetric(reg *Registry, name string) *Metric {
	if m := reg.Get(name); m != nil {
		return m
	}
	b, ok := k6BuiltinMetrics[name]
	if !ok {
		return nil
	}
	m, err := reg.NewMetric(name, b.typ, b.contains)
	if err != nil {
		return reg.Get(name) // registered meanwhile, maybe with another type
	}
	return m
}
