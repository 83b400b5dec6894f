package sse

import "strings"

// This file holds a small validating JSON scanner that works on the string
// go-sse hands out, so that the hot path (one OpenAI chunk per event) reads
// the few members it needs in one pass, without decoding the document into
// maps and without allocating.

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

// member moves to member n of the current object (0 first) and sets *key;
// false once the object closed (or on error). Loop with
// for n, k := 0, ""; c.member(n, &k); n++.
func (c *jsonCursor) member(n int, key *string) bool {
	k, ok := c.key(n)
	*key = k
	return ok
}

// skip consumes one value of any type.
func (c *jsonCursor) skip() {
	switch b := c.peek(); {
	case b == '"':
		c.skipString()
	case b == '{':
		c.openObject()
		for n, k := 0, ""; c.member(n, &k); n++ {
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
