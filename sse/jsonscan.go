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

// strPlain marks the bytes a JSON string may hold without a closer look:
// everything but '"', '\\' and control characters.
var strPlain = func() (t [256]bool) {
	for i := range t {
		t[i] = i >= 0x20 && i != '"' && i != '\\'
	}
	return t
}()

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

// jsonCursor reads one JSON document in a single validating pass. Callers
// walk objects and arrays with key and elem, and consume every value exactly
// once: by descending into it, by str/int/raw, or by skip. Any syntax error
// sets bad and moves the cursor to the end, so loops stop by themselves.
type jsonCursor struct {
	s     string
	i     int
	depth int
	bad   bool
}

// fail marks the document invalid and ends the walk.
func (c *jsonCursor) fail() {
	c.bad, c.i = true, len(c.s)
}

// peek skips whitespace and returns the next byte, 0 at the end.
func (c *jsonCursor) peek() byte {
	c.i = skipWS(c.s, c.i)
	if c.i >= len(c.s) {
		return 0
	}
	return c.s[c.i]
}

// end reports whether the document was valid and nothing but whitespace
// follows the consumed value.
func (c *jsonCursor) end() bool {
	return !c.bad && skipWS(c.s, c.i) == len(c.s)
}

// enter consumes an opening bracket; false (and bad) if another byte is next.
func (c *jsonCursor) enter(open byte) bool {
	if c.peek() != open || c.depth >= maxJSONDepth {
		c.fail()
		return false
	}
	c.i++
	c.depth++
	return true
}

// openObject consumes '{'.
func (c *jsonCursor) openObject() bool { return c.enter('{') }

// openArray consumes '['.
func (c *jsonCursor) openArray() bool { return c.enter('[') }

// more consumes the separator before member or element n of a container
// closed by end: it reports false once the container closed (or on error).
func (c *jsonCursor) more(n int, end byte) bool {
	b := c.peek()
	if b == end {
		c.i++
		c.depth--
		return false
	}
	if n > 0 {
		if b != ',' {
			c.fail()
			return false
		}
		c.i++
		if c.peek() == end {
			c.fail()
			return false
		}
	}
	return !c.bad
}

// key returns the raw key of member n (0 first) of the current object and
// consumes the colon after it; ok is false once the object closed.
func (c *jsonCursor) key(n int) (string, bool) {
	if !c.more(n, '}') {
		return "", false
	}
	if c.peek() != '"' {
		c.fail()
		return "", false
	}
	start := c.i + 1
	c.skipString()
	k := c.s[start:max(start, c.i-1)]
	if c.peek() != ':' {
		c.fail()
		return "", false
	}
	c.i++
	return k, true
}

// elem reports whether the current array has element n (0 first).
func (c *jsonCursor) elem(n int) bool { return c.more(n, ']') }

// skip consumes one value of any type.
func (c *jsonCursor) skip() {
	switch b := c.peek(); {
	case b == '"':
		c.skipString()
	case b == '{':
		c.openObject()
		for n := 0; ; n++ {
			if _, ok := c.key(n); !ok {
				return
			}
			c.skip()
		}
	case b == '[':
		c.openArray()
		for n := 0; c.elem(n); n++ {
			c.skip()
		}
	case b == '-' || (b >= '0' && b <= '9'):
		c.skipNumber()
	case b == 't':
		c.literal("true")
	case b == 'f':
		c.literal("false")
	case b == 'n':
		c.literal("null")
	default:
		c.fail()
	}
}

// raw consumes one value and returns its text.
func (c *jsonCursor) raw() string {
	start := skipWS(c.s, c.i)
	c.skip()
	if c.bad {
		return ""
	}
	return c.s[start:c.i]
}

// str consumes one value and returns it decoded when it is a string.
func (c *jsonCursor) str() (string, bool) {
	if c.peek() != '"' {
		c.skip()
		return "", false
	}
	return jsonString(c.raw())
}

// int consumes one value and returns it when it is a number.
func (c *jsonCursor) int() (int64, bool) {
	b := c.peek()
	v := c.raw()
	if b != '-' && (b < '0' || b > '9') {
		return 0, false
	}
	return jsonInt(v)
}

// literal consumes the literal lit.
func (c *jsonCursor) literal(lit string) {
	if !strings.HasPrefix(c.s[c.i:], lit) {
		c.fail()
		return
	}
	c.i += len(lit)
}

// skipString consumes the string whose opening quote is at c.i.
func (c *jsonCursor) skipString() {
	s, i := c.s, c.i+1
	for {
		for i < len(s) && strPlain[s[i]] {
			i++
		}
		if i >= len(s) || s[i] < 0x20 {
			c.fail()
			return
		}
		if s[i] == '"' {
			c.i = i + 1
			return
		}
		n := escapeLen(s, i)
		if n < 0 {
			c.fail()
			return
		}
		i += n
	}
}

// skipNumber consumes the JSON number at c.i.
func (c *jsonCursor) skipNumber() {
	if end := skipNumber(c.s, c.i); end >= 0 {
		c.i = end
		return
	}
	c.fail()
}

// skipValue returns the index just past the JSON value that starts at s[i]
// (leading whitespace allowed), or -1 when the value is not valid JSON.
func skipValue(s string, i, depth int) int {
	c := jsonCursor{s: s, i: i, depth: depth}
	c.skip()
	if c.bad {
		return -1
	}
	return c.i
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
		if hex4(s, i+2) < 0 {
			return -1
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
		j := skipDigits(s, i+1)
		if j == i+1 {
			return -1
		}
		i = j
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
func decodeMap(v string) (map[string]any, bool) {
	it, ok := parseObject(v)
	if !ok {
		return nil, false
	}
	m := make(map[string]any)
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
