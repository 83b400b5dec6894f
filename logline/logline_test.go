package logline

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// fixedWriter returns a Writer into buf whose clock reads one instant.
func fixedWriter(buf *bytes.Buffer, f Format) *Writer {
	w := NewWriter(buf, f)
	w.now = func() time.Time { return time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC) }
	return w
}

func TestLogfmtLines(t *testing.T) {
	var buf bytes.Buffer
	w := fixedWriter(&buf, Logfmt)
	lines := "WARN thresholds were crossed\n" +
		"INFO[0003] hello \"world\"  source=console\n" +
		"ERRO boom  vu=3 iter=7\n"
	for _, write := range []string{lines, "  banner line, not a log line\n"} {
		if _, err := w.Write([]byte(write)); err != nil {
			t.Fatal(err)
		}
	}
	want := `time="2026-12-02T10:00:00Z" level=warning msg="thresholds were crossed"` + "\n" +
		`time="2026-12-02T10:00:00Z" level=info msg="hello \"world\"" source=console` + "\n" +
		`time="2026-12-02T10:00:00Z" level=error msg=boom vu=3 iter=7` + "\n" +
		`  banner line, not a log line` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("logfmt:\n got %q\nwant %q", got, want)
	}
}

func TestJSONLines(t *testing.T) {
	var buf bytes.Buffer
	w := fixedWriter(&buf, JSON)
	if _, err := w.Write([]byte("INFO[0000] {\"a\":1}  source=console\n")); err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("not one JSON object: %q: %v", buf.String(), err)
	}
	want := map[string]string{"level": "info", "msg": `{"a":1}`, "source": "console", "time": "2026-12-02T10:00:00Z"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if !strings.HasPrefix(buf.String(), `{"level":`) {
		t.Errorf("keys are not sorted as logrus sorts them: %s", buf.String())
	}
}

func TestRawAndPartialLines(t *testing.T) {
	var buf bytes.Buffer
	w := fixedWriter(&buf, Raw)
	for _, part := range []string{"WARN first ", "half\nERRO sec", "ond\nprogress\n", "INFO third"} {
		if _, err := w.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := buf.String(), "first half\nsecond\nprogress\n"; got != want {
		t.Errorf("raw = %q, want %q (a line without its newline waits)", got, want)
	}
}

func TestParseFormat(t *testing.T) {
	for _, c := range []struct {
		in   string
		tty  bool
		want Format
	}{{"", true, Text}, {"", false, Logfmt}, {"json", true, JSON}, {"raw", false, Raw}, {"text", false, Text}} {
		got, err := ParseFormat(c.in, c.tty)
		if err != nil || got != c.want {
			t.Errorf("ParseFormat(%q, %v) = %v, %v; want %v", c.in, c.tty, got, err, c.want)
		}
	}
	if _, err := ParseFormat("yaml", false); err == nil || !strings.Contains(err.Error(), `"yaml"`) {
		t.Errorf("ParseFormat(yaml) error = %v, want one naming the value", err)
	}
}

func TestTextIsUnchanged(t *testing.T) {
	var buf bytes.Buffer
	if Wrap(&buf, Text) != &buf {
		t.Error("Wrap(Text) should return the writer itself")
	}
	w := fixedWriter(&buf, Text)
	_, _ = w.Write([]byte("WARN[0002] careful  source=console\n"))
	if buf.String() != "WARN[0002] careful  source=console\n" {
		t.Errorf("text = %q", buf.String())
	}
}

// TestMultiLineRecord checks that an error written with its stack in one
// write is one record, and that lines of the next write are not taken in.
func TestMultiLineRecord(t *testing.T) {
	var buf bytes.Buffer
	w := fixedWriter(&buf, Logfmt)
	_, _ = w.Write([]byte("ERRO Uncaught TypeError: x\n\tat main (file.js:3:4)\n"))
	_, _ = w.Write([]byte("  banner\n"))
	want := `time="2026-12-02T10:00:00Z" level=error msg="Uncaught TypeError: x\n\tat main (file.js:3:4)"` + "\n" +
		"  banner\n"
	if got := buf.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestQuotedFields checks fields whose values are quoted (spaces, quotes,
// two spaces inside), and that text that only looks like fields stays in
// the message.
func TestQuotedFields(t *testing.T) {
	for _, tc := range []struct {
		in, msg string
		fields  [][2]string
	}{
		{`WARN Request Failed  error="Get \"http://x/\": dial tcp:  refused"`, "Request Failed",
			[][2]string{{"error", `Get "http://x/": dial tcp:  refused`}}},
		{`INFO a  b  k=v q="x y"`, "a  b", [][2]string{{"k", "v"}, {"q", "x y"}}},
		{`INFO spaced  out text`, "spaced  out text", nil},
		{`INFO broken  k="open`, `broken  k="open`, nil},
		{`INFO joined  k="a"b`, `joined  k="a"b`, nil},
	} {
		l, ok := Parse(tc.in)
		if !ok || l.Msg != tc.msg || len(l.Fields) != len(tc.fields) {
			t.Errorf("%q: msg %q fields %q", tc.in, l.Msg, l.Fields)
			continue
		}
		for i := range tc.fields {
			if l.Fields[i] != tc.fields[i] {
				t.Errorf("%q: field %q, want %q", tc.in, l.Fields[i], tc.fields[i])
			}
		}
	}
}

// TestMultiLineConsoleFields checks that a console message of several
// lines keeps its source field out of the message, as logrus prints it.
func TestMultiLineConsoleFields(t *testing.T) {
	var buf bytes.Buffer
	w := fixedWriter(&buf, Logfmt)
	_, _ = w.Write([]byte("INFO[0001] line one\nline two  source=console\n"))
	want := `time="2026-12-02T10:00:00Z" level=info msg="line one\nline two" source=console` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
