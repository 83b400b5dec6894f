package usefulsse

import (
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/sse"
)

// probeMetrics are the metrics every streaming request feeds: the
// usefulsse_* family of PRODUCT.md and k6's HTTP request counters.
type probeMetrics struct {
	queue, headers, firstEvent, firstText, useful, complete, maxGap, mark *metrics.Metric
	connecting, tlsHandshaking                                            *metrics.Metric
	usefulReached, failed, good                                           *metrics.Metric
	events, heartbeats, emptyEvents, tokens, cost                         *metrics.Metric
	readLag, coalesced                                                    *metrics.Metric
	httpReqs, httpReqFailed, dataSent, dataReceived                       *metrics.Metric
}

// registerProbeMetrics registers the probe's metrics in reg (idempotent).
func registerProbeMetrics(reg *metrics.Registry) *probeMetrics {
	probe := func(name string) *metrics.Metric { return metrics.ProbeMetric(name).MustRegister(reg) }
	counter := func(name string, vt ...metrics.ValueType) *metrics.Metric {
		return reg.MustNewMetric(name, metrics.Counter, vt...)
	}
	rate := func(name string) *metrics.Metric { return reg.MustNewMetric(name, metrics.Rate) }
	return &probeMetrics{
		queue: probe(metrics.ProbeQueue), headers: probe(metrics.ProbeHeaders),
		firstEvent: probe(metrics.ProbeFirstEvent), firstText: probe(metrics.ProbeFirstText),
		useful: probe(metrics.ProbeUseful), complete: probe(metrics.ProbeComplete),
		maxGap: probe(metrics.ProbeMaxGap), mark: probe(metrics.ProbeMark),
		connecting: probe(metrics.ProbeConnecting), tlsHandshaking: probe(metrics.ProbeTLSHandshaking),
		usefulReached: probe(metrics.ProbeUsefulReached), failed: probe(metrics.ProbeFailed),
		good:   probe(metrics.ProbeGood),
		events: probe(metrics.ProbeEvents), heartbeats: probe(metrics.ProbeHeartbeats),
		emptyEvents: probe(metrics.ProbeEmptyEvents), tokens: probe(metrics.ProbeTokens),
		cost: probe(metrics.ProbeCost), readLag: probe(metrics.ProbeReadLag),
		coalesced: probe(metrics.ProbeCoalescedEvents),
		httpReqs:  counter("http_reqs"), httpReqFailed: rate("http_req_failed"),
		dataSent: counter("data_sent", metrics.Data), dataReceived: counter("data_received", metrics.Data),
	}
}

// RequestTags are the tags of a request's samples: base (the VU's tags,
// the request's own tags, name and method), then the status (and
// error_code) once the response is known.
func RequestTags(base metrics.Tags, res *sse.Result) metrics.Tags {
	tags := base.With("status", metrics.StatusTag(res.Status))
	if res.ErrorCode != "" {
		tags = tags.With("error_code", res.ErrorCode)
	}
	return tags
}

// samples returns, in buf, the samples of one finished request tagged
// tags (RequestTags), whose goodput
// verdict is good (nil: it named no objective, and pushes no
// usefulsse_good sample). A time never reached pushes no sample, nor does a
// connection's set-up on a request that reused one.
func (m *probeMetrics) samples(res *sse.Result, good *bool, tags metrics.Tags, at time.Time, buf []metrics.Sample) []metrics.Sample {
	out := buf[:0]
	add := func(metric *metrics.Metric, t metrics.Tags, v float64) {
		out = append(out, metrics.Sample{Metric: metric, Tags: t, Time: at, Value: v})
	}
	tm := res.Timings
	for _, tr := range []struct {
		metric *metrics.Metric
		v      *float64
	}{{m.queue, tm.Queue}, {m.headers, tm.Headers}, {m.firstEvent, tm.FirstEvent}, {m.firstText, tm.FirstText},
		{m.useful, tm.Useful}, {m.complete, tm.Complete}, {m.maxGap, tm.MaxGap},
		{m.connecting, tm.Connecting}, {m.tlsHandshaking, tm.TLSHandshaking}} {
		if tr.v != nil {
			add(tr.metric, tags, *tr.v)
		}
	}
	for _, name := range metrics.SortedNames(res.Marks) {
		if v := res.Marks[name]; v != nil {
			add(m.mark, tags.With("mark", name), *v)
		}
	}
	add(m.usefulReached, tags, boolValue(res.UsefulReached))
	add(m.failed, tags, boolValue(res.Failed()))
	if good != nil {
		add(m.good, tags, boolValue(*good))
	}
	add(m.events, tags, float64(res.Events))
	add(m.heartbeats, tags, float64(res.Heartbeats))
	add(m.emptyEvents, tags, float64(res.EmptyEvents))
	add(m.coalesced, tags, float64(res.CoalescedEvents))
	if res.ReadLag != nil {
		add(m.readLag, tags, *res.ReadLag)
	}
	m.tokenSamples(res, tags, add)
	add(m.httpReqs, tags, 1)
	add(m.httpReqFailed, tags, boolValue(res.Failed()))
	add(m.dataSent, tags, float64(res.BytesSent))
	add(m.dataReceived, tags, float64(res.BytesReceived))
	return out
}

// tokenSamples adds usefulsse_tokens per kind and usefulsse_cost, when the
// stream reported them.
func (m *probeMetrics) tokenSamples(res *sse.Result, tags metrics.Tags, add func(*metrics.Metric, metrics.Tags, float64)) {
	u := res.Usage
	for _, t := range []struct {
		kind string
		n    int64
	}{{"input", u.InputTokens}, {"output", u.OutputTokens}, {"reasoning", u.ReasoningTokens}} {
		if t.n > 0 {
			add(m.tokens, tags.With("kind", t.kind), float64(t.n))
		}
	}
	if res.Cost > 0 {
		add(m.cost, tags, res.Cost)
	}
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// sampleSlot keeps a VU's samples buffer between the requests it records:
// the engine's subscribers keep no slice they are pushed
// (metrics.Engine.Subscribe), so the buffer is free again once pushed.
// Requests recorded at once (requestAsync) take the kept one or make their
// own, without a lock.
type sampleSlot struct {
	kept atomic.Pointer[[]metrics.Sample]
}

// take returns the kept buffer, or a new one.
func (s *sampleSlot) take() *[]metrics.Sample {
	if b := s.kept.Swap(nil); b != nil {
		return b
	}
	b := make([]metrics.Sample, 0, 24)
	return &b
}

// give keeps b, pushed, for the next request, cleared so that it holds on
// to no tags.
func (s *sampleSlot) give(b *[]metrics.Sample) {
	clear((*b)[:cap(*b)])
	*b = (*b)[:0]
	s.kept.Store(b)
}
