package result

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// Run is a result turned back into the objects the summary and the
// thresholds read: a registry of metrics with their submetrics and
// thresholds, the group tree with its checks and the per-bucket breakdown.
type Run struct {
	Registry *metrics.Registry
	Root     *metrics.Group
	// Streaming is the per-bucket breakdown; nil without one.
	Streaming *metrics.Breakdown
	// Start is when the test started; Duration is the test run duration,
	// counter rates are per second of it.
	Start    time.Time
	Duration time.Duration
	// SetupData is what setup() returned, decoded; nil when nothing.
	SetupData any
	// TrendStats and TimeUnit are the summary options of the result.
	TrendStats []string
	TimeUnit   string
	// hasThresholds is false when the thresholds were not applied.
	hasThresholds bool
}

// Bounds of what Materialize accepts of a file. A run makes one submetric
// per threshold key with a tag selector (and one for k6/http), and the
// registry looks through a metric's submetrics to add one: 10,000 of them
// take 15 s, a crafted file with 200,000 would keep merge busy for hours.
const (
	// MaxSubmetrics bounds the submetrics of one metric, and the threshold
	// keys with a selector on one metric.
	MaxSubmetrics = 2_000
	// MaxThresholdKeys bounds the metrics and submetrics with thresholds.
	MaxThresholdKeys = 10_000
)

