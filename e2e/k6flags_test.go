package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// k6RunFlags are flags pasted from k6 CI jobs, each with a value where it
// takes one, as k6 v1's `k6 run --help` lists them.
var k6RunFlags = []string{
	"--summary-mode", "full", "--no-usage-report", "-v", "--verbose", "--log-output", "stderr",
	"--log-format", "text", "--no-setup", "--no-teardown", "--throw", "--compatibility-mode", "extended",
	"--system-tags", "status,method", "--local-ips", "10.0.0.1", "--dns", "ttl=1m,select=first,policy=any",
	"--user-agent", "ci/1", "--http-debug", "--max-redirects", "3", "--batch", "4", "--batch-per-host", "2",
	"--rps", "50", "--discard-response-bodies", "--blacklist-ip", "10.1.0.0/16", "--block-hostnames", "*.internal",
	"--hosts", "api.test=127.0.0.1", "--min-iteration-duration", "10ms", "--no-connection-reuse",
	"--no-vu-connection-reuse", "--include-system-env-vars=false", "--no-thresholds=false",
}

// TestK6RunFlagsAccepted passes k6's run flags, after the script path as
// k6-operator puts them, and checks they land in the consolidated options
// without a warning.
func TestK6RunFlagsAccepted(t *testing.T) {
	t.Parallel()
	args := append([]string{"inspect", script("config.js")}, k6RunFlags...)
	r := run(t, args...)
	r.wantCode(t, 0)
	if strings.Contains(r.stderr, "WARN") || strings.Contains(r.stderr, "level=warning") {
		t.Errorf("k6 flags with an effect warned:\n%s", r.stderr)
	}
	var opts map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &opts); err != nil {
		t.Fatalf("inspect output is not JSON: %v\n%s", err, r.stdout)
	}
	want := map[string]any{
		"noSetup": true, "noTeardown": true, "throw": true, "maxRedirects": 3.0, "batch": 4.0,
		"batchPerHost": 2.0, "rps": 50.0, "userAgent": "ci/1", "httpDebug": "headers",
		"discardResponseBodies": true, "systemTags": []any{"status", "method"},
		"blacklistIPs": []any{"10.1.0.0/16"}, "blockHostnames": []any{"*.internal"},
		"hosts": map[string]any{"api.test": "127.0.0.1"}, "localIPs": "10.0.0.1",
		"dns":                  map[string]any{"ttl": "1m", "select": "first", "policy": "any"},
		"minIterationDuration": "10ms", "summaryMode": "full", "noConnectionReuse": true,
	}
	for k, v := range want {
		if !reflect.DeepEqual(opts[k], v) {
			t.Errorf("%s = %#v, want %#v", k, opts[k], v)
		}
	}
}

// TestK6RunFlagsAfterScript runs a test with its execution flags after
// the script path.
func TestK6RunFlagsAfterScript(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "summary.json")
	r := run(t, "run", script("config.js"), "--iterations", "3", "--vus", "2", "-q",
		"--summary-export", out, "--no-usage-report", "--summary-mode", "disabled")
	r.wantCode(t, 0)
	if strings.Contains(r.stdout, "iterations") {
		t.Errorf("--summary-mode disabled printed a summary:\n%s", r.stdout)
	}
	if n := number(t, export(t, out), "metrics", "iterations", "count"); n != 3 {
		t.Errorf("iterations = %v, want 3", n)
	}
}

// TestIgnoredFlagsWarnOnce checks that flags with no meaning here are
// accepted with one warning line each, naming the flag.
func TestIgnoredFlagsWarnOnce(t *testing.T) {
	t.Parallel()
	r := run(t, "run", "-q", "--no-summary", "--local-execution",
		"--traces-output", "otel", script("config.js"))
	r.wantCode(t, 0)
	for _, flag := range []string{"--local-execution", "--traces-output"} {
		if n := strings.Count(r.stderr, flag); n != 1 {
			t.Errorf("%s named %d times in stderr, want once:\n%s", flag, n, r.stderr)
		}
	}
}

// TestFlagErrors checks the values k6 rejects on its command line.
func TestFlagErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ args, want string }{
		{"-d 2", `--duration: invalid duration "2": missing unit`},
		{"--min-iteration-duration 5", `--min-iteration-duration: invalid duration "5": missing unit`},
		{"--summary-mode short", `--summary-mode: invalid summary mode "short"`},
		{"--dns select=best", `--dns: select: invalid value "best"`},
		{"--max-redirects -1", "--max-redirects"},
	} {
		args := append(append([]string{"inspect"}, strings.Fields(tc.args)...), script("config.js"))
		r := run(t, args...)
		r.wantCode(t, 104)
		if line := r.errorLine(t); !strings.Contains(line, tc.want) {
			t.Errorf("%s: error %q, want it to contain %q", tc.args, line, tc.want)
		}
	}
}

// TestConsoleOutputFile checks that --console-output sends console lines
// to the file and not to stderr.
func TestConsoleOutputFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "console.log")
	r := invocation{args: []string{"run", "-q", "--no-summary", "--console-output", path, script("console.js")}}.run(t)
	r.wantCode(t, 0)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"init says hello", "iteration 0 says hello"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("console file lacks %q:\n%s", want, b)
		}
		if strings.Contains(r.stderr, want) {
			t.Errorf("stderr has %q:\n%s", want, r.stderr)
		}
	}
}

// TestNoSetupNoTeardown skips setup() and teardown() with the flags and
// with the script options, and runs both without them.
func TestNoSetupNoTeardown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		flags []string
		env   []string
		ran   []string
		not   []string
	}{
		{name: "default", ran: []string{"setup ran", "teardown ran", `iteration data: {"from":"setup"}`}},
		{name: "flags", flags: []string{"--no-setup", "--no-teardown"},
			ran: []string{"iteration data: undefined"}, not: []string{"setup ran", "teardown ran"}},
		{name: "script options", env: []string{`OPTIONS={"noSetup":true}`},
			ran: []string{"teardown ran", "iteration data: undefined"}, not: []string{"setup ran"}},
		{name: "env", env: []string{"K6_NO_TEARDOWN=true"},
			ran: []string{"setup ran"}, not: []string{"teardown ran"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"run", "-q", "--no-summary", script("setup_teardown.js")}, tc.flags...)
			r := invocation{args: args, env: tc.env}.run(t)
			r.wantCode(t, 0)
			for _, want := range tc.ran {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
			for _, bad := range tc.not {
				if strings.Contains(r.stderr, bad) {
					t.Errorf("stderr has %q:\n%s", bad, r.stderr)
				}
			}
		})
	}
}

// TestMinIterationDuration runs empty iterations for one second with a
// 250 ms minimum: four start (at 0, 250, 500 and 750 ms; a loaded machine
// may push the fourth past the end), not millions.
func TestMinIterationDuration(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "summary.json")
	r := run(t, "run", "-q", "--summary-export", out, script("min_iteration.js"))
	r.wantCode(t, 0)
	if n := number(t, export(t, out), "metrics", "iterations", "count"); n < 3 || n > 4 {
		t.Errorf("iterations = %v, want 3 or 4", n)
	}
	if strings.Contains(r.stderr, "minIterationDuration") {
		t.Errorf("minIterationDuration warned:\n%s", r.stderr)
	}
}
