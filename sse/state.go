package sse

import (
	"math"
	"strings"
)

// mergeState deep-merges the delta into dst: objects merge member by member,
// any other value (arrays included) replaces the old one, and null is kept as
// a null value. Maps taken from delta are copied, so later merges never
// mutate a delta an event carried.
func mergeState(dst, delta map[string]any) {
	for k, v := range delta {
		dm, dIsMap := dst[k].(map[string]any)
		vm, vIsMap := v.(map[string]any)
		switch {
		case dIsMap && vIsMap:
			mergeState(dm, vm)
		case vIsMap:
			dst[k] = copyMap(vm)
		default:
			dst[k] = v
		}
	}
}

// copyMap returns a deep copy of the nested maps of m (other values shared).
func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if vm, ok := v.(map[string]any); ok {
			v = copyMap(vm)
		}
		out[k] = v
	}
	return out
}

// splitPath splits a dot path ("refund.amount") into its segments.
func splitPath(p string) []string { return strings.Split(p, ".") }

// lookupState returns the value at the path in the state; arrays are
// indexed by decimal segments ("items.0.sku").
func lookupState(state map[string]any, path []string) (any, bool) {
	var cur any = state
	for _, seg := range path {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, ok := atoi(seg)
			if !ok || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// atoi parses a non-negative decimal index without allocating.
func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// present reports whether a state value counts as present for the fields
// predicate: it exists and is neither null nor an empty string.
func present(v any, ok bool) bool {
	if !ok || v == nil {
		return false
	}
	s, isStr := v.(string)
	return !isStr || s != ""
}

// equalValues compares JSON-like values, treating every numeric type as
// float64 so that a script's 1 (int64) equals a stream's 1 (float64).
func equalValues(a, b any) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && (fa == fb || (math.IsNaN(fa) && math.IsNaN(fb)))
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		return ok && equalMaps(av, bv)
	case []any:
		bv, ok := b.([]any)
		return ok && equalSlices(av, bv)
	case string, bool, nil:
		return a == b
	}
	return false
}

// equalMaps compares two JSON objects.
func equalMaps(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !equalValues(v, w) {
			return false
		}
	}
	return true
}

// equalSlices compares two JSON arrays.
func equalSlices(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equalValues(a[i], b[i]) {
			return false
		}
	}
	return true
}

// number converts Go numeric types to float64.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case uint32:
		return float64(n), true
	}
	return 0, false
}
