package modules

import (
	"fmt"
	"reflect"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/metrics"
)

// MergeTags returns base plus the tags of the optional trailing JavaScript
// object of a call, extra[0] (check(val, conds, tags), metric.add(v, tags)).
// An absent, undefined or null object returns base itself; otherwise base is
// copied, never mutated, and the object's values are read as strings. As
// in k6, only strings, numbers and booleans are tag values: any other
// value throws a TypeError naming the tag.
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
		v := obj.Get(k)
		if !isTagValue(v) {
			panic(rt.NewTypeError(fmt.Sprintf("invalid value for tag %q: %s; only strings, numbers and booleans are tag values",
				k, describeValue(v))))
		}
		out[k] = v.String()
	}
	return out
}

// isTagValue reports whether v is a string, number or boolean.
func isTagValue(v sobek.Value) bool {
	if v == nil {
		return false
	}
	switch t := v.ExportType(); {
	case t == nil:
		return false
	default:
		switch t.Kind() {
		case reflect.String, reflect.Bool, reflect.Int64, reflect.Float64, reflect.Int:
			return true
		}
	}
	return false
}

// describeValue names a JavaScript value's type for messages.
func describeValue(v sobek.Value) string {
	switch {
	case v == nil || sobek.IsUndefined(v):
		return "undefined"
	case sobek.IsNull(v):
		return "null"
	}
	if t := v.ExportType(); t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		return "an array"
	}
	if _, ok := v.(*sobek.Object); ok {
		return "an object"
	}
	return v.ExportType().String()
}
