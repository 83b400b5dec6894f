package api

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/runner"
)

// startExternal runs testdata/external.js with env behind the API.
func startExternal(t *testing.T, env map[string]string) *liveRun {
	t.Helper()
	var errs bytes.Buffer
	test, err := runner.Load("testdata/external.js", env, &errs)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := options.Consolidate(test.ScriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	opts.Quiet, opts.NoSummary = true, true
	ctl := runner.NewControl(test, opts)
	srv := httptest.NewServer(Handler(ctl))
	t.Cleanup(srv.Close)
	r := &liveRun{ctl: ctl, base: srv.URL, done: make(chan int, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		code, err := test.Execute(ctx, runner.Config{Options: opts, Stdout: io.Discard, Stderr: &bytes.Buffer{}, Control: ctl})
		if err != nil {
			t.Errorf("execute: %v", err)
		}
		r.done <- code
	}()
	return r
}

// patch sends PATCH /v1/status with attributes and returns the answer.
func (r *liveRun) patch(t *testing.T, attributes string) (int, any) {
	t.Helper()
	return call(t, http.MethodPatch, r.base+"/v1/status", `{"data":{"type":"status","id":"default","attributes":`+attributes+`}}`)
}

// statusOf returns the status attributes the API reports now.
func (r *liveRun) statusOf(t *testing.T) any {
	t.Helper()
	return at(get(t, r.base+"/v1/status"), "data", "attributes")
}

// With an externally-controlled scenario, PATCH vus and vus-max change its
// VUs and GET reports them; k6's refusals are 400 "Config update error"
// with k6's messages, and change nothing.
func TestPatchExternallyControlledVUs(t *testing.T) {
	t.Parallel()
	r := startExternal(t, map[string]string{})
	eventually.True(t, "one VU runs", func() bool { return at(r.statusOf(t), "vus") == 1.0 })
	if s := r.statusOf(t); at(s, "vus-max") != 2.0 {
		t.Errorf("status %v, want vus-max 2", s)
	}
	code, v := r.patch(t, `{"vus":4,"vus-max":4}`)
	if code != http.StatusOK || at(v, "data", "attributes", "vus") != 4.0 || at(v, "data", "attributes", "vus-max") != 4.0 {
		t.Fatalf("scale to 4: %d %v, want the status with 4 VUs of 4", code, v)
	}
	// Each of the four VUs runs an iteration while all four are active.
	for _, vu := range []string{"1", "2", "3", "4"} {
		eventually.True(t, "VU "+vu+" runs an iteration", func() bool { return r.ranIteration(t, vu) })
	}
	for _, tc := range []struct{ attributes, detail string }{
		{`{"vus":5}`, "invalid configuration supplied: the number of active VUs (5) must be less than or equal to the number of maxVUs (4)"},
		{`{"vus":-1}`, "invalid configuration supplied: the number of VUs can't be negative"},
		{`{"vus-max":1,"vus":1}`, "the new number of max VUs cannot be lower than the starting number of max VUs (2)"},
	} {
		code, v := r.patch(t, tc.attributes)
		wantShape(t, tc.attributes, v, errorShape)
		if code != http.StatusBadRequest || at(v, "errors", 0, "title") != "Config update error" || at(v, "errors", 0, "detail") != tc.detail {
			t.Errorf("PATCH %s: %d %v, want 400 Config update error %q", tc.attributes, code, v, tc.detail)
		}
	}
	// Lowering vus-max to the scenario's own gives the VUs above it up.
	if code, v := r.patch(t, `{"vus":2,"vus-max":2}`); code != http.StatusOK ||
		at(v, "data", "attributes", "vus") != 2.0 || at(v, "data", "attributes", "vus-max") != 2.0 {
		t.Errorf("scale to 2 of 2: %d %v", code, v)
	}
	r.patch(t, `{"stopped":true}`)
	if c := r.wait(t); c != runner.ExitStoppedFromAPI {
		t.Fatalf("exit %d, want %d", c, runner.ExitStoppedFromAPI)
	}
	// The iterations of all four VUs are still reported after the stop.
	for _, vu := range []string{"1", "2", "3", "4"} {
		if !r.ranIteration(t, vu) {
			t.Errorf("VU %s: no iteration reported after the stop", vu)
		}
	}
}

// ranIteration reports whether the by_vu sub-metric of the VU has
// samples, that is whether the VU finished an iteration.
func (r *liveRun) ranIteration(t *testing.T, vu string) bool {
	t.Helper()
	code, _ := call(t, http.MethodGet, r.base+"/v1/metrics/"+neturl.PathEscape("by_vu{vu:"+vu+"}"), "")
	return code == http.StatusOK
}

// A running test whose scenarios are all externally-controlled pauses
// and resumes as in k6: paused is reported, no VU is active meanwhile,
// and a second pause or a resume of a running test is a 500 Pause error.
func TestPatchPausesExternallyControlled(t *testing.T) {
	t.Parallel()
	r := startExternal(t, map[string]string{})
	eventually.True(t, "one VU runs", func() bool { return at(r.statusOf(t), "vus") == 1.0 })
	if code, v := r.patch(t, `{"paused":false}`); code != http.StatusInternalServerError ||
		at(v, "errors", 0, "detail") != "test execution wasn't paused" {
		t.Errorf("resuming a running test: %d %v", code, v)
	}
	code, v := r.patch(t, `{"paused":true}`)
	if code != http.StatusOK || at(v, "data", "attributes", "paused") != true || at(v, "data", "attributes", "vus") != 0.0 {
		t.Fatalf("pause: %d %v, want paused with no VU active", code, v)
	}
	if code, v := r.patch(t, `{"paused":true}`); code != http.StatusInternalServerError ||
		at(v, "errors", 0, "title") != "Pause error" || at(v, "errors", 0, "detail") != "test execution was already paused" {
		t.Errorf("pausing a paused test: %d %v", code, v)
	}
	// A change while paused is kept: the VUs start at the resume.
	if code, v := r.patch(t, `{"vus":2}`); code != http.StatusOK || at(v, "data", "attributes", "vus") != 0.0 {
		t.Errorf("scale while paused: %d %v, want 200 and no VU active", code, v)
	}
	if code, v := r.patch(t, `{"paused":false}`); code != http.StatusOK || at(v, "data", "attributes", "paused") != false {
		t.Fatalf("resume: %d %v", code, v)
	}
	eventually.True(t, "two VUs run after the resume", func() bool { return at(r.statusOf(t), "vus") == 2.0 })
	r.patch(t, `{"stopped":true}`)
	r.wait(t)
}

// With a scenario of another executor the test cannot be paused, as in
// k6, and the error names that scenario; vus still reach the
// externally-controlled one.
func TestPatchMixedScenarios(t *testing.T) {
	t.Parallel()
	r := startExternal(t, map[string]string{"MIXED": "1"})
	eventually.True(t, "both scenarios run", func() bool { return at(r.statusOf(t), "vus") == 2.0 })
	code, v := r.patch(t, `{"paused":true}`)
	if detail, _ := at(v, "errors", 0, "detail").(string); code != http.StatusInternalServerError ||
		!strings.Contains(detail, "constant-vus executor 'steady'") {
		t.Errorf("pausing a test with a constant-vus scenario: %d %v", code, v)
	}
	if code, v := r.patch(t, `{"vus":2}`); code != http.StatusOK || at(v, "data", "attributes", "vus") != 3.0 {
		t.Errorf("scale the externally-controlled scenario: %d %v, want 3 VUs active in all", code, v)
	}
	r.patch(t, `{"stopped":true}`)
	r.wait(t)
}

// Without an externally-controlled scenario, vus and vus-max are refused
// with k6's 500 and message.
func TestPatchVUsWithoutExternallyControlled(t *testing.T) {
	t.Parallel()
	r := startRun(t, map[string]string{"DURATION": "30s"}, func(*options.Options) {})
	eventually.True(t, "the test runs", func() bool { return at(get(t, r.base+"/v1/status"), "data", "attributes", "running") == true })
	code, v := call(t, http.MethodPatch, r.base+"/v1/status", `{"data":{"attributes":{"vus-max":5}}}`)
	if code != http.StatusInternalServerError || at(v, "errors", 0, "title") != "Execution config error" ||
		at(v, "errors", 0, "detail") != runner.ErrNotExternallyControlled.Error() {
		t.Errorf("PATCH vus-max: %d %v", code, v)
	}
	r.ctl.Stop()
	select {
	case <-r.done:
	case <-time.After(eventually.Deadline):
		t.Fatal("the run did not end")
	}
}
