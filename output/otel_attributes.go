package output

import (
	"reflect"
	"slices"

	"go.opentelemetry.io/otel/attribute"
	otelmetric "go.opentelemetry.io/otel/metric"

	"github.com/usefullatency/usefullatency/metrics"
)

// otelAttrCacheSize bounds the tag sets whose attributes are kept; when it
// is reached the cache starts again empty.
const otelAttrCacheSize = 10_000

// otelAttrs are the attributes of one tag set, built once: every tag with a
// non-empty value, as the SDK's set and as a ready measurement option
// (building a set sorts and hashes, the main cost of a sample).
type otelAttrs struct {
	set attribute.Set
	opt otelmetric.MeasurementOption
	// zero and nonzero add condition=zero|nonzero for a Rate; built on
	// first use.
	zero, nonzero otelmetric.MeasurementOption
}

// condition returns the option with the Rate's condition attribute.
func (a *otelAttrs) condition(nonzero bool) otelmetric.MeasurementOption {
	p, value := &a.zero, "zero"
	if nonzero {
		p, value = &a.nonzero, "nonzero"
	}
	if *p == nil {
		kvs := append(a.set.ToSlice(), attribute.String("condition", value))
		*p = otelmetric.WithAttributeSet(attribute.NewSet(kvs...))
	}
	return *p
}

// otelAttrCache maps tag sets to their attributes. The samples of one
// request often share one Tags map, so the last map is checked first by
// identity; others are looked up by their content. Used by one goroutine.
type otelAttrCache struct {
	last      metrics.Tags
	lastAttrs *otelAttrs
	byKey     map[string]*otelAttrs
	keys      []string
	key       []byte
}

func newOtelAttrCache() *otelAttrCache { return &otelAttrCache{byKey: map[string]*otelAttrs{}} }

// of returns the attributes of tags.
func (c *otelAttrCache) of(tags metrics.Tags) *otelAttrs {
	if c.lastAttrs != nil && sameMap(tags, c.last) {
		return c.lastAttrs
	}
	c.keys = c.keys[:0]
	for k, v := range tags {
		if v != "" {
			c.keys = append(c.keys, k)
		}
	}
	slices.Sort(c.keys)
	c.key = c.key[:0]
	for _, k := range c.keys {
		c.key = append(append(c.key, k...), 0xff) // 0xff never occurs in UTF-8
		c.key = append(append(c.key, tags[k]...), 0xff)
	}
	a, ok := c.byKey[string(c.key)] // no copy for a lookup
	if !ok {
		kvs := make([]attribute.KeyValue, len(c.keys))
		for i, k := range c.keys {
			kvs[i] = attribute.String(k, tags[k])
		}
		set := attribute.NewSet(kvs...)
		a = &otelAttrs{set: set, opt: otelmetric.WithAttributeSet(set)}
		if len(c.byKey) >= otelAttrCacheSize {
			clear(c.byKey)
		}
		c.byKey[string(c.key)] = a
	}
	c.last, c.lastAttrs = tags, a
	return a
}

// sameMap reports whether a and b are the same map (not equal maps). The
// cache holds the last map, so its address cannot be reused meanwhile.
func sameMap(a, b metrics.Tags) bool {
	return a != nil && b != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
