package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// binary is the usefullatency executable TestMain built; testdata is the
// absolute path of this package's testdata directory.
var binary, testdata string

// runTimeout bounds every run of the binary, so a hang fails the test
// instead of the whole package.
const runTimeout = 45 * time.Second

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

// buildAndRun builds ../cmd/usefullatency into a temporary directory and
// runs the tests against it.
func buildAndRun(m *testing.M) int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	testdata = filepath.Join(wd, "testdata")
	dir, err := os.MkdirTemp("", "usefullatency-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "usefullatency")
	build := exec.Command("go", "build", "-o", binary, "../cmd/usefullatency")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building the binary:", err)
		return 1
	}
	return m.Run()
}

// script returns the absolute path of a script under testdata.
func script(name string) string { return filepath.Join(testdata, filepath.FromSlash(name)) }

// result is what one run of the binary produced.
type result struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
}

// invocation describes one run of the binary.
type invocation struct {
	args []string
	// env is added to the test process's environment, from which every
	// K6_* variable is removed so the host cannot change the options.
	env []string
	// dir is the working directory; the package directory when empty.
	dir string
	// timeout bounds the run; runTimeout when 0.
	timeout time.Duration
}

// run runs the binary with args and no extra environment.
func run(t *testing.T, args ...string) result {
	t.Helper()
	return invocation{args: args}.run(t)
}

// run runs the invocation to completion and checks that stderr holds no
// Go panic or goroutine dump whatever the exit code.
func (inv invocation) run(t *testing.T) result {
	t.Helper()
	cmd, stdout, stderr := inv.command(t)
	start := time.Now()
	err := cmd.Run()
	return finish(t, cmd, err, start, stdout, stderr)
}

// command prepares the invocation's process with its output captured.
func (inv invocation) command(t *testing.T) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	timeout := inv.timeout
	if timeout == 0 {
		timeout = runTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, binary, inv.args...)
	cmd.WaitDelay = 2 * time.Second
	cmd.Dir = inv.dir
	cmd.Env = append(hermeticEnv(), inv.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return cmd, &stdout, &stderr
}

// finish turns a finished command into a result.
func finish(t *testing.T, cmd *exec.Cmd, err error, start time.Time, stdout, stderr *bytes.Buffer) result {
	t.Helper()
	r := result{code: 0, stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr) && exitErr.Exited():
		r.code = exitErr.ExitCode()
	default:
		t.Fatalf("%s %s: %v (after %s)\nstderr:\n%s", binary, strings.Join(cmd.Args[1:], " "), err, r.elapsed, r.stderr)
	}
	for _, bad := range []string{"goroutine ", "panic:", "runtime error:"} {
		if strings.Contains(r.stderr, bad) {
			t.Errorf("stderr contains %q (a Go panic or stack dump):\n%s", bad, r.stderr)
		}
	}
	return r
}

// defaultLogFormat undoes hermeticEnv's K6_LOG_FORMAT=text, for the tests
// of what k6-operator and CI read: logfmt, stderr being no terminal.
var defaultLogFormat = []string{"K6_LOG_FORMAT="}

// hermeticEnv is the environment without K6_* variables. It asks for log
// lines in the terminal form, which most tests match, though stderr is no
// terminal here; TestLogFormats checks the default (logfmt) and the others.
func hermeticEnv() []string {
	// No k6 config file of the user's: the default one is under
	// XDG_CONFIG_HOME.
	env := []string{"K6_LOG_FORMAT=text", "XDG_CONFIG_HOME=" + filepath.Join(os.TempDir(), "usefullatency-e2e-no-config")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "K6_") {
			env = append(env, kv)
		}
	}
	return env
}

// wantCode fails the test unless the run exited with want.
func (r result) wantCode(t *testing.T, want int) {
	t.Helper()
	if r.code != want {
		t.Fatalf("exit code = %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, want, r.stdout, r.stderr)
	}
}

// logfmtError matches an error line in logfmt (inspect and archive log in
// it when stderr is not a terminal) and captures its quoted message.
var logfmtError = regexp.MustCompile(`^time="[^"]*" level=error msg=("(?:[^"\\]|\\.)*")$`)

// errorLine returns the first stderr line starting with "ERRO", or the
// first logfmt error line as "ERRO <message>", failing the test if there
// is none.
func (r result) errorLine(t *testing.T) string {
	t.Helper()
	for line := range strings.SplitSeq(r.stderr, "\n") {
		if strings.HasPrefix(line, "ERRO ") {
			return line
		}
		if m := logfmtError.FindStringSubmatch(line); m != nil {
			if msg, err := strconv.Unquote(m[1]); err == nil {
				return "ERRO " + msg
			}
		}
	}
	t.Fatalf("no ERRO line in stderr:\n%s", r.stderr)
	return ""
}

// export reads a JSON file the binary wrote.
func export(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the exported JSON: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("exported JSON does not parse: %v\n%s", err, b)
	}
	return m
}

