package sse

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds a small validating JSON scanner that works on the string
// go-sse hands out, so that the hot path (one OpenAI chunk per event) can pick
// the few members it needs without decoding the document into maps. Values are
// returned as raw substrings; strings are unescaped only when they contain a
// backslash.

// maxJSONDepth is the deepest nesting of arrays and objects the scanner accepts.
// Deeper documents are reported as invalid rather than risking deep recursion.
const maxJSONDepth = 512

// jsonWS reports whether c is JSON insignificant whitespace.
func jsonWS(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// skipWS returns the index of the first non-whitespace byte of s at or after i.
func skipWS(s string, i int) int {
	for i < len(s) && jsonWS(s[i]) {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value that starts at s[i]
// (leading whitespace allowed), or -1 when the value is not valid JSON.
func skipValue(s string, i, depth int) int {
	i = skipWS(s, i)
	if i >= len(s) {
		return -1
	}
	switch c := s[i]; {
	case c == '"':
		return skipString(s, i)
	case c == '{':
		return skipObject(s, i, depth+1)
	case c == '[':
		return skipArray(s, i, depth+1)
	case c == '-' || (c >= '0' && c <= '9'):
		return skipNumber(s, i)
	case c == 't':
		return skipLiteral(s, i, "true")
	case c == 'f':
		return skipLiteral(s, i, "false")
	case c == 'n':
		return skipLiteral(s, i, "null")
	}
	return -1
}

// skipLiteral returns the index past lit at s[i], or -1.
func skipLiteral(s string, i int, lit string) int {
	if strings.HasPrefix(s[i:], lit) {
		return i + len(lit)
	}
	return -1
}

// skipString returns the index past the string whose opening quote is s[i],
// or -1 when it is unterminated, holds a raw control character or a bad escape.
func skipString(s string, i int) int {
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			n := escapeLen(s, i)
			if n < 0 {
				return -1
			}
			i += n - 1
		}
	}
	return -1
}

// escapeLen returns the length of the escape sequence at s[i] (a backslash),
// or -1 when it is not a valid JSON escape.
func escapeLen(s string, i int) int {
	if i+1 >= len(s) {
		return -1
	}
	switch s[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if i+6 > len(s) {
			return -1
		}
		for _, c := range []byte(s[i+2 : i+6]) {
			if hexVal(c) < 0 {
				return -1
			}
		}
		return 6
	}
	return -1
}

// hexVal returns the value of the hex digit c, or -1.
func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// skipNumber returns the index past the JSON number at s[i], or -1.
func skipNumber(s string, i int) int {
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		if j := skipDigits(s, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// skipDigits returns the index of the first non-digit at or after i.
func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// skipObject returns the index past the object whose '{' is s[i], or -1.
func skipObject(s string, i, depth int) int {
	if depth > maxJSONDepth {
		return -1
	}
	it := jsonObject{s: s, i: i + 1, depth: depth, first: true}
	for {
		if _, _, ok := it.next(); !ok {
			break
		}
	}
	if it.bad {
		return -1
	}
	return it.i
}

// skipArray returns the index past the array whose '[' is s[i], or -1.
func skipArray(s string, i, depth int) int {
	if depth > maxJSONDepth {
		return -1
	}
	it := jsonArray{s: s, i: i + 1, depth: depth, first: true}
	for {
		if _, ok := it.next(); !ok {
			break
		}
	}
	if it.bad {
		return -1
	}
	return it.i
}

// jsonObject iterates over the members of a JSON object, validating as it goes.
type jsonObject struct {
	s     string
	i     int // next byte to read; past the closing brace once done
	depth int
	first bool
	done  bool
	bad   bool
}

// parseObject starts iterating the object that must be the whole of s
// (surrounding whitespace allowed). ok is false when s does not start with '{'.
func parseObject(s string) (it jsonObject, ok bool) {
	i := skipWS(s, 0)
	if i >= len(s) || s[i] != '{' {
		return jsonObject{}, false
	}
	return jsonObject{s: s, i: i + 1, depth: 1, first: true}, true
}

// next returns the next member: its raw key (without quotes, escapes kept)
// and its raw value. ok is false at the end of the object or on invalid input
// (then bad is set).
func (it *jsonObject) next() (key, val string, ok bool) {
	if it.done {
		return "", "", false
	}
	s, i := it.s, skipWS(it.s, it.i)
	if i < len(s) && s[i] == '}' && it.first {
		it.i, it.done = i+1, true
		return "", "", false
	}
	if !it.first {
		if i < len(s) && s[i] == '}' {
			it.i, it.done = i+1, true
			return "", "", false
		}
		if i >= len(s) || s[i] != ',' {
			return it.fail()
		}
		i = skipWS(s, i+1)
	}
	it.first = false
	if i >= len(s) || s[i] != '"' {
		return it.fail()
	}
	ke := skipString(s, i)
	if ke < 0 {
		return it.fail()
	}
	key = s[i+1 : ke-1]
	i = skipWS(s, ke)
	if i >= len(s) || s[i] != ':' {
		return it.fail()
	}
	vs := skipWS(s, i+1)
	ve := skipValue(s, vs, it.depth)
	if ve < 0 {
		return it.fail()
	}
	it.i = ve
	return key, s[vs:ve], true
}

// fail marks the iteration as ended on invalid input.
func (it *jsonObject) fail() (string, string, bool) {
	it.done, it.bad = true, true
	return "", "", false
}

// valid reports whether the object ended well and nothing but whitespace
// follows it. Call it after next returned false.
func (it *jsonObject) valid() bool {
	return !it.bad && it.done && skipWS(it.s, it.i) == len(it.s)
}

// jsonArray iterates over the elements of a JSON array, validating as it goes.
type jsonArray struct {
	s     string
	i     int
	depth int
	first bool
	done  bool
	bad   bool
}

// parseArray starts iterating the array that is the raw value s.
func parseArray(s string) (it jsonArray, ok bool) {
	i := skipWS(s, 0)
	if i >= len(s) || s[i] != '[' {
		return jsonArray{}, false
	}
	return jsonArray{s: s, i: i + 1, depth: 1, first: true}, true
}

// next returns the next raw element; ok is false at the end or on invalid input.
func (it *jsonArray) next() (val string, ok bool) {
	if it.done {
		return "", false
	}
	s, i := it.s, skipWS(it.s, it.i)
	if i < len(s) && s[i] == ']' {
		it.i, it.done = i+1, true
		return "", false
	}
	if !it.first {
		if i >= len(s) || s[i] != ',' {
			it.done, it.bad = true, true
			return "", false
		}
		i = skipWS(s, i+1)
		if i < len(s) && s[i] == ']' {
			it.done, it.bad = true, true
			return "", false
		}
	}
	it.first = false
	ve := skipValue(s, i, it.depth)
	if ve < 0 {
		it.done, it.bad = true, true
		return "", false
	}
	it.i = ve
	return s[i:ve], true
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
func decodeMap(v string) (map[string]any, bool) {
	it, ok := parseObject(v)
	if !ok {
		return nil, false
	}
	m := make(map[string]any)
	for k, raw, ok := it.next(); ok; k, raw, ok = it.next() {
		m[jsonKey(k)], _ = decodeAny(raw)
	}
	return m, !it.bad
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
	return out, !it.bad
}
