package sse

import (
	"bytes"
	"time"

	gosse "github.com/tmaxmax/go-sse"
)

// maxFieldName is the longest field name of the event-stream format
// ("event", "retry"): a line whose colon comes later names no field.
const maxFieldName = 5

// eventParser parses an event stream handed to it piece by piece as its
// bytes arrive, instead of reading it: the reactor pushes each read, and
// no goroutine waits for the next. It gives the stream what the pull path
// gives it (go-sse's Read under a commentReader, reader.go), in the same
// order and with the same stamps: each event when the blank line ending it
// arrives, each comment line when its line end arrives, stamped with that
// read's arrival.
//
// It follows go-sse's reading where it departs from the letter of the
// format: an event is dispatched only if a data, event or id field was
// set; retry is ignored; an id holding NUL is ignored; an event cut off by
// the end of the stream is not dispatched; a byte order mark is dropped
// from the first line that is not blank. An event (its blank lines before
// it and every line up to the blank line ending it) above max bytes fails
// the stream, as go-sse's scanner does.
type eventParser struct {
	s   eventHandler
	max int

	line    []byte // the start of a line split between reads
	afterCR bool   // the last line ended in CR: an LF next belongs to it
	lines   int    // lines read
	begun   bool   // a line that was not blank was read (byte order mark)

	// The event being read: go-sse's token and its fields.
	pending   int  // bytes since the last event ended
	justEnded bool // the last line ended an event
	inEvent   bool // a line other than a blank one was read since
	data      []byte
	typ       string
	lastTyp   string // the last type seen: the next is usually the same
	lastID    string
	dirty     bool
}

// eventHandler is what an eventParser feeds: a stream.
type eventHandler interface {
	// onEvent handles a dispatched event that arrived at at.
	onEvent(e gosse.Event, at time.Duration) error
	// onComment handles a comment line that arrived at at.
	onComment(text string, at time.Duration) error
	// ended reports whether a terminal event ended the stream.
	ended() bool
}

// feed parses b, which arrived at at, and returns how many of its bytes
// belong to the stream: fewer than len(b) once a terminal event ended it
// (what follows is for the caller to drain). The error is the stream's
// failure: an event above max bytes, an error event, or a callback's.
func (p *eventParser) feed(b []byte, at time.Duration) (int, error) {
	for i := 0; i < len(b); {
		if p.afterCR {
			p.afterCR = false
			if b[i] == '\n' {
				// The LF of a CRLF that ended an event belongs to it,
				// unless it came in a later read (go-sse's scanner).
				if !p.justEnded || i == 0 {
					p.pending++
				}
				i++
				continue
			}
		}
		p.justEnded = false
		j := lineEnd(b[i:])
		if j < 0 {
			p.pending += len(b) - i
			p.line = append(p.line, b[i:]...)
			break
		}
		if p.pending+j >= p.max {
			return i + j, &tooLargeError{max: p.max}
		}
		p.pending += j + 1
		line := b[i : i+j]
		if len(p.line) > 0 {
			line = append(p.line, line...)
			p.line = line[:0]
		}
		p.afterCR = b[i+j] == '\r'
		i += j + 1
		if err := p.onLine(line, at); err != nil {
			return i, err
		}
		if p.s.ended() {
			return i, nil
		}
	}
	if p.pending >= p.max {
		// A full scanner buffer without a whole event in it.
		return len(b), &tooLargeError{max: p.max}
	}
	return len(b), nil
}

// onLine handles one complete line, its end left out.
func (p *eventParser) onLine(line []byte, at time.Duration) error {
	p.lines++
	if len(line) == 0 {
		return p.onBlank(at)
	}
	field := line
	if !p.begun {
		// go-sse drops a byte order mark from the start of its first
		// token, which blank lines may precede; the comment reader only
		// from the start of the stream.
		p.begun = true
		field = bytes.TrimPrefix(line, []byte(bom))
		if p.lines == 1 {
			line = field
		}
	}
	if len(line) > 0 && line[0] == ':' {
		return p.onComment(line[1:], at)
	}
	p.inEvent = true // a line of a mark alone too: it begins go-sse's token
	p.field(field)
	return nil
}

// onBlank handles a blank line: it ends the event being read, if any.
func (p *eventParser) onBlank(at time.Duration) error {
	if !p.inEvent {
		return nil // blank lines before an event are part of it
	}
	p.inEvent, p.pending, p.justEnded = false, 0, true
	if !p.dirty {
		return nil
	}
	data := ""
	if len(p.data) > 0 {
		data = string(p.data[:len(p.data)-1])
	}
	e := gosse.Event{Type: p.typ, LastEventID: p.lastID, Data: data}
	p.data, p.typ, p.dirty = p.data[:0], "", false
	return p.s.onEvent(e, at)
}

// onComment reports a comment line, its text after the colon, less one
// leading space and cut at maxCommentLen bytes.
func (p *eventParser) onComment(text []byte, at time.Duration) error {
	p.inEvent = true // it is part of the event that follows (go-sse's token)
	text = bytes.TrimPrefix(text, []byte(" "))
	text = text[:min(len(text), maxCommentLen)]
	return p.s.onComment(string(text), at)
}

// field applies one field line to the event being read.
func (p *eventParser) field(line []byte) {
	name, value := line, []byte(nil)
	if c := bytes.IndexByte(line, ':'); c >= 0 {
		if c > maxFieldName {
			return
		}
		name, value = line[:c], bytes.TrimPrefix(line[c+1:], []byte(" "))
	}
	switch string(name) {
	case "data":
		p.data = append(append(p.data, value...), '\n')
		p.dirty = true
	case "event":
		if string(value) != p.lastTyp {
			p.lastTyp = string(value)
		}
		p.typ, p.dirty = p.lastTyp, true
	case "id":
		if bytes.IndexByte(value, 0) >= 0 {
			return
		}
		if string(value) != p.lastID {
			p.lastID = string(value)
		}
		p.dirty = true
	}
}
