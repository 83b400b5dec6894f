package xk6sse

import (
	"strconv"
	"time"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/sse"
)

// compatMetrics are the metrics xk6-sse emits, next to the probe's own
// (usefulsse_*): sse_event counts the events handed to the script; k6's
// http_reqs, http_req_duration and http_req_sending time the request as
// xk6-sse does. xk6-sse emits no http_req_failed and no
// http_req_waiting, and neither does this module.
type compatMetrics struct {
	event, reqs, duration, sending *metrics.Metric
}

// registerCompatMetrics registers them in reg (idempotent).
func registerCompatMetrics(reg *metrics.Registry) *compatMetrics {
	return &compatMetrics{
		event:    reg.MustNewMetric("sse_event", metrics.Counter),
		reqs:     reg.MustNewMetric("http_reqs", metrics.Counter),
		duration: reg.MustNewMetric("http_req_duration", metrics.Trend, metrics.Time),
		sending:  reg.MustNewMetric("http_req_sending", metrics.Trend, metrics.Time),
	}
}

// record pushes what xk6-sse pushes for one sse.open of url that started
// at start: http_req_sending, the time until the response headers (zero
// when none came), once timed at the start and again at the end; at the
// end http_reqs and http_req_duration, the whole exchange from the
// request until the stream ended or client.close() was called; and
// sse_event, the events delivered. They carry the VU's tags, the params'
// tags, url and, once a response came, status — not the probe's name,
// method or expected_response, which xk6-sse does not set.
func (c *compat) record(res *sse.Result, url string, user map[string]string, delivered int, start time.Time) {
	if c.metrics == nil {
		return
	}
	st := c.vu.State()
	tags := st.Tags.With("url", redact.URL(url))
	for k, v := range user {
		tags = tags.With(k, v)
	}
	if res.Status != 0 {
		tags = tags.With("status", strconv.Itoa(res.Status))
	}
	end := time.Now()
	var sending float64
	if h := res.Timings.Headers; h != nil {
		sending = *h
	}
	sample := func(m *metrics.Metric, at time.Time, v float64) metrics.Sample {
		return metrics.Sample{Metric: m, Tags: tags, Time: at, Value: v}
	}
	out := []metrics.Sample{sample(c.metrics.sending, start, sending), sample(c.metrics.reqs, end, 1),
		sample(c.metrics.sending, end, sending), sample(c.metrics.duration, end, ms(end.Sub(start)))}
	if delivered > 0 {
		out = append(out, sample(c.metrics.event, end, float64(delivered)))
	}
	st.Push(out...)
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
