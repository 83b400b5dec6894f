package modules

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/metrics"
)

// MergeTags returns base plus the tags of the optional trailing JavaScript
// object of a call, extra[0] (check(val, conds, tags), metric.add(v, tags)).
// An absent, undefined or null object returns base itself; otherwise base is
// copied, never mutated, and the object's values are read as strings.
func MergeTags(rt *sobek.Runtime, base metrics.Tags, extra []sobek.Value) metrics.Tags {
	if len(extra) == 0 || extra[0] == nil || sobek.IsUndefined(extra[0]) || sobek.IsNull(extra[0]) {
		return base
	}
	obj := extra[0].ToObject(rt)
	out := make(metrics.Tags, len(base)+len(obj.Keys()))
	for k, v := range base {
		out[k] = v
	}
	for _, k := range obj.Keys() {
		out[k] = obj.Get(k).String()
	}
	return out
}
