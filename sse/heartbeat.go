package sse

import (
	"bytes"
	"io"
	"time"
)

// maxCommentLen caps the comment text kept per comment line, in bytes. Longer
// comments still count as one heartbeat; their text is truncated.
const maxCommentLen = 4096

// bom is the UTF-8 byte order mark a stream may start with.
const bom = "\xEF\xBB\xBF"

// commentReader passes a stream's bytes unchanged to go-sse's parser, which
// drops comment lines, and reports each comment line with its arrival time.
// It only watches line starts (LF, CR and CRLF line ends, a leading BOM, lines
// split across reads); parsing stays go-sse's.
//
// Ordering: go-sse's scanner asks for more bytes only once every complete
// event in the bytes it holds was dispatched. So commentReader ends a read
// just before any comment line that does not start the read, and reports a
// comment while handing out the bytes that end it; events and comments then
// reach the caller in stream order.
//
// Timing: Arrival is the time of the underlying read that returned the bytes
// being handed out (or the stamp an arrivalReader gives them), so an event
// dispatched from them is stamped with the moment its last byte came off the
// network, not with the moment parsing or a previous event's callback
// finished.
type commentReader struct {
	r         io.Reader
	clock     func() time.Duration
	onComment func(text string, at time.Duration) error

	// Arrival is when the bytes last handed out arrived, since the send.
	Arrival time.Duration

	hold    []byte // bytes read but held back for the next Read
	holdOff int
	err     error // sticky: returned once the held bytes are drained

	lineStart bool // the next byte starts a line
	afterCR   bool // the previous line ended in CR: a following LF belongs to it
	bomSeen   int  // BOM bytes matched at stream start; -1 once past it
	inComment bool
	comment   []byte
}

// newCommentReader returns a reader over r that calls onComment for every
// comment line, with clock giving the time since the request was sent.
func newCommentReader(r io.Reader, clock func() time.Duration, onComment func(string, time.Duration) error) *commentReader {
	return &commentReader{r: r, clock: clock, onComment: onComment, lineStart: true}
}

// Read implements io.Reader.
func (c *commentReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if c.holdOff < len(c.hold) {
		return c.readHeld(p)
	}
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	if ar, ok := c.r.(arrivalReader); ok {
		c.Arrival = ar.arrival()
	} else {
		c.Arrival = c.clock()
	}
	if err != nil {
		c.err = err
	}
	if n == 0 {
		return 0, err
	}
	k, cbErr := c.scan(p[:n])
	if k < n {
		c.hold, c.holdOff = append(c.hold[:0], p[k:n]...), 0
	}
	if cbErr != nil {
		c.err = cbErr
		return 0, cbErr
	}
	return k, nil
}

// readHeld hands out bytes held back by an earlier Read.
func (c *commentReader) readHeld(p []byte) (int, error) {
	src := c.hold[c.holdOff:]
	if len(src) > len(p) {
		src = src[:len(p)]
	}
	k, err := c.scan(src)
	if err != nil {
		c.err = err
		return 0, err
	}
	c.holdOff += copy(p, src[:k])
	return k, nil
}

// scan watches b for comment lines and returns how many of its bytes to hand
// out now: all of them, or those before a comment line that does not start b.
func (c *commentReader) scan(b []byte) (int, error) {
	for i := 0; i < len(b); {
		if c.bomSeen >= 0 {
			i = c.skipBOM(b, i)
			continue
		}
		if c.afterCR {
			c.afterCR = false
			if b[i] == '\n' {
				i++
				continue
			}
		}
		if c.lineStart && b[i] == ':' {
			if i > 0 {
				return i, nil
			}
			c.inComment, c.comment = true, c.comment[:0]
			i++
		}
		c.lineStart = false
		var err error
		if i, err = c.toLineEnd(b, i); err != nil {
			return i, err
		}
	}
	return len(b), nil
}

// skipBOM consumes the bytes of a leading BOM at b[i] and returns the next
// index. A line that starts with part of a BOM is not a comment line.
func (c *commentReader) skipBOM(b []byte, i int) int {
	if b[i] == bom[c.bomSeen] {
		c.bomSeen++
		if c.bomSeen == len(bom) {
			c.bomSeen = -1
		}
		return i + 1
	}
	if c.bomSeen > 0 {
		c.lineStart = false
	}
	c.bomSeen = -1
	return i
}

// toLineEnd consumes b from i through the end of the current line (or of b)
// and returns the next index; a comment line that ends here is reported.
func (c *commentReader) toLineEnd(b []byte, i int) (int, error) {
	j := lineEnd(b[i:])
	if j < 0 {
		c.keep(b[i:])
		return len(b), nil
	}
	c.keep(b[i : i+j])
	e := i + j
	c.lineStart, c.afterCR = true, b[e] == '\r'
	if !c.inComment {
		return e + 1, nil
	}
	c.inComment = false
	return e + 1, c.emit()
}

// keep appends comment text, up to maxCommentLen bytes.
func (c *commentReader) keep(b []byte) {
	if c.inComment && len(c.comment) < maxCommentLen {
		c.comment = append(c.comment, b[:min(len(b), maxCommentLen-len(c.comment))]...)
	}
}

// emit reports the comment line that just ended.
func (c *commentReader) emit() error {
	text := c.comment
	if len(text) > 0 && text[0] == ' ' {
		text = text[1:]
	}
	if c.onComment == nil {
		return nil
	}
	return c.onComment(string(text), c.Arrival)
}

// lineEnd returns the index of the first CR or LF in b, or -1.
func lineEnd(b []byte) int {
	n := bytes.IndexByte(b, '\n')
	head := b
	if n >= 0 {
		head = b[:n]
	}
	if r := bytes.IndexByte(head, '\r'); r >= 0 {
		return r
	}
	return n
}
