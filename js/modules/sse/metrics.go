package xk6sse

import (
	"time"

	"github.com/usefullatency/usefullatency/js/modules/usefulsse"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/sse"
)

// compatMetrics are what xk6-sse emits next to the probe's own metrics, so
// the thresholds of scripts written for it hold: sse_event counts the
// events handed to the script, and the request has k6's
// http_req_duration and http_req_waiting, which for a stream end at its
// response headers (the body is read after the request, as xk6-sse reads
// it).
type compatMetrics struct {
	event, duration, waiting *metrics.Metric
}

// registerCompatMetrics registers them in reg (idempotent).
func registerCompatMetrics(reg *metrics.Registry) *compatMetrics {
	return &compatMetrics{
		event:    reg.MustNewMetric("sse_event", metrics.Counter),
		duration: reg.MustNewMetric("http_req_duration", metrics.Trend, metrics.Time),
		waiting:  reg.MustNewMetric("http_req_waiting", metrics.Trend, metrics.Time),
	}
}

// record pushes the samples of one finished sse.open: sse_event when
// events were delivered, and the HTTP timings when headers arrived.
func (c *compat) record(res *sse.Result, tags map[string]string, delivered int) {
	if c.metrics == nil {
		return
	}
	st := c.vu.State()
	base := st.Tags
	for k, v := range tags {
		base = base.With(k, v)
	}
	rt := usefulsse.RequestTags(base, res)
	now := time.Now()
	var out []metrics.Sample
	if delivered > 0 {
		out = append(out, metrics.Sample{Metric: c.metrics.event, Tags: rt, Time: now, Value: float64(delivered)})
	}
	if h := res.Timings.Headers; h != nil {
		expected := "false"
		if res.Status >= 200 && res.Status < 400 {
			expected = "true"
		}
		ht := rt.With("expected_response", expected)
		out = append(out,
			metrics.Sample{Metric: c.metrics.duration, Tags: ht, Time: now, Value: *h},
			metrics.Sample{Metric: c.metrics.waiting, Tags: ht, Time: now, Value: *h})
	}
	st.Push(out...)
}
