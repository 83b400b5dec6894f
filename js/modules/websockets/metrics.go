package k6websockets

import "github.com/usefullatency/usefullatency/metrics"

// Metrics are k6's WebSocket metrics, with the types of k6's metrics
// reference, and the data counters k6/http shares.
type Metrics struct {
	// sessions counts the sessions opened (ws_sessions); connecting is
	// the opening handshake's duration (ws_connecting) and duration the
	// session's, from the dial to the close (ws_session_duration).
	sessions, connecting, duration *metrics.Metric
	// msgsSent and msgsReceived count messages (ws_msgs_sent,
	// ws_msgs_received); ping is the round trip of a ping (ws_ping).
	msgsSent, msgsReceived, ping *metrics.Metric
	// dataSent and dataReceived are the session's bytes on the wire.
	dataSent, dataReceived *metrics.Metric
}

// RegisterMetrics registers them in reg (idempotent).
func RegisterMetrics(reg *metrics.Registry) *Metrics {
	trend := func(name string) *metrics.Metric { return reg.MustNewMetric(name, metrics.Trend, metrics.Time) }
	counter := func(name string) *metrics.Metric { return reg.MustNewMetric(name, metrics.Counter) }
	return &Metrics{
		sessions: counter("ws_sessions"), connecting: trend("ws_connecting"), duration: trend("ws_session_duration"),
		msgsSent: counter("ws_msgs_sent"), msgsReceived: counter("ws_msgs_received"), ping: trend("ws_ping"),
		dataSent:     reg.MustNewMetric("data_sent", metrics.Counter, metrics.Data),
		dataReceived: reg.MustNewMetric("data_received", metrics.Counter, metrics.Data),
	}
}
