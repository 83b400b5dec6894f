package e2e

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// starterPatch is the body k6-operator's starter job sends to every runner.
const starterPatch = `{"data":{"attributes":{"paused":false,"stopped":false},"id":"default","type":"status"}}`

// k6Binary links the built binary as "k6" in a temporary directory, the
// name k6-operator's images put on PATH.
func k6Binary(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "k6")
	if err := os.Symlink(binary, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// started is a run of the binary in the background whose stderr can be
// watched.
type started struct {
	cmd    *exec.Cmd
	log    *watcher
	out    func() result
	exited chan struct{}
}

// start runs the invocation as bin in the background.
func (inv invocation) start(t *testing.T, bin string) *started {
	t.Helper()
	cmd, stdout, stderr := inv.command(t)
	cmd.Path, cmd.Args[0] = bin, bin
	s := &started{cmd: cmd, log: newWatcher(), exited: make(chan struct{})}
	cmd.Stderr = io.MultiWriter(stderr, s.log)
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var err error
	go func() {
		defer close(s.exited)
		err = cmd.Wait()
	}()
	s.out = func() result {
		t.Helper()
		select {
		case <-s.exited:
		case <-time.After(runTimeout):
			t.Fatalf("%s did not exit", strings.Join(cmd.Args, " "))
		}
		return finish(t, cmd, err, begin, stdout, stderr)
	}
	return s
}

// apiCall sends a request to the REST API at addr and decodes its JSON
// answer; ok is false when nothing answered.
func apiCall(method, addr, path, body string) (status int, doc map[string]any, ok bool) {
	req, err := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, false
	}
	req.Header.Set("Content-Type", "application/json")
	client := http.Client{Timeout: 2 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, false
	}
	defer resp.Body.Close()
	_ = json.NewDecoder(resp.Body).Decode(&doc)
	return resp.StatusCode, doc, true
}

// runStatus polls GET /v1/status until it answers and returns its
// attributes.
func runStatus(t *testing.T, addr string) map[string]any {
	t.Helper()
	var attrs map[string]any
	eventually.True(t, "GET /v1/status answers on "+addr, func() bool {
		code, doc, ok := apiCall(http.MethodGet, addr, "/v1/status", "")
		if !ok || code != http.StatusOK {
			return false
		}
		v, _ := lookup(doc, "data", "attributes")
		attrs, _ = v.(map[string]any)
		return attrs != nil
	})
	return attrs
}

// A runner started as k6-operator starts it (named k6, flags after the
// script, --paused, --address, two --tag) initialises, answers its probes
// and runs nothing until the starter's PATCH; then it runs the whole test
// with both tags on its samples.
func TestOperatorRunnerFlow(t *testing.T) {
	t.Parallel()
	addr := freeLoopbackAddr(t)
	out := filepath.Join(t.TempDir(), "summary.json")
	run := invocation{args: []string{"run", "--quiet", script("operator.js"), "--address=" + addr, "--paused",
		"--tag", "instance_id=0", "--tag", "testrun_name=demo", "--summary-export", out}}.start(t, k6Binary(t))
	eventually.True(t, "the runner waits paused", func() bool {
		return runStatus(t, addr)["status"] == 4.0
	})
	attrs := runStatus(t, addr)
	if attrs["paused"] != true || attrs["running"] != false || attrs["vus-max"] != 2.0 {
		t.Errorf("paused runner's status = %v", attrs)
	}
	if _, doc, _ := apiCall(http.MethodGet, addr, "/v1/metrics/iterations", ""); doc["errors"] == nil {
		t.Errorf("a paused runner has iterations: %v", doc)
	}
	if s := run.log.String(); strings.Contains(s, "operator.js: setup") {
		t.Errorf("setup() ran before the test was resumed:\n%s", s)
	}
	if code, doc, _ := apiCall(http.MethodGet, addr, "/ping", ""); code != http.StatusOK {
		t.Errorf("/ping: %d %v", code, doc)
	}
	if code, doc, ok := apiCall(http.MethodPatch, addr, "/v1/status", starterPatch); !ok || code != http.StatusOK {
		t.Fatalf("starter PATCH: %d %v", code, doc)
	}
	r := run.out()
	r.wantCode(t, 0)
	exp := export(t, out)
	if n := number(t, exp, "metrics", "iterations", "count"); n != 6 {
		t.Errorf("iterations = %v, want 6", n)
	}
	for _, sub := range []string{"iterations{instance_id:0}", "iterations{testrun_name:demo}"} {
		if failed, ok := lookup(exp, "metrics", sub, "thresholds", "count==6"); !ok || failed != false {
			t.Errorf("%s count==6 failed = %v (present %v), want passed", sub, failed, ok)
		}
	}
	if !strings.Contains(r.stderr, "operator.js: setup") {
		t.Errorf("setup() did not run after the resume:\n%s", r.stderr)
	}
}

