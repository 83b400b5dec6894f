package e2e

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestScriptExitCodes covers failures of the script itself: 107 for an
// exception outside iterations, 108 for exec.test.abort() (also in init
// code), 110 for exec.test.fail() after the run went on, 100 for a
// setup() past setupTimeout.
func TestScriptExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		script   string
		wantCode int
		// wantErr are substrings of the first ERRO line.
		wantErr []string
		// wantStderr are substrings anywhere in stderr (a JS stack).
		wantStderr []string
		maxTime    time.Duration
	}{
		{name: "syntax error", script: "exit/syntax_error.js", wantCode: 107,
			wantErr: []string{"SyntaxError", "syntax_error.js", "2:11"}},
		{name: "exception in init", script: "exit/init_error.js", wantCode: 107,
			wantErr: []string{"boom in init"}, wantStderr: []string{"init_error.js:3"}},
		{name: "exception in setup", script: "exit/setup_error.js", wantCode: 107,
			wantErr: []string{"setup()", "boom in setup"}, wantStderr: []string{"setup_error.js:2"}},
		{name: "exception in teardown", script: "exit/teardown_error.js", wantCode: 107,
			wantErr: []string{"teardown()", "boom in teardown"}, wantStderr: []string{"teardown_error.js:3"}},
		{name: "abort in an iteration", script: "exit/abort_iteration.js", wantCode: 108,
			wantErr: []string{"stop now"}, wantStderr: []string{"teardown ran"}, maxTime: 8 * time.Second},
		{name: "abort in setup", script: "exit/abort_setup.js", wantCode: 108, wantErr: []string{"no data"}},
		{name: "abort in init", script: "exit/abort_init.js", wantCode: 108, wantErr: []string{"no config"}},
		{name: "test.fail", script: "exit/fail.js", wantCode: 110,
			wantErr:    []string{"test marked as failed", "bad answer"},
			wantStderr: []string{"iteration 2 done", "teardown ran"}},
		{name: "setup timeout", script: "exit/setup_timeout.js", wantCode: 100,
			wantErr: []string{"setup()", "300ms"}, maxTime: 8 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := run(t, "run", "-q", script(tt.script))
			r.wantCode(t, tt.wantCode)
			line := r.errorLine(t)
			for _, s := range tt.wantErr {
				if !strings.Contains(line, s) {
					t.Errorf("error line %q lacks %q", line, s)
				}
			}
			for _, s := range tt.wantStderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
			if tt.maxTime > 0 && r.elapsed > tt.maxTime {
				t.Errorf("run took %s, want under %s", r.elapsed, tt.maxTime)
			}
		})
	}
}

// TestSummaryAfterFailedSetup checks that a setup() that throws or aborts
// the test still ends with the summary and its export, and still calls
// handleSummary(), with the exit code of the failure (107, 108), as k6
// does: a CI report written by handleSummary is not lost.
func TestSummaryAfterFailedSetup(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  []string
		code int
	}{{nil, 107}, {[]string{"ABORT=1"}, 108}} {
		r := invocation{args: []string{"run", script("exit/setup_error_summary.js")}, env: tc.env}.run(t)
		r.wantCode(t, tc.code)
		if !strings.Contains(r.stdout, "handleSummary ran: true") {
			t.Errorf("%v: handleSummary did not run:\n%s", tc.env, r.stdout)
		}
	}
	out := filepath.Join(t.TempDir(), "export.json")
	r := run(t, "run", "--summary-export", out, script("exit/setup_error.js"))
	r.wantCode(t, 107)
	if _, err := os.Stat(out); err != nil || !strings.Contains(r.stdout, "TOTAL RESULTS") {
		t.Errorf("no summary or export (%v):\n%s", err, r.stdout)
	}
	if line := r.errorLine(t); !strings.Contains(line, "boom in setup") {
		t.Errorf("error line %q", line)
	}
}

