package k6grpc

import (
	"time"

	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// Metrics are k6's gRPC metrics, with the types of k6's metrics
// reference, and the data counters k6/http shares.
type Metrics struct {
	// reqDuration is a call's duration, from its start to its status
	// (grpc_req_duration); streams counts the streams opened
	// (grpc_streams), msgsSent and msgsReceived their messages
	// (grpc_streams_msgs_sent, grpc_streams_msgs_received).
	reqDuration, streams, msgsSent, msgsReceived *metrics.Metric
	// dataSent and dataReceived are a call's bytes on the wire: the
	// framed messages and the response's header and trailer blocks.
	dataSent, dataReceived *metrics.Metric
}

// RegisterMetrics registers them in reg (idempotent).
func RegisterMetrics(reg *metrics.Registry) *Metrics {
	counter := func(name string) *metrics.Metric { return reg.MustNewMetric(name, metrics.Counter) }
	return &Metrics{
		reqDuration:  reg.MustNewMetric("grpc_req_duration", metrics.Trend, metrics.Time),
		streams:      counter("grpc_streams"),
		msgsSent:     counter("grpc_streams_msgs_sent"),
		msgsReceived: counter("grpc_streams_msgs_received"),
		dataSent:     reg.MustNewMetric("data_sent", metrics.Counter, metrics.Data),
		dataReceived: reg.MustNewMetric("data_received", metrics.Counter, metrics.Data),
	}
}

// recorder pushes the samples of one call or stream with its tags and
// metadata, from any goroutine; it pushes nothing outside a run.
type recorder struct {
	m    *Metrics
	run  *modules.Run
	tags metrics.Tags
	meta metrics.Tags
}

// push sends samples with the recorder's tags, or with tags when given.
func (r *recorder) push(tags metrics.Tags, samples ...metrics.Sample) {
	if r.m == nil || r.run == nil {
		return
	}
	if tags == nil {
		tags = r.tags
	}
	for i := range samples {
		samples[i].Tags = tags
	}
	r.run.Engine.Push(modules.WithMetadata(samples, r.meta)...)
}

// count pushes a sample of 1 of counter.
func (r *recorder) count(counter func(*Metrics) *metrics.Metric, at time.Time) {
	if r.m == nil {
		return
	}
	r.push(nil, metrics.Sample{Metric: counter(r.m), Time: at, Value: 1})
}

// done pushes the end of a call: grpc_req_duration tagged with its status
// code, data_sent and data_received.
func (r *recorder) done(code int, start, end time.Time, sent, received int64) {
	if r.m == nil {
		return
	}
	tags := r.tags.With("status", itoa(code))
	r.push(tags,
		metrics.Sample{Metric: r.m.reqDuration, Time: end, Value: float64(end.Sub(start)) / float64(time.Millisecond)},
		metrics.Sample{Metric: r.m.dataSent, Time: end, Value: float64(sent)},
		metrics.Sample{Metric: r.m.dataReceived, Time: end, Value: float64(received)},
	)
}
