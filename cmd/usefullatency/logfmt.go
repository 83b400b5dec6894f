package main

import (
	"bytes"
	"io"
	"strconv"
	"sync"
	"time"
)

// logfmtLevels maps the prefixes of our log lines to logrus's level names.
var logfmtLevels = []struct{ prefix, level string }{
	{"ERRO ", "error"}, {"WARN ", "warning"},
}

// logfmtWriter rewrites the error and warning lines written to it in the
// logfmt form k6 logs in when stderr is not a terminal —
// `time="…" level=error msg="…"` — which tools such as k6-operator's
// initializer grep for (`level.*error`). Other lines pass unchanged.
type logfmtWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// logfmtStderr returns stderr itself on a terminal, else a logfmtWriter
// over it.
func logfmtStderr(stderr io.Writer) io.Writer {
	if isTerminal(stderr) {
		return stderr
	}
	return &logfmtWriter{w: stderr}
}

// Write rewrites what it is given line by line, except that one write of
// whole lines is one log record: an error with a JavaScript stack keeps
// its stack in msg, its newlines escaped, as k6 logs it.
func (l *logfmtWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) == 0 && bytes.HasSuffix(p, []byte("\n")) {
		_, err := l.w.Write(logfmtLine(p))
		return len(p), err
	}
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if _, err := l.w.Write(logfmtLine(l.buf[:i+1])); err != nil {
			return len(p), err
		}
		l.buf = l.buf[i+1:]
	}
}

// logfmtLine rewrites one record, its final newline included.
func logfmtLine(line []byte) []byte {
	for _, lv := range logfmtLevels {
		if msg, ok := bytes.CutPrefix(line, []byte(lv.prefix)); ok {
			msg = bytes.TrimSuffix(msg, []byte("\n"))
			return []byte("time=" + strconv.Quote(time.Now().Format(time.RFC3339)) +
				" level=" + lv.level + " msg=" + strconv.Quote(string(msg)) + "\n")
		}
	}
	return line
}