// TestInvalidConfigExits104 covers configuration errors: each exits 104
// with one ERRO line naming the culprit, before the test starts.
func TestInvalidConfigExits104(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		options string // JSON options of config.js
		env     []string
		args    []string
		wantErr []string
	}{
		{name: "unknown executor", options: `{"scenarios":{"s":{"executor":"bogus-executor"}}}`,
			wantErr: []string{"scenarios.s.executor", "bogus-executor"}},
		{name: "unknown scenario field", options: `{"scenarios":{"s":{"executor":"shared-iterations","bogusField":1}}}`,
			wantErr: []string{"scenarios.s", "bogusField"}},
		{name: "invalid scenario name", options: `{"scenarios":{"bad name!":{"executor":"shared-iterations"}}}`,
			wantErr: []string{"bad name!"}},
		{name: "exec not exported", options: `{"scenarios":{"s":{"executor":"shared-iterations","exec":"nope"}}}`,
			wantErr: []string{"scenarios.s.exec", "nope"}},
		{name: "missing preAllocatedVUs", options: `{"scenarios":{"s":{"executor":"constant-arrival-rate","rate":1,"duration":"1s"}}}`,
			wantErr: []string{"scenarios.s.preAllocatedVUs"}},
		{name: "bad duration option", options: `{"duration":"abc"}`, wantErr: []string{"duration", "abc"}},
		{name: "bad summaryTrendStats", options: `{"summaryTrendStats":["avg","bogus"]}`,
			wantErr: []string{"summaryTrendStats", "bogus"}},
		{name: "bad --duration", args: []string{"-d", "10xs"}, wantErr: []string{"--duration", "10xs"}},
		{name: "bad --stage", args: []string{"-s", "bogus"}, wantErr: []string{"--stage", "bogus"}},
		{name: "bad --summary-trend-stats", args: []string{"--summary-trend-stats", "avg,p(abc)"},
			wantErr: []string{"p(abc)"}},
		{name: "unknown -o type", args: []string{"-o", "bogus"}, wantErr: []string{"--out", "bogus"}},
		{name: "bad --tag", args: []string{"--tag", "noequals"}, wantErr: []string{"--tag", "noequals"}},
		{name: "segment above 1", args: []string{"--execution-segment", "2:1"}, wantErr: []string{"2:1"}},
		{name: "segment not in sequence", args: []string{"--execution-segment", "0:1/3", "--execution-segment-sequence", "0,1/2,1"},
			wantErr: []string{"0:1/3", "0,1/2,1"}},
		{name: "bad K6_VUS", env: []string{"K6_VUS=x"}, wantErr: []string{"K6_VUS", "x"}},
		{name: "--summary-export in a missing directory", args: []string{"--summary-export", "/nonexistent-usefullatency/s.json"},
			wantErr: []string{"--summary-export", "/nonexistent-usefullatency/s.json"}},
		{name: "--summary-export is a directory", args: []string{"--summary-export", os.TempDir()},
			wantErr: []string{"--summary-export", os.TempDir(), "is a directory"}},
		{name: "K6_SUMMARY_EXPORT in a missing directory", env: []string{"K6_SUMMARY_EXPORT=/nonexistent-usefullatency/e.json"},
			wantErr: []string{"/nonexistent-usefullatency/e.json"}},
		{name: "--report in a missing directory", args: []string{"--report", "/nonexistent-usefullatency/r.html"},
			wantErr: []string{"/nonexistent-usefullatency/r.html"}},
		{name: "json output in a missing directory", args: []string{"-o", "json=/nonexistent-usefullatency/x.json"},
			wantErr: []string{"/nonexistent-usefullatency/x.json"}},
		{name: "csv output in a missing directory", args: []string{"-o", "csv=/nonexistent-usefullatency/x.csv"},
			wantErr: []string{"/nonexistent-usefullatency/x.csv"}},
		{name: "bad --probe-transport", args: []string{"--probe-transport", "epoll"}, wantErr: []string{"probe transport", "epoll"}},
		{name: "bad USEFULLATENCY_PROBE_TRANSPORT", env: []string{"USEFULLATENCY_PROBE_TRANSPORT=epoll"},
			wantErr: []string{"USEFULLATENCY_PROBE_TRANSPORT", "epoll"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := append([]string{"OPTIONS=" + tt.options}, tt.env...)
			args := append(append([]string{"run", "-q"}, tt.args...), script("config.js"))
			r := invocation{args: args, env: env}.run(t)
			r.wantCode(t, 104)
			assertRejectedBeforeStart(t, r, tt.wantErr)
		})
	}
	t.Run("shortcut and scenarios in the script", func(t *testing.T) {
		t.Parallel()
		r := run(t, "run", "-q", script("exit/shortcut_and_scenarios.js"))
		r.wantCode(t, 104)
		assertRejectedBeforeStart(t, r, []string{"duration", "scenarios"})
	})
	t.Run("missing script", func(t *testing.T) {
		t.Parallel()
		r := run(t, "run", "-q", script("missing.js"))
		r.wantCode(t, 104)
		assertRejectedBeforeStart(t, r, []string{"missing.js"})
	})
}

// TestSignal sends SIGINT to a 30 s run after ~1.5 s: it stops with 105
// and still writes the summary export. A second SIGINT during a slow
// teardown stops it at once, the export still written.
func TestSignal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		teardown string // seconds teardown() sleeps
		signals  int
		// wantExport: the run gets to the summary.
		wantExport bool
	}{
		{"one SIGINT stops gracefully", "0", 1, true},
		{"second SIGINT stops at once", "20", 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "export.json")
			inv := invocation{
				args: []string{"run", "-q", "--summary-export", out, script("signal.js")},
				env:  []string{"TEARDOWN_SLEEP=" + tt.teardown},
			}
			var sent time.Time
			cmd, stdout, stderr := inv.command(t)
			log := newWatcher()
			cmd.Stderr = io.MultiWriter(stderr, log)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The first SIGINT once the run is under way, the second once
			// teardown (20 s) has started.
			for i, line := range []string{signalRunning, signalTeardown}[:tt.signals] {
				log.await(t, line)
				if i == tt.signals-1 {
					sent = time.Now()
				}
				if err := cmd.Process.Signal(os.Interrupt); err != nil {
					t.Fatal(err)
				}
			}
			r := finish(t, cmd, cmd.Wait(), sent, stdout, stderr)
			r.wantCode(t, 105)
			// Stopping waits for no more than the iterations in flight
			// (0.2 s); a run left alone lasts 30 s, a teardown 20 s.
			if r.elapsed > 10*time.Second {
				t.Errorf("exit took %s after the last SIGINT; want a prompt stop", r.elapsed)
			}
			if !tt.wantExport {
				return
			}
			if n := number(t, export(t, out), "metrics", "iterations", "count"); n < 1 {
				t.Errorf("export iterations = %v, want the iterations run before the signal", n)
			}
			if !strings.Contains(r.stdout, "TOTAL RESULTS") {
				t.Errorf("no summary after the signal:\n%s", r.stdout)
			}
		})
	}
}