// PATCH stopped:true stops a running test: teardown and the summary
// still come, and the exit code is k6's 103.
func TestStopThroughRESTAPI(t *testing.T) {
	t.Parallel()
	addr := freeLoopbackAddr(t)
	run := invocation{args: []string{"run", "-q", "-a", addr, script("signal.js")}}.start(t, binary)
	run.log.await(t, signalRunning)
	body := `{"data":{"type":"status","id":"default","attributes":{"stopped":true}}}`
	code, doc, ok := apiCall(http.MethodPatch, addr, "/v1/status", body)
	if stopped, _ := lookup(doc, "data", "attributes", "stopped"); !ok || code != http.StatusOK || stopped != true {
		t.Fatalf("stop: %d %v", code, doc)
	}
	r := run.out()
	r.wantCode(t, 103)
	if line := r.errorLine(t); !strings.Contains(line, "REST API") {
		t.Errorf("error line %q does not say the REST API stopped the test", line)
	}
	if !strings.Contains(r.stderr, signalTeardown) || !strings.Contains(r.stdout, "TOTAL RESULTS") {
		t.Errorf("a stopped test must still run teardown and print its summary:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}

// --linger keeps the process and its REST API up after the test, until
// SIGINT; the summary follows and the exit code is the test's own.
func TestLingerUntilSignal(t *testing.T) {
	t.Parallel()
	addr := freeLoopbackAddr(t)
	run := invocation{args: []string{"run", "--linger", "-a", addr, script("operator.js"),
		"--tag", "instance_id=0", "--tag", "testrun_name=demo"}}.start(t, binary)
	eventually.True(t, "the test ends", func() bool { return runStatus(t, addr)["status"] == 9.0 })
	run.log.await(t, "--linger")
	select {
	case <-run.exited:
		t.Fatal("the process exited while lingering")
	case <-time.After(100 * time.Millisecond):
	}
	_, doc, _ := apiCall(http.MethodGet, addr, "/v1/metrics/iterations", "")
	if n, _ := lookup(doc, "data", "attributes", "sample", "count"); n != 6.0 {
		t.Errorf("iterations while lingering = %v, want 6", n)
	}
	if err := run.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	r := run.out()
	r.wantCode(t, 0)
	if !strings.Contains(r.stdout, "TOTAL RESULTS") {
		t.Errorf("no summary after lingering:\n%s", r.stdout)
	}
}

// An address the REST API cannot listen on stops the run before it
// starts, with k6's exit code 106 and the address named.
func TestRESTAPIAddressInUse(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r := run(t, "run", "-q", "--address", l.Addr().String(), script("operator.js"))
	r.wantCode(t, 106)
	if line := r.errorLine(t); !strings.Contains(line, l.Addr().String()) {
		t.Errorf("error line %q does not name the address", line)
	}
}

// Invoked as k6, every subcommand works as under its own name.
func TestInvokedAsK6(t *testing.T) {
	t.Parallel()
	k6 := k6Binary(t)
	for _, args := range [][]string{
		{"version"},
		{"inspect", script("operator.js")},
		{"run", "-q", "--no-summary", script("operator.js"), "--tag", "instance_id=0", "--tag", "testrun_name=demo"},
	} {
		r := invocation{args: args}.start(t, k6).out()
		r.wantCode(t, 0)
		if args[0] == "inspect" && !json.Valid([]byte(r.stdout)) {
			t.Errorf("k6 inspect printed no JSON document:\n%s", r.stdout)
		}
	}
}

// String returns what was written so far.
func (w *watcher) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.text.String()
}

// apiCallWith is apiCall with extra request headers.
func apiCallWith(method, addr, path, body string, hdr map[string]string) (status int, doc map[string]any, ok bool) {
	req, err := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, false
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	client := http.Client{Timeout: 2 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, false
	}
	defer resp.Body.Close()
	_ = json.NewDecoder(resp.Body).Decode(&doc)
	return resp.StatusCode, doc, true
}

// With K6_API_TOKEN set, the runner's REST API answers 401 without the
// token (GET /ping excepted) and 403 to a web page's post, logging the
// refusal, and the starter's PATCH with the token runs the test; the
// token shows in no log line.
func TestRESTAPIAccess(t *testing.T) {
	t.Parallel()
	const token = "e2e-s3cret-api-token"
	addr := freeLoopbackAddr(t)
	run := invocation{args: []string{"run", "-q", "--no-summary", "-a", addr, "--paused", script("operator.js"),
		"--tag", "instance_id=0", "--tag", "testrun_name=demo"}, env: []string{"K6_API_TOKEN=" + token}}.start(t, binary)
	auth := map[string]string{"Authorization": "Bearer " + token}
	eventually.True(t, "GET /ping answers", func() bool {
		code, _, ok := apiCallWith(http.MethodGet, addr, "/ping", "", nil)
		return ok && code == http.StatusOK
	})
	if code, doc, _ := apiCallWith(http.MethodGet, addr, "/v1/status", "", nil); code != http.StatusUnauthorized {
		t.Errorf("GET /v1/status without the token: %d %v, want 401", code, doc)
	}
	if code, doc, _ := apiCallWith(http.MethodPatch, addr, "/v1/status", starterPatch, map[string]string{"Authorization": "Bearer nope"}); code != http.StatusUnauthorized {
		t.Errorf("PATCH with another token: %d %v, want 401", code, doc)
	}
	page := map[string]string{"Authorization": "Bearer " + token, "Origin": "http://evil.example"}
	if code, doc, _ := apiCallWith(http.MethodPost, addr, "/v1/teardown", "", page); code != http.StatusForbidden {
		t.Errorf("POST /v1/teardown from a web page: %d %v, want 403", code, doc)
	}
	run.log.await(t, "refused POST")
	eventually.True(t, "the runner waits paused", func() bool {
		_, doc, _ := apiCallWith(http.MethodGet, addr, "/v1/status", "", auth)
		s, _ := lookup(doc, "data", "attributes", "status")
		return s == 4.0
	})
	if code, doc, _ := apiCallWith(http.MethodPatch, addr, "/v1/status", starterPatch, auth); code != http.StatusOK {
		t.Fatalf("starter PATCH with the token: %d %v", code, doc)
	}
	r := run.out()
	r.wantCode(t, 0)
	if strings.Contains(r.stderr, token) {
		t.Errorf("stderr holds the token:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "reachable beyond this machine") {
		t.Errorf("a loopback API warned that it is exposed:\n%s", r.stderr)
	}
}
