// Package logline formats the runner's log lines as k6 does: a short level
// prefix on a terminal, logfmt when the log is not a terminal, JSON or the
// bare message when asked for with --log-format.
//
// The rest of the program writes each log line in the terminal form,
// "LEVL message", where LEVL is INFO, WARN, ERRO or DEBU, optionally
// followed by "[nnnn]" (seconds since start) and by "  key=value" fields.
// A Writer parses that form back into level, message and fields, and
// prints the line in its format; lines of any other form (the banner, the
// progress) pass through unchanged, so one Writer can stand for stderr.
// A log line written together with the lines after it (an error and its
// JavaScript stack, in one write) is one record: the following lines that
// are no log lines belong to its message, their newlines escaped.
package logline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Format is how a Writer prints log lines.
type Format int

// The formats of --log-format.
const (
	// Text keeps the terminal form: "WARN message".
	Text Format = iota
	// Logfmt prints `time="…" level=warning msg="…"`, k6's form when the
	// log is not a terminal.
	Logfmt
	// JSON prints one object per line: {"level":…,"msg":…,"time":…}.
	JSON
	// Raw prints the message alone.
	Raw
)

// ParseFormat reads a --log-format value. The empty string means Text on a
// terminal and Logfmt elsewhere; tty says which.
func ParseFormat(s string, tty bool) (Format, error) {
	switch s {
	case "":
		if tty {
			return Text, nil
		}
		return Logfmt, nil
	case "text":
		return Text, nil
	case "logfmt":
		return Logfmt, nil
	case "json":
		return JSON, nil
	case "raw":
		return Raw, nil
	}
	return Text, fmt.Errorf("--log-format %q: want json, raw, logfmt or text", s)
}

// levels maps the terminal prefixes to logrus' level names, which k6's
// logfmt and JSON lines carry.
var levels = map[string]string{
	"DEBU": "debug", "INFO": "info", "WARN": "warning", "ERRO": "error",
}

// Writer is an io.Writer that reformats every complete line written to it.
// It is safe for concurrent use; a line written in several calls is
// printed when its newline arrives.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	format  Format
	now     func() time.Time
	partial []byte
}

// NewWriter returns a Writer printing to w in format f.
func NewWriter(w io.Writer, f Format) *Writer {
	return &Writer{w: w, format: f, now: time.Now}
}

// Wrap returns w itself when f is Text (nothing to reformat) and a Writer
// otherwise.
func Wrap(w io.Writer, f Format) io.Writer {
	if f == Text {
		return w
	}
	return NewWriter(w, f)
}

// Write prints the complete lines of p and keeps a trailing partial line
// for the next call.
func (lw *Writer) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	data := p
	if len(lw.partial) > 0 {
		data = append(lw.partial, p...)
		lw.partial = nil
	}
	var out []byte
	var rec *Line // the record the lines of this write continue
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		line := data[:i]
		data = data[i+1:]
		if lw.format == Text {
			out = append(append(out, line...), '\n')
			continue
		}
		l, ok := Parse(string(line))
		switch {
		case ok:
			out = lw.appendRecord(out, rec)
			rec = &l
		case rec != nil:
			rec.Msg += "\n" + string(line)
		default:
			out = append(append(out, line...), '\n')
		}
	}
	out = lw.appendRecord(out, rec)
	if len(data) > 0 {
		lw.partial = append([]byte(nil), data...)
	}
	if len(out) > 0 {
		if _, err := lw.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Line is one parsed log line.
type Line struct {
	// Level is logrus' name of the level: debug, info, warning or error.
	Level string
	Msg   string
	// Fields are the trailing key=value pairs, in order.
	Fields [][2]string
}

// Parse reads a line in the terminal form; ok is false when s does not
// start with a level prefix.
func Parse(s string) (l Line, ok bool) {
	if len(s) < 5 {
		return Line{}, false
	}
	level, ok := levels[s[:4]]
	if !ok {
		return Line{}, false
	}
	rest := s[4:]
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return Line{}, false
		}
		rest = rest[end+1:]
	}
	if !strings.HasPrefix(rest, " ") {
		return Line{}, false
	}
	msg, fields := splitFields(rest[1:])
	return Line{Level: level, Msg: msg, Fields: fields}, true
}

