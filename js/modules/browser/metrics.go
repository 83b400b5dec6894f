package k6browser

import (
	"sync/atomic"

	"github.com/usefullatency/usefullatency/internal/chromium"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// metricKinds are k6's browser metrics, with their types.
var metricKinds = []struct {
	name     string
	kind     metrics.MetricType
	contains metrics.ValueType
}{
	{chromium.MetricDataReceived, metrics.Counter, metrics.Data},
	{chromium.MetricDataSent, metrics.Counter, metrics.Data},
	{chromium.MetricHTTPReqDuration, metrics.Trend, metrics.Time},
	{chromium.MetricHTTPReqFailed, metrics.Rate, metrics.Default},
	{chromium.MetricWebVitalCLS, metrics.Trend, metrics.Default},
	{chromium.MetricWebVitalFCP, metrics.Trend, metrics.Time},
	{chromium.MetricWebVitalFID, metrics.Trend, metrics.Time},
	{chromium.MetricWebVitalINP, metrics.Trend, metrics.Time},
	{chromium.MetricWebVitalLCP, metrics.Trend, metrics.Time},
	{chromium.MetricWebVitalTTFB, metrics.Trend, metrics.Time},
}

// sampler forwards a VU's page samples (chromium.Options.Samples) into the
// run's metrics engine, tagged as the iteration that opened the pages is:
// pages live no longer than their iteration, and report from goroutines of
// their own, so the iteration's tags are kept here when it first uses the
// browser.
type sampler struct {
	run     *modules.Run
	metrics map[string]*metrics.Metric
	iter    atomic.Pointer[iterationTags]
}

// iterationTags are the tags and metadata of an iteration's samples.
type iterationTags struct{ tags, meta metrics.Tags }

// newSampler registers the browser metrics in the run (once per run: the
// registry keeps the first) and returns a VU's sampler.
func newSampler(run *modules.Run) *sampler {
	s := &sampler{run: run, metrics: make(map[string]*metrics.Metric, len(metricKinds))}
	for _, k := range metricKinds {
		s.metrics[k.name] = run.Registry.MustNewMetric(k.name, k.kind, k.contains)
	}
	return s
}

// begin keeps the tags of the iteration st runs now; it runs on the VU's
// goroutine.
func (s *sampler) begin(st *modules.State) {
	s.iter.Store(&iterationTags{tags: st.Tags, meta: st.Metadata})
}

// push sends one page sample, with the iteration's tags and the sample's
// own (url, method, status, rating…); safe from any goroutine.
func (s *sampler) push(smp chromium.Sample) {
	it, m := s.iter.Load(), s.metrics[smp.Metric]
	if it == nil || m == nil {
		return
	}
	tags := it.tags
	for k, v := range smp.Tags {
		tags = tags.With(k, v)
	}
	sample := metrics.Sample{Metric: m, Tags: tags, Time: smp.Time, Value: smp.Value}
	s.run.Engine.Push(modules.WithMetadata([]metrics.Sample{sample}, it.meta)...)
}
