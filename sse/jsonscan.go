package sse

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds the convenience layer over jsonCursor: iterators returning
// raw member values, string and number decoding (strings are unescaped only
// when they contain a backslash), dot-path lookups and decoding into the Go
// values scripts see.

// jsonObject iterates over the members of a JSON object, returning raw
// values, for the paths that are not hot.
type jsonObject struct {
	c    jsonCursor
	n    int
	done bool
}

// parseObject starts iterating the object that must be the whole of s
// (surrounding whitespace allowed). ok is false when s does not start with '{'.
func parseObject(s string) (it jsonObject, ok bool) {
	it.c = jsonCursor{s: s}
	if it.c.peek() != '{' {
		return jsonObject{}, false
	}
	it.c.openObject()
	return it, true
}

// next returns the next member: its raw key (without quotes, escapes kept)
// and its raw value. ok is false at the end of the object or on invalid input.
func (it *jsonObject) next() (key, val string, ok bool) {
	if it.done {
		return "", "", false
	}
	key, ok = it.c.key(it.n)
	if !ok {
		it.done = true
		return "", "", false
	}
	it.n++
	val = it.c.raw()
	if it.c.bad {
		it.done = true
		return "", "", false
	}
	return key, val, true
}

// valid reports whether the object ended well and nothing but whitespace
// follows it. Call it after next returned false.
func (it *jsonObject) valid() bool { return it.done && it.c.end() }

// jsonArray iterates over the elements of a JSON array as raw values.
type jsonArray struct {
	c    jsonCursor
	n    int
	done bool
}

// parseArray starts iterating the array that is the raw value s.
func parseArray(s string) (it jsonArray, ok bool) {
	it.c = jsonCursor{s: s}
	if it.c.peek() != '[' {
		return jsonArray{}, false
	}
	it.c.openArray()
	return it, true
}

// next returns the next raw element; ok is false at the end or on invalid input.
func (it *jsonArray) next() (val string, ok bool) {
	if it.done || !it.c.elem(it.n) {
		it.done = true
		return "", false
	}
	it.n++
	val = it.c.raw()
	if it.c.bad {
		it.done = true
		return "", false
	}
	return val, true
}

// jsonString decodes the raw JSON string value v (with quotes). It allocates
// only when v contains escapes. ok is false when v is not a string.
func jsonString(v string) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body, true
	}
	return unescape(body), true
}

// unescape decodes the JSON escapes of a validated string body.
func unescape(body string) string {
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b.WriteByte(c)
			continue
		}
		i++
		switch body[i] {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, n := decodeU(body, i-1)
			b.WriteRune(r)
			i += n - 2
		default:
			b.WriteByte(body[i])
		}
	}
	return b.String()
}

// decodeU decodes the \uXXXX escape at s[i] (the backslash), combining a
// following low surrogate escape. It returns the rune and the bytes consumed.
func decodeU(s string, i int) (rune, int) {
	r := hex4(s, i+2)
	if r < 0 {
		return utf8.RuneError, 2
	}
	if utf16.IsSurrogate(rune(r)) {
		if i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
			if lo := hex4(s, i+8); lo >= 0 {
				if d := utf16.DecodeRune(rune(r), rune(lo)); d != utf8.RuneError {
					return d, 12
				}
			}
		}
		return utf8.RuneError, 6
	}
	return rune(r), 6
}

// hex4 parses four hex digits at s[i], or returns -1.
func hex4(s string, i int) int {
	if i+4 > len(s) {
		return -1
	}
	v := 0
	for _, c := range []byte(s[i : i+4]) {
		h := hexVal(c)
		if h < 0 {
			return -1
		}
		v = v<<4 | h
	}
	return v
}

// jsonKey decodes a raw object key as returned by jsonObject.next.
func jsonKey(k string) string {
	if strings.IndexByte(k, '\\') < 0 {
		return k
	}
	return unescape(k)
}

// validJSON reports whether s is exactly one JSON value (whitespace allowed).
func validJSON(s string) bool {
	end := skipValue(s, 0, 0)
	return end >= 0 && skipWS(s, end) == len(s)
}

// jsonInt returns the raw JSON number v as an int64 (fractions truncated).
func jsonInt(v string) (int64, bool) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, false
	}
	return int64(f), true
}

// jsonFloat returns the raw JSON number (or numeric string) v as a float64.
func jsonFloat(v string) (float64, bool) {
	if s, ok := jsonString(v); ok {
		v = strings.TrimSpace(s)
	}
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil
}

// isNull reports whether the raw value v is JSON null.
func isNull(v string) bool { return v == "null" }

// lookupPath returns the raw value at the dot path in the object raw, or
// false when a segment is missing or a non-object is traversed.
func lookupPath(raw string, path []string) (string, bool) {
	for _, seg := range path {
		it, ok := parseObject(raw)
		if !ok {
			return "", false
		}
		found := false
		for k, v, ok := it.next(); ok; k, v, ok = it.next() {
			if k == seg {
				raw, found = v, true
				break
			}
		}
		if !found {
			return "", false
		}
	}
	return raw, true
}

// decodeAny decodes the raw JSON value v into the Go values sobek and
// encoding/json use: map[string]any, []any, string, float64, bool or nil.
func decodeAny(v string) (any, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, false
	}
	switch v[0] {
	case '{':
		return decodeMap(v)
	case '[':
		return decodeSlice(v)
	case '"':
		return jsonString(v)
	case 't':
		return true, true
	case 'f':
		return false, true
	case 'n':
		return nil, true
	}
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil
}

// decodeMap decodes the raw JSON object v.
func decodeMap(v string) (map[string]any, bool) { return decodeMapInto(nil, v) }

// decodeMapInto decodes the raw JSON object v into m (a new map when nil)
// and returns m.
func decodeMapInto(m map[string]any, v string) (map[string]any, bool) {
	it, ok := parseObject(v)
	if !ok {
		return nil, false
	}
	if m == nil {
		m = make(map[string]any)
	}
	for k, raw, ok := it.next(); ok; k, raw, ok = it.next() {
		m[jsonKey(k)], _ = decodeAny(raw)
	}
	return m, !it.c.bad
}

// decodeSlice decodes the raw JSON array v.
func decodeSlice(v string) ([]any, bool) {
	it, ok := parseArray(v)
	if !ok {
		return nil, false
	}
	out := []any{}
	for raw, ok := it.next(); ok; raw, ok = it.next() {
		x, _ := decodeAny(raw)
		out = append(out, x)
	}
	return out, !it.c.bad
}
