package metrics

import "sort"

// Breakdown aggregates some metrics per group of samples: a sample belongs
// to the group named by the value of the first of Keys its tags have, so
// with Keys ["bucket", "scenario"] requests group by bucket and, without
// one, by scenario. Subscribe Add to an Engine to feed it.
type Breakdown struct {
	keys    []string
	metrics map[*Metric]bool
	groups  map[string]map[string]Sink
	// split, when set, is a tag whose value keeps samples apart within a
	// group: "qa (ui)" beside "qa" (see SplitBy).
	split string
}

// SplitBy keeps the samples that carry tag in a group of their own beside
// their group: with "layer", a UI probe's samples of bucket qa (layer ui)
// form "qa (ui)" next to the stream probe's "qa". It returns b.
func (b *Breakdown) SplitBy(tag string) *Breakdown {
	b.split = tag
	return b
}

// NewBreakdown returns a breakdown of ms by the first present of keys.
func NewBreakdown(keys []string, ms ...*Metric) *Breakdown {
	b := &Breakdown{keys: keys, metrics: make(map[*Metric]bool, len(ms)), groups: map[string]map[string]Sink{}}
	for _, m := range ms {
		b.metrics[m] = true
	}
	return b
}

// Add folds the samples of the broken-down metrics into their groups.
// Samples without any of the keys are left out. It is meant to run under
// the engine lock (Engine.Subscribe).
func (b *Breakdown) Add(samples []Sample) {
	for i := range samples {
		s := &samples[i]
		if !b.metrics[s.Metric] {
			continue
		}
		group, ok := b.groupOf(s.Tags)
		if !ok {
			continue
		}
		sinks := b.groups[group]
		if sinks == nil {
			sinks = map[string]Sink{}
			b.groups[group] = sinks
		}
		sink := sinks[s.Metric.Name]
		if sink == nil {
			sink = NewSink(s.Metric.Type)
			sinks[s.Metric.Name] = sink
		}
		sink.Add(s.Value)
	}
}

func (b *Breakdown) groupOf(tags Tags) (string, bool) {
	for _, k := range b.keys {
		if v, ok := tags[k]; ok && v != "" {
			if s := tags[b.split]; b.split != "" && s != "" {
				v += " (" + s + ")"
			}
			return v, true
		}
	}
	return "", false
}

// Keys returns the tag keys that name a sample's group, in order.
func (b *Breakdown) Keys() []string { return append([]string(nil), b.keys...) }

// Metrics returns the broken-down metrics, sorted by name.
func (b *Breakdown) Metrics() []*Metric {
	out := make([]*Metric, 0, len(b.metrics))
	for m := range b.metrics {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Put sets the aggregate of metric name in group to s, replacing what was
// there; it rebuilds a breakdown from stored or merged results.
func (b *Breakdown) Put(group, name string, s Sink) {
	sinks := b.groups[group]
	if sinks == nil {
		sinks = map[string]Sink{}
		b.groups[group] = sinks
	}
	sinks[name] = s
}

// Groups returns the group names seen, sorted.
func (b *Breakdown) Groups() []string {
	out := make([]string, 0, len(b.groups))
	for g := range b.groups {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// Sink returns the aggregate of metric name in group, or nil when no sample
// reached it.
func (b *Breakdown) Sink(group, name string) Sink {
	return b.groups[group][name]
}
