package result

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// Source is what a runner's result is taken from. The caller holds the
// metrics engine lock (metrics.Engine.Read) while Snapshot reads it.
type Source struct {
	// Script is the script path and ScriptSource its main module's bytes.
	Script       string
	ScriptSource []byte
	// Options are the resolved options of the run.
	Options options.Options
	// Registry holds the metrics, Root the groups and checks, Streaming
	// the per-bucket breakdown (nil without the streaming probe).
	Registry  *metrics.Registry
	Root      *metrics.Group
	Streaming *metrics.Breakdown
	// Start is when the scenarios started (zero if they never did), End
	// when the result is taken (and the start when they never did),
	// Duration the test run duration so far; the file's end is Start +
	// Duration.
	Start, End time.Time
	Duration   time.Duration
	// SetupData is setup()'s result as JSON; nil when none.
	SetupData []byte
	// GaugeTimes are the times of the sample whose value each gauge (and
	// gauge submetric) keeps, by metric name; a gauge missing here reads
	// End.
	GaugeTimes map[string]time.Time
}

// Snapshot takes the result of a run. Trend values are copied, so the run
// may go on afterwards.
func Snapshot(src Source) *File {
	o := src.Options
	seg := "0:1"
	if o.ExecutionSegment != "" {
		if s, err := options.ParseSegment(o.ExecutionSegment); err == nil {
			seg = s.String()
		}
	}
	start := src.Start
	if start.IsZero() {
		start = src.End
	}
	f := &File{
		Format: Format, Version: Version,
		TestID: TestID(src.ScriptSource, o), Script: src.Script,
		Segments: []string{seg}, Sequence: normalizedSequence(o.ExecutionSegmentSequence),
		Start: start.UTC(), End: start.Add(src.Duration).UTC(), Duration: src.Duration,
		Thresholds: thresholdsOf(o.Thresholds), NoThresholds: o.NoThresholds,
		SummaryTrendStats: o.SummaryTrendStats, SummaryTimeUnit: o.SummaryTimeUnit,
		SetupData: src.SetupData,
	}
	if b, err := o.InspectJSON(); err == nil && json.Valid(b) {
		f.Options = b
	}
	for _, m := range src.Registry.All() {
		f.Metrics = append(f.Metrics, metricOf(m, src))
	}
	f.Groups = groupsOf(src.Root)
	f.Breakdown = breakdownOf(src.Streaming)
	return f
}

// TestID is the identity of a test: the SHA-256 of the main script's
// source and of the JSON of the options that define its load and its gates
// (scenarios and thresholds), hex-encoded. Per-runner options (segment,
// tags, outputs, summary options) are left out.
func TestID(source []byte, o options.Options) string {
	h := sha256.New()
	h.Write(source)
	h.Write([]byte{0})
	def, _ := json.Marshal(struct {
		Scenarios  any `json:"scenarios"`
		Thresholds any `json:"thresholds"`
	}{o.Scenarios, thresholdsOf(o.Thresholds)})
	h.Write(def)
	return hex.EncodeToString(h.Sum(nil))
}

// normalizedSequence writes a sequence in canonical form; "" stays "".
func normalizedSequence(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	q, err := options.ParseSequence(s)
	if err != nil {
		return s
	}
	return q.String()
}

func thresholdsOf(cfg map[string][]metrics.ThresholdConfig) map[string][]Threshold {
	if len(cfg) == 0 {
		return nil
	}
	out := make(map[string][]Threshold, len(cfg))
	for k, list := range cfg {
		for _, c := range list {
			out[k] = append(out[k], Threshold{Source: c.Source, AbortOnFail: c.AbortOnFail, DelayAbortEval: c.DelayAbortEval})
		}
	}
	return out
}

// metricOf copies a metric's aggregate and its submetrics'.
func metricOf(m *metrics.Metric, src Source) Metric {
	out := Metric{Name: m.Name, Type: m.Type.String(), Contains: m.Contains.String(), Sink: sinkOf(m.Sink, gaugeTime(m.Name, src))}
	for _, sub := range m.Submetrics {
		out.Submetrics = append(out.Submetrics, Submetric{
			Selector: selectorOf(sub.Selector),
			Sink:     sinkOf(sub.Metric.Sink, gaugeTime(sub.Metric.Name, src)),
		})
	}
	return out
}

func gaugeTime(name string, src Source) time.Time {
	if t, ok := src.GaugeTimes[name]; ok {
		return t.UTC()
	}
	return src.End.UTC()
}

// selectorOf writes tags as "k:v,k2:v2" with sorted keys, the form
// metrics.Registry.Submetric parses.
func selectorOf(t metrics.Tags) string {
	keys := metrics.SortedNames(t)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ":" + t[k]
	}
	return strings.Join(parts, ",")
}

// sinkOf copies a sink; last is the time of a gauge's value.
func sinkOf(s metrics.Sink, last time.Time) Sink {
	switch x := s.(type) {
	case *metrics.CounterSink:
		return Sink{Sum: x.Sum, Count: x.Count}
	case *metrics.GaugeSink:
		if x.Empty() {
			return Sink{}
		}
		return Sink{Value: x.Value, Min: x.Min, Max: x.Max, Set: true, Last: last}
	case *metrics.RateSink:
		return Sink{Trues: x.Trues, Total: x.Total}
	case *metrics.TrendSink:
		vs := append([]float64(nil), x.Values()...)
		return Sink{Count: int64(len(vs)), Sum: x.Sum, Values: vs}
	}
	return Sink{}
}

// groupsOf flattens the group tree, parents first, in creation order.
func groupsOf(root *metrics.Group) []Group {
	if root == nil {
		return nil
	}
	var out []Group
	var walk func(g *metrics.Group)
	walk = func(g *metrics.Group) {
		grp := Group{Path: g.Path}
		for _, c := range g.Checks() {
			p, f := c.Counts()
			grp.Checks = append(grp.Checks, Check{Name: c.Name, Passes: p, Fails: f})
		}
		out = append(out, grp)
		for _, sub := range g.Groups() {
			walk(sub)
		}
	}
	walk(root)
	return out
}

// breakdownOf copies a breakdown; nil stays nil.
func breakdownOf(b *metrics.Breakdown) *Breakdown {
	if b == nil {
		return nil
	}
	out := &Breakdown{Keys: b.Keys()}
	ms := b.Metrics()
	for _, m := range ms {
		out.Metrics = append(out.Metrics, BreakdownMetric{Name: m.Name, Type: m.Type.String()})
	}
	for _, g := range b.Groups() {
		bucket := Bucket{Name: g}
		for _, m := range ms {
			if s := b.Sink(g, m.Name); s != nil {
				bucket.Sinks = append(bucket.Sinks, BucketSink{Metric: m.Name, Sink: sinkOf(s, time.Time{})})
			}
		}
		out.Buckets = append(out.Buckets, bucket)
	}
	return out
}