// splitFields splits the trailing "  key=value" fields off a message; the
// fields are separated from the message by two spaces, and a value with
// spaces is Go-quoted (error="dial tcp: refused"). The fields are the
// first run of two spaces after which the rest of s parses as fields.
func splitFields(s string) (string, [][2]string) {
	for i := strings.Index(s, "  "); i >= 0; {
		if fields, ok := parseFields(s[i+2:]); ok {
			return s[:i], fields
		}
		next := strings.Index(s[i+1:], "  ")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return s, nil
}

// parseFields parses s, all of it, as space-separated key=value fields
// whose values are bare or Go-quoted.
func parseFields(s string) ([][2]string, bool) {
	var fields [][2]string
	for s = strings.TrimLeft(s, " "); s != ""; s = strings.TrimLeft(s, " ") {
		k, rest, ok := strings.Cut(s, "=")
		if !ok || k == "" || strings.ContainsAny(k, "\" \t\n") {
			return nil, false
		}
		v := rest
		if end := strings.IndexByte(rest, ' '); end >= 0 {
			v = rest[:end]
		}
		if strings.HasPrefix(rest, `"`) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, false
			}
			v, _ = strconv.Unquote(q)
			rest = rest[len(q):]
			if rest != "" && rest[0] != ' ' {
				return nil, false
			}
		} else {
			rest = rest[len(v):]
		}
		fields = append(fields, [2]string{k, v})
		s = rest
	}
	return fields, len(fields) > 0
}

// appendRecord appends l in the Writer's format; nothing for nil. A
// record of several lines with no fields on its first takes them from its
// last ("line one\nline two  source=console", a multi-line console
// message).
func (lw *Writer) appendRecord(out []byte, l *Line) []byte {
	if l == nil {
		return out
	}
	if len(l.Fields) == 0 && strings.Contains(l.Msg, "\n") {
		last := strings.LastIndexByte(l.Msg, '\n')
		if msg, fields := splitFields(l.Msg[last+1:]); len(fields) > 0 {
			l.Msg, l.Fields = l.Msg[:last+1]+msg, fields
		}
	}
	return lw.format.appendLog(out, *l, lw.now())
}

// appendLog appends l printed in format f, with its newline.
func (f Format) appendLog(out []byte, l Line, now time.Time) []byte {
	switch f {
	case Raw, Text:
		out = append(out, l.Msg...)
	case JSON:
		out = appendJSON(out, l, now)
	case Logfmt:
		out = append(out, "time="...)
		out = strconv.AppendQuote(out, now.Format(time.RFC3339))
		out = append(out, " level="...)
		out = append(out, l.Level...)
		out = append(out, " msg="...)
		out = appendLogfmtValue(out, l.Msg)
		for _, kv := range l.Fields {
			out = append(out, ' ')
			out = append(out, kv[0]...)
			out = append(out, '=')
			out = appendLogfmtValue(out, kv[1])
		}
	}
	return append(out, '\n')
}

// appendLogfmtValue quotes v unless it is made only of letters, digits
// and - . _ / @ ^ + (an empty value is quoted too), as logrus' text
// formatter decides: "url=\"http://x\"" is quoted for its colon.
func appendLogfmtValue(out []byte, v string) []byte {
	if v != "" && !strings.ContainsFunc(v, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-._/@^+", r))
	}) {
		return append(out, v...)
	}
	return strconv.AppendQuote(out, v)
}

// appendJSON appends l as one JSON object with sorted keys, as logrus'
// JSON formatter prints it.
func appendJSON(out []byte, l Line, now time.Time) []byte {
	m := map[string]string{"level": l.Level, "msg": l.Msg, "time": now.Format(time.RFC3339)}
	for _, kv := range l.Fields {
		if _, taken := m[kv[0]]; !taken {
			m[kv[0]] = kv[1]
		}
	}
	b, _ := json.Marshal(m) // a map of strings always marshals; json sorts its keys
	return append(out, b...)
}

// Flush prints a last line that never got its newline.
func (lw *Writer) Flush() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if len(lw.partial) == 0 {
		return nil
	}
	line := lw.partial
	lw.partial = nil
	var out []byte
	if l, ok := Parse(string(line)); ok && lw.format != Text {
		out = lw.appendRecord(nil, &l)
	} else {
		out = append(line, '\n')
	}
	_, err := lw.w.Write(out)
	return err
}
