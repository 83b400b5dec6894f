package sse

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxErrorLen caps the length of error messages taken from a stream, in bytes.
const maxErrorLen = 512

// Usage fields an event reported, as bits of Event.usageSet.
const (
	usageInput uint8 = 1 << iota
	usageOutput
	usageReasoning
)

// classifier reads one event's data in one dialect: it fills the event's
// Kind, Text, Reasoning, State, Tools, Error and usage delta, without
// touching the stream's accumulated content.
type classifier func(ev *Event)

// classifierFor returns the classifier of a resolved dialect.
func classifierFor(d Dialect) classifier {
	switch d {
	case DialectOpenAI:
		return classifyOpenAI
	case DialectAnthropic:
		return classifyAnthropic
	case DialectRaw:
		return classifyRaw
	}
	return classifyBusiness
}

// Classifier classifies the events of one stream. In auto mode it detects
// the dialect from the first events (see detectDialect) and keeps it.
type Classifier struct {
	dialect Dialect
	fn      classifier
}

// NewClassifier returns a classifier for dialect d ("" is auto).
func NewClassifier(d Dialect) *Classifier {
	if d == "" {
		d = DialectAuto
	}
	c := &Classifier{dialect: d}
	if d != DialectAuto {
		c.fn = classifierFor(d)
	}
	return c
}

// Dialect returns the stream's dialect: the one given, the detected one, or
// auto while detection has not decided.
func (c *Classifier) Dialect() Dialect { return c.dialect }

// Classify sets ev.Kind and the content fields of ev from ev.Type and ev.Data.
// Events of type ping, heartbeat or keepalive are heartbeats and events of
// type error are stream errors in every dialect.
func (c *Classifier) Classify(ev *Event) {
	switch {
	case isHeartbeatType(ev.Type):
		ev.Kind = Heartbeat
		return
	case ev.Type == "error":
		ev.Kind, ev.Error = Error, errorMessage(ev.Data)
		return
	}
	if c.fn == nil {
		if d := detectDialect(ev.Type, ev.Data); d != "" {
			c.dialect, c.fn = d, classifierFor(d)
		}
	}
	if c.fn == nil {
		classifyBusiness(ev)
		return
	}
	c.fn(ev)
}

// kindOf returns the kind of a parsed event from the content it carries, by
// precedence: error, text, tool, reasoning, state, empty.
func kindOf(ev *Event) Kind {
	switch {
	case ev.Error != "":
		return Error
	case hasVisible(ev.Text):
		return Text
	case len(ev.Tools) > 0:
		return Tool
	case hasVisible(ev.Reasoning):
		return Reasoning
	case ev.State != nil || ev.usageSet != 0:
		return State
	}
	return Empty
}

// invalid marks ev as unparseable and drops any content read from it.
func invalid(ev *Event, why string) {
	ev.Kind, ev.Error = Invalid, why
	ev.Text, ev.Reasoning, ev.State, ev.Tools, ev.usageSet = "", "", nil, ev.Tools[:0], 0
}

// hasVisible reports whether s holds a character other than white space.
func hasVisible(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f' {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			return true
		}
		i += n
	}
	return false
}

// errorMessage extracts a one-line message from a stream error's data:
// error.message (prefixed by error.type), a string error, a message member,
// or the data itself.
func errorMessage(data string) string {
	msg := strings.TrimSpace(data)
	if raw, ok := lookupPath(data, []string{"error"}); ok {
		msg = errorValue(raw)
	} else if raw, ok := lookupPath(data, []string{"message"}); ok {
		msg, _ = jsonString(raw)
	}
	if msg == "" {
		msg = "stream error"
	}
	return clip(strings.Join(strings.Fields(msg), " "), maxErrorLen)
}

// errorValue renders the value of an "error" member.
func errorValue(raw string) string {
	if s, ok := jsonString(raw); ok {
		return s
	}
	m, _ := lookupPath(raw, []string{"message"})
	msg, _ := jsonString(m)
	t, _ := lookupPath(raw, []string{"type"})
	typ, _ := jsonString(t)
	switch {
	case msg != "" && typ != "":
		return typ + ": " + msg
	case msg != "":
		return msg
	case typ != "":
		return typ
	}
	return raw
}

// clip shortens s to at most n bytes without splitting a UTF-8 sequence.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
