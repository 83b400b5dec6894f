package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogFormats checks the log lines' forms: logfmt when stderr is not a
// terminal (as in CI), and json or raw when asked for by flag or by
// K6_LOG_FORMAT. The warning of an ignored flag and the console lines are
// both log lines.
func TestLogFormats(t *testing.T) {
	t.Parallel()
	args := []string{"run", "-q", "--no-summary", "--traces-output", "otel", script("console.js")}

	r := invocation{args: args, env: defaultLogFormat}.run(t)
	r.wantCode(t, 0)
	for _, want := range []string{
		`level=info msg="init says hello" source=console`,
		`level=info msg="iteration 0 says hello" source=console`,
		`level=warning msg="--traces-output is accepted`,
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("default (no terminal) stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	for _, line := range nonEmptyLines(r.stderr) {
		if !strings.HasPrefix(line, `time="`) {
			t.Errorf("default stderr line is not logfmt: %q", line)
		}
	}

	r = invocation{args: append([]string{"run", "--log-format", "json"}, args[1:]...)}.run(t)
	r.wantCode(t, 0)
	var levels []string
	for _, line := range nonEmptyLines(r.stderr) {
		var obj map[string]string
		if err := json.Unmarshal([]byte(line), &obj); err != nil || obj["time"] == "" || obj["msg"] == "" {
			t.Fatalf("--log-format json: line %q is not a log object (%v)", line, err)
		}
		levels = append(levels, obj["level"]+":"+obj["msg"])
	}
	if !strings.Contains(strings.Join(levels, "\n"), "info:init says hello") {
		t.Errorf("--log-format json lacks the console line: %v", levels)
	}

	r = invocation{args: args, env: []string{"K6_LOG_FORMAT=raw"}}.run(t)
	r.wantCode(t, 0)
	if !strings.Contains(r.stderr, "\ninit says hello\n") && !strings.HasPrefix(r.stderr, "init says hello\n") {
		t.Errorf("K6_LOG_FORMAT=raw: want bare messages:\n%s", r.stderr)
	}
}

// TestLogFormatInvalid checks that an unknown --log-format is refused on
// one line naming it.
func TestLogFormatInvalid(t *testing.T) {
	t.Parallel()
	r := run(t, "run", "--log-format", "yaml", script("console.js"))
	if r.code == 0 || !strings.Contains(r.stderr, `--log-format "yaml"`) || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q: want a failure and one line naming the value", r.code, r.stderr)
	}
}

// TestConsoleOutputFileFormat checks that a console file holds logfmt
// lines by default, a file being no terminal.
func TestConsoleOutputFileFormat(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "console.log")
	r := invocation{args: []string{"run", "-q", "--no-summary", "--console-output", path, script("console.js")},
		env: defaultLogFormat}.run(t)
	r.wantCode(t, 0)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := nonEmptyLines(string(b)); len(lines) != 3 || !strings.Contains(lines[0], `level=info msg="init says hello" source=console`) {
		t.Errorf("console file:\n%s\nwant three logfmt lines (init runs for the options VU and the one VU, then one iteration)", b)
	}
}

// nonEmptyLines splits s into its non-empty lines.
func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}
