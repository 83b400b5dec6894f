package compare

import (
	"fmt"
	"sort"
	"strings"

	"github.com/usefullatency/usefullatency/metrics"
)

// metricKey names a metric or one of its submetrics: the metric's name and
// the selector's tags, written in canonical form ("k:v,k2:v2", keys sorted,
// spaces and quotes trimmed) so that "m{b: 'x'}" and "m{b:x}" are one key.
type metricKey struct {
	name string
	sel  string
}

// String returns the key as thresholds name it: "name" or "name{k:v}".
func (k metricKey) String() string {
	if k.sel == "" {
		return k.name
	}
	return k.name + "{" + k.sel + "}"
}

// tags returns the selector's tags; nil without a selector.
func (k metricKey) tags() metrics.Tags {
	if k.sel == "" {
		return nil
	}
	t, _ := metrics.ParseSelector(k.sel)
	return t
}

// bucket returns the bucket a key selects, the value of its bucket tag
// (else of its scenario tag, as the summary buckets samples); "" when none.
func (k metricKey) bucket() string {
	t := k.tags()
	if v, ok := t["bucket"]; ok {
		return v
	}
	return t["scenario"]
}

// parseKey parses "name" or "name{k:v,…}".
func parseKey(s string) (metricKey, error) {
	name, sel, hasSel := strings.Cut(strings.TrimSpace(s), "{")
	name = strings.TrimSpace(name)
	if name == "" {
		return metricKey{}, fmt.Errorf("metric %q: no name", s)
	}
	if !hasSel {
		return metricKey{name: name}, nil
	}
	inner, ok := strings.CutSuffix(strings.TrimSpace(sel), "}")
	if !ok {
		return metricKey{}, fmt.Errorf("metric %q: want name{key:value,...}", s)
	}
	c, err := canonicalSelector(inner)
	if err != nil {
		return metricKey{}, fmt.Errorf("metric %q: %v", s, err)
	}
	return metricKey{name: name, sel: c}, nil
}

// canonicalSelector writes the tags of sel sorted by key, "k:v,k2:v2".
func canonicalSelector(sel string) (string, error) {
	tags, err := metrics.ParseSelector(sel)
	if err != nil {
		return "", err
	}
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ":" + tags[k]
	}
	return strings.Join(parts, ","), nil
}

// rowID names a row as --fail-on does: "metric{sel}:stat".
func rowID(key, stat string) string { return key + ":" + stat }

// parseRowID parses --fail-on's "metric{sel}:stat" into the canonical key
// and stat of a row. The stat is a threshold's aggregation; med is p(50).
func parseRowID(s string) (metricKey, string, error) {
	i := strings.LastIndex(s, ":")
	if i < 0 || i < strings.LastIndex(s, "}") {
		return metricKey{}, "", fmt.Errorf("%q: want metric{tag:value}:stat, e.g. usefulsse_useful{bucket:qa}:p(95)", s)
	}
	key, err := parseKey(s[:i])
	if err != nil {
		return metricKey{}, "", err
	}
	st, err := metrics.ParseStat(strings.TrimSpace(s[i+1:]))
	if err != nil {
		return metricKey{}, "", fmt.Errorf("%q: %v", s, err)
	}
	return key, statLabel(st), nil
}

// statLabel is the label of a row's stat: the stat's canonical name, with
// med written p(50) so that the two name one row.
func statLabel(st metrics.Stat) string {
	if st.Kind == metrics.StatMed {
		return "p(50)"
	}
	return st.String()
}
