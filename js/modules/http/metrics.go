package k6http

import (
	"sync/atomic"

	"github.com/usefullatency/usefullatency/metrics"
)

// httpMetrics are k6's HTTP metrics. http_reqs, http_req_failed, data_sent
// and data_received are also fed by the usefulsse probe, with the same
// types: registering them twice returns the same metric.
type httpMetrics struct {
	reqs, failed, sent, received       *metrics.Metric
	duration, blocked, connecting, tls *metrics.Metric
	sending, waiting, receiving        *metrics.Metric
}

// registerMetrics registers the metrics in reg (idempotent) and the
// http_req_duration{expected_response:true} submetric that k6's summary
// shows.
func registerMetrics(reg *metrics.Registry) *httpMetrics {
	trend := func(name string) *metrics.Metric { return reg.MustNewMetric(name, metrics.Trend, metrics.Time) }
	m := &httpMetrics{
		reqs:     reg.MustNewMetric("http_reqs", metrics.Counter),
		failed:   reg.MustNewMetric("http_req_failed", metrics.Rate),
		sent:     reg.MustNewMetric("data_sent", metrics.Counter, metrics.Data),
		received: reg.MustNewMetric("data_received", metrics.Counter, metrics.Data),
		duration: trend("http_req_duration"), blocked: trend("http_req_blocked"),
		connecting: trend("http_req_connecting"), tls: trend("http_req_tls_handshaking"),
		sending: trend("http_req_sending"), waiting: trend("http_req_waiting"),
		receiving: trend("http_req_receiving"),
	}
	if _, err := reg.Submetric(m.duration, "expected_response:true"); err != nil {
		panic(err) // a constant selector: cannot fail
	}
	return m
}

// samples returns the samples of one exchange in buf; http_req_failed
// only when there is a response callback, expect.
func (m *httpMetrics) samples(ex *exchange, tags metrics.Tags, expect *statusSet, buf *exchangeSamples) []metrics.Sample {
	t := ex.timings
	out := buf[:0]
	for _, s := range []struct {
		metric *metrics.Metric
		v      float64
	}{
		{m.reqs, 1}, {m.duration, t.Duration}, {m.blocked, t.Blocked}, {m.connecting, t.Connecting},
		{m.tls, t.TLSHandshaking}, {m.sending, t.Sending}, {m.waiting, t.Waiting}, {m.receiving, t.Receiving},
		{m.sent, float64(ex.sent)}, {m.received, float64(ex.received)},
	} {
		out = append(out, metrics.Sample{Metric: s.metric, Tags: tags, Time: ex.end, Value: s.v})
	}
	if expect != nil {
		out = append(out, metrics.Sample{Metric: m.failed, Tags: tags, Time: ex.end, Value: boolValue(!expect.has(ex.status))})
	}
	return out
}

// exchangeSamples holds the samples of one exchange.
type exchangeSamples [11]metrics.Sample

// sampleSlot keeps a VU's exchangeSamples between the exchanges it
// records: the engine's subscribers keep no slice they are pushed
// (metrics.Engine.Subscribe), so the samples are free again once pushed.
// Exchanges recorded at once (http.batch) take the kept one or make
// their own, without a lock.
type sampleSlot struct {
	kept atomic.Pointer[exchangeSamples]
}

// take returns the kept samples, or new ones.
func (s *sampleSlot) take() *exchangeSamples {
	if b := s.kept.Swap(nil); b != nil {
		return b
	}
	return new(exchangeSamples)
}

// give keeps b, pushed, for the next exchange, cleared so that it holds
// on to no tags.
func (s *sampleSlot) give(b *exchangeSamples) {
	*b = exchangeSamples{}
	s.kept.Store(b)
}

// errorCode is the exchange's k6 error code: its failure's, or the one of
// its HTTP status.
func errorCode(ex *exchange) int {
	if ex.errorCode != 0 {
		return ex.errorCode
	}
	return statusCode(ex.status)
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