// Materialize rebuilds the metrics, groups and breakdown of f and, unless
// noThresholds, attaches the test's thresholds to them — also when the
// runners ran with --no-thresholds, which means "do not judge here", not
// "the test has none". Metric names, types and threshold expressions are
// checked as a run checks them; more than MaxSubmetrics submetrics of a
// metric or MaxThresholdKeys threshold keys are refused (ErrTooLarge).
func (f *File) Materialize(noThresholds bool) (*Run, error) {
	if err := checkThresholdKeys(f.Thresholds); err != nil {
		return nil, err
	}
	reg := metrics.NewRegistry()
	r := &Run{Registry: reg, Root: metrics.NewRootGroup(), Start: f.Start, Duration: f.Duration,
		TrendStats: f.SummaryTrendStats, TimeUnit: f.SummaryTimeUnit}
	for _, m := range f.Metrics {
		if err := addMetric(reg, m); errors.Is(err, ErrTooLarge) {
			return nil, err
		} else if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	if err := addGroups(r.Root, f.Groups); err != nil {
		return nil, err
	}
	b, err := breakdown(reg, f.Breakdown)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	r.Streaming = b
	if len(f.SetupData) > 0 {
		if err := json.Unmarshal(f.SetupData, &r.SetupData); err != nil {
			return nil, fmt.Errorf("%w: setup data: %v", ErrCorrupt, err)
		}
	}
	if noThresholds {
		return r, nil
	}
	if err := metrics.ApplyThresholds(reg, thresholdConfigs(f.Thresholds)); err != nil {
		return nil, err
	}
	r.hasThresholds = len(f.Thresholds) > 0
	return r, nil
}

// Judged reports whether the run's thresholds are evaluated: it has some
// and Materialize was not told to leave them out.
func (r *Run) Judged() bool { return r.hasThresholds }

// EvalThresholds evaluates every threshold on the whole result, as a run
// does at its end, and returns whether one failed; see Crossed for which.
func (r *Run) EvalThresholds() (failed bool) {
	if !r.hasThresholds {
		return false
	}
	failed, _ = metrics.EvalThresholds(r.Registry, r.Duration, true)
	return failed
}

// Crossed names the metrics whose thresholds failed the last evaluation,
// sorted.
func (r *Run) Crossed() []string { return metrics.CrossedMetrics(r.Registry) }

// checkThresholdKeys refuses more than MaxThresholdKeys keys, or more than
// MaxSubmetrics keys with a selector on one metric.
func checkThresholdKeys(ts map[string][]Threshold) error {
	if n := len(ts); n > MaxThresholdKeys {
		return fmt.Errorf("%w: thresholds on %d metrics, more than %d", ErrTooLarge, n, MaxThresholdKeys)
	}
	per := map[string]int{}
	for k := range ts {
		if name, _, ok := strings.Cut(k, "{"); ok {
			if per[name]++; per[name] > MaxSubmetrics {
				return fmt.Errorf("%w: thresholds on more than %d submetrics of %q", ErrTooLarge, MaxSubmetrics, name)
			}
		}
	}
	return nil
}

// addMetric registers m with its aggregate and submetrics.
func addMetric(reg *metrics.Registry, m Metric) error {
	if n := len(m.Submetrics); n > MaxSubmetrics {
		return fmt.Errorf("%w: metric %q has %d submetrics, more than %d", ErrTooLarge, m.Name, n, MaxSubmetrics)
	}
	typ, err := metricType(m.Type)
	if err != nil {
		return fmt.Errorf("metric %q: %v", m.Name, err)
	}
	vt, err := valueType(m.Contains)
	if err != nil {
		return fmt.Errorf("metric %q: %v", m.Name, err)
	}
	rm, err := reg.NewMetric(m.Name, typ, vt)
	if err != nil {
		return err
	}
	fill(rm.Sink, m.Sink)
	for _, sub := range m.Submetrics {
		sm, err := reg.Submetric(rm, sub.Selector)
		if err != nil {
			return err
		}
		fill(sm.Sink, sub.Sink)
	}
	return nil
}

// fill folds a stored aggregate into an empty sink of its type.
func fill(dst metrics.Sink, s Sink) {
	switch x := dst.(type) {
	case *metrics.CounterSink:
		x.Sum, x.Count = s.Sum, s.Count
	case *metrics.GaugeSink:
		if s.Set {
			// The extremes first, the last value last: Add keeps them all.
			x.Add(s.Min)
			x.Add(s.Max)
			x.Add(s.Value)
		}
	case *metrics.RateSink:
		x.Trues, x.Total = s.Trues, s.Total
	case *metrics.TrendSink:
		for _, v := range s.Values {
			x.Add(v)
		}
		// The runner's own sum, added in sample order: avg comes back to
		// the last bit (the sorted values' sum may round differently).
		x.Sum = s.Sum
	}
}

func metricType(s string) (metrics.MetricType, error) {
	for _, t := range []metrics.MetricType{metrics.Counter, metrics.Gauge, metrics.Rate, metrics.Trend} {
		if t.String() == s {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown metric type %q", s)
}

func valueType(s string) (metrics.ValueType, error) {
	for _, t := range []metrics.ValueType{metrics.Default, metrics.Time, metrics.Data} {
		if t.String() == s {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown value type %q", s)
}

// addGroups rebuilds the group tree from paths ("::a::b"), parents first.
func addGroups(root *metrics.Group, groups []Group) error {
	byPath := map[string]*metrics.Group{"": root}
	for _, g := range groups {
		node, ok := byPath[g.Path]
		if !ok {
			parent, name, err := splitPath(g.Path)
			if err != nil {
				return err
			}
			p, ok := byPath[parent]
			if !ok {
				return fmt.Errorf("%w: group %q comes before its parent", ErrCorrupt, g.Path)
			}
			node = p.Group(name)
			byPath[g.Path] = node
		}
		for _, c := range g.Checks {
			node.Check(c.Name).Add(c.Passes, c.Fails)
		}
	}
	return nil
}

// splitPath splits "::a::b" into "::a" and "b".
func splitPath(path string) (parent, name string, err error) {
	for i := len(path) - len(metrics.GroupSeparator); i >= 0; i-- {
		if path[i:i+len(metrics.GroupSeparator)] == metrics.GroupSeparator {
			return path[:i], path[i+len(metrics.GroupSeparator):], nil
		}
	}
	return "", "", fmt.Errorf("%w: invalid group path %q", ErrCorrupt, path)
}

// breakdown rebuilds a per-bucket breakdown over the registry's metrics.
func breakdown(reg *metrics.Registry, b *Breakdown) (*metrics.Breakdown, error) {
	if b == nil {
		return nil, nil
	}
	var ms []*metrics.Metric
	for _, m := range b.Metrics {
		rm := reg.Get(m.Name)
		if rm == nil || rm.Type.String() != m.Type {
			return nil, fmt.Errorf("breakdown metric %q is not a %s metric of the result", m.Name, m.Type)
		}
		ms = append(ms, rm)
	}
	out := metrics.NewBreakdown(b.Keys, ms...)
	for _, bk := range b.Buckets {
		for _, s := range bk.Sinks {
			rm := reg.Get(s.Metric)
			if rm == nil {
				return nil, fmt.Errorf("bucket %q: unknown metric %q", bk.Name, s.Metric)
			}
			sink := metrics.NewSink(rm.Type)
			fill(sink, s.Sink)
			out.Put(bk.Name, s.Metric, sink)
		}
	}
	return out, nil
}

// thresholdConfigs turns stored thresholds back into configurations.
func thresholdConfigs(ts map[string][]Threshold) map[string][]metrics.ThresholdConfig {
	out := make(map[string][]metrics.ThresholdConfig, len(ts))
	for k, list := range ts {
		for _, t := range list {
			out[k] = append(out[k], metrics.ThresholdConfig{Source: t.Source, AbortOnFail: t.AbortOnFail, DelayAbortEval: t.DelayAbortEval})
		}
	}
	return out
}
