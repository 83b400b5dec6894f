package sse

import (
	"strconv"
	"unicode/utf8"
)

// JSONTracker follows visible text that streams a JSON object and records
// the dot paths of members whose values are complete ("decision",
// "refund.amount", "items.0"): a string once its closing quote arrived, a
// number or literal once a delimiter followed it, an object or array once it
// closed. It is incremental: each Write tokenizes only the new text, so the
// cost over a whole stream is linear in the text's length.
//
// Text before the first '{' (e.g. a Markdown fence) is skipped; after the
// object closes, the tracker looks for the next one. On invalid JSON it drops
// the object in progress and looks for the next '{'; paths recorded so far
// stay recorded.
type JSONTracker struct {
	wanted map[string]bool // nil: record every path
	done   map[string]bool

	stack []jsonFrame
	path  []byte // dot path of the value being read
	key   []byte // object key being read

	mode   jsonMode
	esc    int // 0: none; 1: after '\'; 2–5: reading \u hex digits
	hexRun rune
}

// jsonFrame is one open container of the tracked document.
type jsonFrame struct {
	obj    bool
	base   int // len(path) for the container itself
	index  int // next array index
	expect jsonExpect
}

// jsonMode is the tracker's lexical state.
type jsonMode uint8

const (
	modeSeek   jsonMode = iota // outside any object
	modeTokens                 // between tokens inside a container
	modeKey                    // inside an object key string
	modeString                 // inside a string value
	modeScalar                 // inside a number or literal
)

// jsonExpect is what a container expects next.
type jsonExpect uint8

const (
	expectFirst jsonExpect = iota // a key (object) or value (array), or the end
	expectKey
	expectColon
	expectValue
	expectCommaOrEnd
)

// NewJSONTracker returns a tracker that records the given dot paths, or
// every path when paths is empty.
func NewJSONTracker(paths []string) *JSONTracker {
	t := &JSONTracker{done: map[string]bool{}}
	if len(paths) > 0 {
		t.wanted = make(map[string]bool, len(paths))
		for _, p := range paths {
			t.wanted[p] = true
		}
	}
	return t
}

// Complete reports whether the value at the dot path is complete.
func (t *JSONTracker) Complete(path string) bool { return t.done[path] }

// Paths returns the number of recorded paths.
func (t *JSONTracker) Paths() int { return len(t.done) }

// Write feeds the next piece of visible text.
func (t *JSONTracker) Write(s string) {
	for i := 0; i < len(s); i++ {
		t.step(s[i])
	}
}

// step consumes one byte.
func (t *JSONTracker) step(c byte) {
	switch t.mode {
	case modeSeek:
		if c == '{' {
			t.open(true)
		}
	case modeKey, modeString:
		t.stringByte(c)
	case modeScalar:
		if isScalarByte(c) {
			return
		}
		t.valueDone()
		t.step(c)
	case modeTokens:
		t.token(c)
	}
}

// isScalarByte reports whether c can continue a number or literal.
func isScalarByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '+' || c == '-'
}

// token consumes a structural byte between tokens.
func (t *JSONTracker) token(c byte) {
	if jsonWS(c) {
		return
	}
	f := &t.stack[len(t.stack)-1]
	switch {
	case c == '}' && f.obj && (f.expect == expectFirst || f.expect == expectCommaOrEnd),
		c == ']' && !f.obj && (f.expect == expectFirst || f.expect == expectCommaOrEnd):
		t.close()
	case c == ',' && f.expect == expectCommaOrEnd:
		f.expect = expectKey
		if !f.obj {
			f.expect = expectValue
		}
	case c == ':' && f.expect == expectColon:
		f.expect = expectValue
	case c == '"' && f.obj && (f.expect == expectFirst || f.expect == expectKey):
		t.mode, t.key = modeKey, t.key[:0]
	case f.expect == expectValue || (!f.obj && f.expect == expectFirst):
		t.value(c, f)
	default:
		t.reset()
	}
}

// value starts a value in the current container.
func (t *JSONTracker) value(c byte, f *jsonFrame) {
	if !f.obj {
		var digits [20]byte
		t.path = appendSegment(t.path[:f.base], strconv.AppendInt(digits[:0], int64(f.index), 10))
		f.index++
	}
	f.expect = expectCommaOrEnd
	switch {
	case c == '{' || c == '[':
		t.open(c == '{')
	case c == '"':
		t.mode = modeString
	case c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
		t.mode = modeScalar
	default:
		t.reset()
	}
}

// appendSegment appends ".seg" (or "seg" at the root) to path.
func appendSegment(path, seg []byte) []byte {
	if len(path) > 0 {
		path = append(path, '.')
	}
	return append(path, seg...)
}

// open pushes a container whose own path is the current path.
func (t *JSONTracker) open(obj bool) {
	if len(t.stack) >= maxJSONDepth {
		t.reset()
		return
	}
	t.stack = append(t.stack, jsonFrame{obj: obj, base: len(t.path)})
	t.mode = modeTokens
}

// close pops the current container, completing it as a value of its parent.
func (t *JSONTracker) close() {
	f := t.stack[len(t.stack)-1]
	t.stack = t.stack[:len(t.stack)-1]
	t.path = t.path[:f.base]
	if len(t.stack) == 0 {
		t.mode = modeSeek
		return
	}
	t.valueDone()
}

// valueDone records the current path as complete and resumes tokens.
func (t *JSONTracker) valueDone() {
	t.mode = modeTokens
	if len(t.path) == 0 {
		return
	}
	if t.wanted != nil && !t.wanted[string(t.path)] {
		return
	}
	if !t.done[string(t.path)] {
		t.done[string(t.path)] = true
	}
}

// stringByte consumes one byte of a key or string value.
func (t *JSONTracker) stringByte(c byte) {
	switch {
	case t.esc == 1:
		t.escape(c)
	case t.esc >= 2:
		t.hexDigit(c)
	case c == '\\':
		t.esc = 1
	case c == '"':
		t.endString()
	case c < 0x20:
		t.reset()
	case t.mode == modeKey:
		t.key = append(t.key, c)
	}
}

// escape consumes the byte after a backslash.
func (t *JSONTracker) escape(c byte) {
	t.esc = 0
	var b byte
	switch c {
	case '"', '\\', '/':
		b = c
	case 'b':
		b = '\b'
	case 'f':
		b = '\f'
	case 'n':
		b = '\n'
	case 'r':
		b = '\r'
	case 't':
		b = '\t'
	case 'u':
		t.esc, t.hexRun = 2, 0
		return
	default:
		t.reset()
		return
	}
	if t.mode == modeKey {
		t.key = append(t.key, b)
	}
}

// hexDigit consumes one digit of a \u escape.
func (t *JSONTracker) hexDigit(c byte) {
	h := hexVal(c)
	if h < 0 {
		t.reset()
		return
	}
	t.hexRun = t.hexRun<<4 | rune(h)
	if t.esc++; t.esc < 6 {
		return
	}
	t.esc = 0
	if t.mode == modeKey {
		t.key = utf8.AppendRune(t.key, t.hexRun)
	}
}

// endString ends a key (the member's path becomes current) or a string value.
func (t *JSONTracker) endString() {
	if t.mode == modeString {
		t.valueDone()
		return
	}
	f := &t.stack[len(t.stack)-1]
	t.path = appendSegment(t.path[:f.base], t.key)
	f.expect = expectColon
	t.mode = modeTokens
}

// reset drops the document in progress after invalid input.
func (t *JSONTracker) reset() {
	t.stack, t.path, t.key = t.stack[:0], t.path[:0], t.key[:0]
	t.mode, t.esc = modeSeek, 0
}
