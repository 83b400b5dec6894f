package usefulsse

import (
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/jsonstr"
)

// maxJSONDepth bounds the nesting appendJSON walks; deeper bodies (and
// cyclic ones) take the exported path, which reports a cycle.
const maxJSONDepth = 64

// The types sobek exports plain values as (Value.ExportType).
var (
	typeMap    = reflect.TypeFor[map[string]any]()
	typeSlice  = reflect.TypeFor[[]any]()
	typeInt    = reflect.TypeFor[int64]()
	typeFloat  = reflect.TypeFor[float64]()
	typeString = reflect.TypeFor[string]()
	typeBool   = reflect.TypeFor[bool]()
)

// appendJSON appends v encoded as encoding/json encodes v.Export() (object
// keys sorted, <, > and & escaped) and reports whether it could: plain
// objects, arrays, strings, finite numbers, booleans, null and undefined
// only. A body is encoded once per request; walking it directly spares
// the exported copy of every member and the reflection of json.Marshal.
func appendJSON(b []byte, rt *sobek.Runtime, v sobek.Value, depth int) ([]byte, bool) {
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return append(b, "null"...), true
	}
	switch v.ExportType() {
	case typeString:
		return jsonstr.Append(b, v.String(), true), true
	case typeInt:
		return strconv.AppendInt(b, v.ToInteger(), 10), true
	case typeFloat:
		return appendJSONFloat(b, v.ToFloat())
	case typeBool:
		return strconv.AppendBool(b, v.ToBoolean()), true
	case typeMap:
		if depth >= maxJSONDepth {
			return b, false
		}
		return appendJSONObject(b, rt, v.ToObject(rt), depth+1)
	case typeSlice:
		if depth >= maxJSONDepth {
			return b, false
		}
		return appendJSONArray(b, rt, v.ToObject(rt), depth+1)
	}
	return b, false
}

// appendJSONObject appends an object's own enumerable members, their keys
// sorted.
func appendJSONObject(b []byte, rt *sobek.Runtime, o *sobek.Object, depth int) ([]byte, bool) {
	keys := o.Keys()
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(jsonstr.Append(b, k, true), ':')
		var ok bool
		if b, ok = appendJSON(b, rt, o.Get(k), depth); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendJSONArray appends an array's elements, holes as null.
func appendJSONArray(b []byte, rt *sobek.Runtime, o *sobek.Object, depth int) ([]byte, bool) {
	n := o.Get("length").ToInteger()
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendJSON(b, rt, o.Get(strconv.FormatInt(i, 10)), depth); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// appendJSONFloat appends a finite number in the ES6 form encoding/json
// uses: plain decimals from 1e-6 to below 1e21, exponents outside, without
// a leading zero in the exponent. NaN and the infinities are not JSON.
func appendJSONFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 becomes 1e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}