// lookup walks nested JSON objects along keys; ok is false if a key is
// missing or a value on the way is not an object.
func lookup(m map[string]any, keys ...string) (any, bool) {
	var v any = m
	for _, k := range keys {
		obj, isObj := v.(map[string]any)
		if !isObj {
			return nil, false
		}
		if v, isObj = obj[k]; !isObj {
			return nil, false
		}
	}
	return v, true
}

// number returns the number at keys, failing the test if it is absent.
func number(t *testing.T, m map[string]any, keys ...string) float64 {
	t.Helper()
	v, ok := lookup(m, keys...)
	f, isNum := v.(float64)
	if !ok || !isNum {
		t.Fatalf("%s: want a number, got %v (present: %v)", strings.Join(keys, "."), v, ok)
	}
	return f
}

// object returns the object at keys, failing the test if it is absent.
func object(t *testing.T, m map[string]any, keys ...string) map[string]any {
	t.Helper()
	v, ok := lookup(m, keys...)
	obj, isObj := v.(map[string]any)
	if !ok || !isObj {
		t.Fatalf("%s: want an object, got %v (present: %v)", strings.Join(keys, "."), v, ok)
	}
	return obj
}

// near reports whether got is within 1e-9 of want.
func near(got, want float64) bool { return math.Abs(got-want) < 1e-9 }

func TestVersion(t *testing.T) {
	t.Parallel()
	r := run(t, "version")
	r.wantCode(t, 0)
	if !strings.HasPrefix(r.stdout, "usefullatency ") {
		t.Errorf("version output = %q, want it to start with \"usefullatency \"", r.stdout)
	}
}

func TestInspectPrintsJSONWithScenarios(t *testing.T) {
	t.Parallel()
	r := run(t, "inspect", script("named_scenario.js"))
	r.wantCode(t, 0)
	var opts map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &opts); err != nil {
		t.Fatalf("inspect output is not JSON: %v\n%s", err, r.stdout)
	}
	sc := object(t, opts, "scenarios", "mine")
	if sc["executor"] != "constant-vus" || sc["duration"] != "1s" || sc["vus"] != 2.0 {
		t.Errorf("scenarios.mine = %v, want constant-vus, 2 VUs, 1s", sc)
	}
}

func TestBannerUnlessQuiet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		wantBanner bool
	}{
		{"default", []string{"run", "--no-summary", script("plain_summary.js")}, true},
		{"quiet", []string{"run", "-q", "--no-summary", script("plain_summary.js")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := run(t, tt.args...)
			r.wantCode(t, 0)
			for _, s := range []string{"execution: local", "plain_summary.js", "scenarios:"} {
				if got := strings.Contains(r.stderr, s); got != tt.wantBanner {
					t.Errorf("stderr contains %q = %v, want %v\n%s", s, got, tt.wantBanner, r.stderr)
				}
			}
			if r.stdout != "" {
				t.Errorf("--no-summary: stdout = %q, want nothing", r.stdout)
			}
		})
	}
}

// interrupted starts the binary on signal.js, sends SIGINT once a VU has
// completed five iterations and returns what the run produced.
func (inv invocation) interrupted(t *testing.T) result {
	t.Helper()
	cmd, stdout, stderr := inv.command(t)
	log := newWatcher()
	cmd.Stderr = io.MultiWriter(stderr, log)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log.await(t, signalRunning)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	return finish(t, cmd, cmd.Wait(), start, stdout, stderr)
}

// The lines signal.js logs when a VU has completed five iterations and when
// teardown starts.
const (
	signalRunning  = "signal.js: five iterations done"
	signalTeardown = "signal.js: teardown"
)

// watcher is a writer that keeps what was written and lets a test wait for
// a text to appear in it.
type watcher struct {
	mu    sync.Mutex
	text  strings.Builder
	wrote chan struct{} // closed and replaced at every write
}

func newWatcher() *watcher { return &watcher{wrote: make(chan struct{})} }

// Write implements io.Writer.
func (w *watcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.text.Write(p)
	close(w.wrote)
	w.wrote = make(chan struct{})
	return len(p), nil
}

// await waits until s has been written, and fails the test if it has not
// been within a minute (the scripts that log it run for 30 s).
func (w *watcher) await(t *testing.T, s string) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		w.mu.Lock()
		found, wrote, text := strings.Contains(w.text.String(), s), w.wrote, w.text.String()
		w.mu.Unlock()
		if found {
			return
		}
		select {
		case <-wrote:
		case <-deadline:
			t.Fatalf("%q not logged within a minute; the log:\n%s", s, text)
		}
	}
}
