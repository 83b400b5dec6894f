package metrics

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Registry holds the named metrics of a run. It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	metrics map[string]*Metric
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{metrics: make(map[string]*Metric)}
}

// NewMetric returns the metric called name, creating it when it does not
// exist. Asking again for an existing name with another type or value type is
// an error, as is a name that ValidName rejects.
func (r *Registry) NewMetric(name string, t MetricType, vt ...ValueType) (*Metric, error) {
	if !ValidName(name) {
		return nil, fmt.Errorf("invalid metric name %q: it must match ^[a-zA-Z_][a-zA-Z0-9_]{1,128}$", name)
	}
	contains := Default
	if len(vt) > 0 {
		contains = vt[0]
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if m, ok := r.metrics[name]; ok {
		if m.Type != t || m.Contains != contains {
			return nil, fmt.Errorf("metric %q already exists as a %s of %s values", name, m.Type, m.Contains)
		}
		return m, nil
	}
	m := newMetric(name, t, contains)
	r.metrics[name] = m
	return m, nil
}

// MustNewMetric is NewMetric for built-in metrics whose names are known to
// be valid; it panics on error.
func (r *Registry) MustNewMetric(name string, t MetricType, vt ...ValueType) *Metric {
	m, err := r.NewMetric(name, t, vt...)
	if err != nil {
		panic(err)
	}
	return m
}

// Get returns the metric called name, or nil.
func (r *Registry) Get(name string) *Metric {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.metrics[name]
}

// All returns every metric, sorted by name.
func (r *Registry) All() []*Metric {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Metric, 0, len(r.metrics))
	for _, m := range r.metrics {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Submetric returns the submetric of parent selected by sel ("k:v,k2:v2"),
// creating it on first use. Spaces and quotes around keys and values are
// trimmed for matching, but the submetric's name keeps the selector as its
// first user spelled it ("latency{kind: odd}"), as k6 names it in the
// summary and its export. Submetrics must be created before samples are
// pushed.
func (r *Registry) Submetric(parent *Metric, sel string) (*Metric, error) {
	tags, err := ParseSelector(sel)
	if err != nil {
		return nil, fmt.Errorf("metric %s: %w", parent.Name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range parent.Submetrics {
		if sameTags(s.Selector, tags) {
			return s.Metric, nil
		}
	}
	m := newMetric(parent.Name+"{"+strings.TrimSpace(sel)+"}", parent.Type, parent.Contains)
	m.Parent, m.Selector = parent, tags
	parent.Submetrics = append(parent.Submetrics, &Submetric{Selector: tags, Metric: m})
	return m, nil
}

// ParseSelector parses a tag selector "k:v,k2:v2" into tags.
func ParseSelector(sel string) (Tags, error) {
	tags := Tags{}
	for _, part := range strings.Split(sel, ",") {
		k, v, ok := strings.Cut(part, ":")
		k, v = trimSel(k), trimSel(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("invalid tag selector %q: want key:value pairs separated by commas", sel)
		}
		tags[k] = v
	}
	return tags, nil
}

func trimSel(s string) string {
	return strings.Trim(strings.TrimSpace(s), `"'`)
}

func sameTags(a, b Tags) bool {
	return len(a) == len(b) && a.Contains(b)
}

// SinkOf returns the sink of the metric called name when it is an S;
// false when reg has no such metric or its sink is of another type.
func SinkOf[S Sink](reg *Registry, name string) (S, bool) {
	var zero S
	m := reg.Get(name)
	if m == nil {
		return zero, false
	}
	s, ok := m.Sink.(S)
	return s, ok
}
