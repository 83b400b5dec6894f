package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func TestLogfmtWriter(t *testing.T) {
	var out bytes.Buffer
	w := &logfmtWriter{w: &out}
	fmt.Fprintln(w, "ERRO Error: no config\n\tat /t/main.js:1:7(12)")
	fmt.Fprintln(w, `WARN unknown option "x" ignored`)
	fmt.Fprint(w, "INFO[0000] hello  ")
	fmt.Fprint(w, "source=console\nERRO a")
	fmt.Fprint(w, "b\n")
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		`^time="[^"]+" level=error msg="Error: no config\\n\\tat /t/main.js:1:7\(12\)"$`,
		`^time="[^"]+" level=warning msg="unknown option \\"x\\" ignored"$`,
		`^INFO\[0000\] hello  source=console$`,
		`^time="[^"]+" level=error msg="ab"$`,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("line %d = %q, want %s", i, lines[i], re)
		}
	}
}
