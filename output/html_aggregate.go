package output

import (
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// maxWindows is the most time windows the report keeps: when a run outlasts
// maxWindows windows, neighbouring windows are merged in pairs and the
// window width doubles (1 s, 2 s, 4 s, …), so memory stays bounded however
// long the run is.
const maxWindows = 600

// maxSeriesBuckets is the most buckets drawn over time; samples of later
// buckets are drawn together as otherBucket. The waterfall keeps every
// bucket, as the summary does.
const maxSeriesBuckets = 12

// otherBucket names the buckets beyond maxSeriesBuckets in the charts.
const otherBucket = "(other buckets)"

// moments are the probe's times of "where the time goes", in the summary's
// order.
var moments = metrics.ProbeMoments()

// chartSeries is a probe time whose percentiles are drawn over time, per
// bucket.
type chartSeries struct {
	Metric string // the time's Trend, one of the moments
	Key    string // its key in the page's data and its chart's element id
	Title  string // its chart's heading
}

// overTime are the charts of latency over time, in the page's order.
var overTime = []chartSeries{
	{Metric: metrics.ProbeUseful, Key: "useful", Title: "useful"},
	{Metric: metrics.ProbeFirstText, Key: "first_text", Title: "first text"},
}

// bucketKeys name the tag that groups requests: the bucket tag, else the
// scenario, as in the summary's "where the time goes".
var bucketKeys = []string{"bucket", "scenario"}

// aggregate folds the samples of a run into what the HTML report shows:
// exact percentiles per bucket (every value kept per bucket and time, like
// the summary), counts and histograms per time window, and checks. It is not
// safe for concurrent use: the output's buffer feeds it from one goroutine.
type aggregate struct {
	origin  time.Time
	width   time.Duration
	windows []window
	buckets map[string]*bucketStats
	series  map[string]bool // buckets drawn over time, at most maxSeriesBuckets
	checks  map[checkKey]*metrics.RateSink
	order   []checkKey // checks in the order they first appeared
	first   time.Time  // time of the first sample (zero until one came)
	last    time.Time  // time of the latest sample
	health  healthStats
}

// bucketStats is one bucket's part of the "where the time goes" waterfall.
type bucketStats struct {
	times         map[string]*metrics.TrendSink // moment label → values in ms
	failed        metrics.RateSink
	usefulReached metrics.RateSink
	good          metrics.RateSink // metrics.ProbeGood: requests with objectives
}

// window counts what happened in one time window.
type window struct {
	started    float64 // iterations started (end time − duration)
	dropped    float64 // dropped_iterations
	requests   float64 // metrics.ProbeFailed samples
	failed     float64 // metrics.ProbeFailed true
	httpReqs   float64 // http_req_failed samples
	httpFailed float64 // http_req_failed true
	vus        float64 // highest vus gauge value
	hasVUs     bool
	latency    map[latencyKey]*histogram
}

// latencyKey names one drawn series: a chart's key and a bucket.
type latencyKey struct{ chart, bucket string }

// checkKey names a check: its group path and name.
type checkKey struct{ group, name string }

// newAggregate returns an empty aggregate whose windows start at origin,
// each width long.
func newAggregate(origin time.Time, width time.Duration) *aggregate {
	return &aggregate{
		origin: origin, width: width,
		buckets: map[string]*bucketStats{},
		series:  map[string]bool{},
		checks:  map[checkKey]*metrics.RateSink{},
	}
}

// add folds a batch of samples.
func (a *aggregate) add(batch []metrics.Sample) error {
	for i := range batch {
		a.addSample(&batch[i])
	}
	return nil
}

func (a *aggregate) addSample(s *metrics.Sample) {
	if a.first.IsZero() || s.Time.Before(a.first) {
		a.first = s.Time
	}
	if s.Time.After(a.last) {
		a.last = s.Time
	}
	name := s.Metric.Name
	switch name {
	case "iteration_duration":
		a.window(s.Time.Add(-time.Duration(s.Value*float64(time.Millisecond)))).started++
	case "dropped_iterations":
		a.window(s.Time).dropped += s.Value
	case "http_req_failed":
		w := a.window(s.Time)
		w.httpReqs++
		w.httpFailed += truth(s.Value)
	case "vus":
		w := a.window(s.Time)
		if !w.hasVUs || s.Value > w.vus {
			w.vus, w.hasVUs = s.Value, true
		}
	case "checks":
		a.addCheck(s)
	}
	if strings.HasPrefix(name, metrics.ProbePrefix) {
		a.addStreaming(s)
	}
}

// truth is 1 for a non-zero Rate value, 0 otherwise.
func truth(v float64) float64 {
	if v != 0 {
		return 1
	}
	return 0
}

// addStreaming folds a sample of a probe metric into its bucket and window.
func (a *aggregate) addStreaming(s *metrics.Sample) {
	if a.addHealth(s) {
		return
	}
	bucket, ok := bucketOf(s.Tags)
	if !ok {
		return
	}
	switch s.Metric.Name {
	case metrics.ProbeFailed:
		a.bucket(bucket).failed.Add(s.Value)
		w := a.window(s.Time)
		w.requests++
		w.failed += truth(s.Value)
		return
	case metrics.ProbeUsefulReached:
		a.bucket(bucket).usefulReached.Add(s.Value)
		return
	case metrics.ProbeGood:
		a.bucket(bucket).good.Add(s.Value)
		return
	}
	label, ok := momentLabel(s.Metric.Name)
	if !ok {
		return
	}
	a.bucket(bucket).times[label].Add(s.Value)
	for _, c := range overTime {
		if c.Metric == s.Metric.Name {
			a.latency(s.Time, c.Key, a.seriesBucket(bucket)).add(s.Value)
		}
	}
}

// bucketOf returns the value of the first of bucketKeys the tags have,
// followed by the layer when the sample has one ("qa (ui)": the UI probe's
// samples), as the summary's per-bucket table names it.
func bucketOf(tags metrics.Tags) (string, bool) {
	for _, k := range bucketKeys {
		if v := tags[k]; v != "" {
			if layer := tags[metrics.ProbeLayer]; layer != "" {
				v += " (" + layer + ")"
			}
			return v, true
		}
	}
	return "", false
}

// momentLabels returns the moments' labels, the columns of the bucket tables.
func momentLabels() []string {
	out := make([]string, len(moments))
	for i, m := range moments {
		out[i] = m.Label
	}
	return out
}

// momentLabel returns the label of the moment whose Trend is called name.
func momentLabel(name string) (string, bool) {
	for _, m := range moments {
		if m.Metric == name {
			return m.Label, true
		}
	}
	return "", false
}

// bucket returns the stats of a bucket, creating them.
func (a *aggregate) bucket(name string) *bucketStats {
	b := a.buckets[name]
	if b == nil {
		b = &bucketStats{times: map[string]*metrics.TrendSink{}}
		for _, m := range moments {
			b.times[m.Label] = &metrics.TrendSink{}
		}
		a.buckets[name] = b
	}
	return b
}

// seriesBucket returns the name a bucket is drawn under over time: itself
// while fewer than maxSeriesBuckets are drawn, otherBucket after.
func (a *aggregate) seriesBucket(name string) string {
	if a.series[name] {
		return name
	}
	if len(a.series) < maxSeriesBuckets {
		a.series[name] = true
		return name
	}
	return otherBucket
}

func (a *aggregate) addCheck(s *metrics.Sample) {
	k := checkKey{group: s.Tags["group"], name: s.Tags["check"]}
	c := a.checks[k]
	if c == nil {
		c = &metrics.RateSink{}
		a.checks[k] = c
		a.order = append(a.order, k)
	}
	c.Add(s.Value)
}

// latency returns the histogram of a chart's bucket in the window of t.
func (a *aggregate) latency(t time.Time, chart, bucket string) *histogram {
	w := a.window(t)
	if w.latency == nil {
		w.latency = map[latencyKey]*histogram{}
	}
	k := latencyKey{chart, bucket}
	h := w.latency[k]
	if h == nil {
		h = newHistogram()
		w.latency[k] = h
	}
	return h
}

// window returns the window of t, growing the list and, past maxWindows,
// merging windows in pairs. Times before the origin fall in the first
// window.
func (a *aggregate) window(t time.Time) *window {
	i := a.index(t)
	for i >= maxWindows {
		a.halve()
		i = a.index(t)
	}
	for len(a.windows) <= i {
		a.windows = append(a.windows, window{})
	}
	return &a.windows[i]
}

// index returns ⌊(t − origin) / width⌋, at least 0.
func (a *aggregate) index(t time.Time) int {
	d := t.Sub(a.origin)
	if d < 0 {
		return 0
	}
	return int(d / a.width)
}

// halve doubles the window width, merging windows 2i and 2i+1 into i.
func (a *aggregate) halve() {
	merged := make([]window, (len(a.windows)+1)/2, maxWindows)
	for i := range a.windows {
		merged[i/2].merge(&a.windows[i])
	}
	a.windows = merged
	a.width *= 2
}

// merge adds the counts of o to w.
func (w *window) merge(o *window) {
	w.started += o.started
	w.dropped += o.dropped
	w.requests += o.requests
	w.failed += o.failed
	w.httpReqs += o.httpReqs
	w.httpFailed += o.httpFailed
	if o.hasVUs && (!w.hasVUs || o.vus > w.vus) {
		w.vus, w.hasVUs = o.vus, true
	}
	for k, h := range o.latency {
		if w.latency == nil {
			w.latency = map[latencyKey]*histogram{}
		}
		if mine := w.latency[k]; mine != nil {
			mine.merge(h)
		} else {
			w.latency[k] = h
		}
	}
}
