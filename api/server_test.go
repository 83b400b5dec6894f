package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/runner"
)

// starterBody is what k6-operator's starter job PATCHes to every runner.
const starterBody = `{"data":{"attributes":{"paused":false,"stopped":false},"id":"default","type":"status"}}`

// liveRun is testdata/api.js running in the background behind the API.
type liveRun struct {
	ctl  *runner.Control
	base string
	done chan int
}

// startRun loads api.js with env, applies edit to its options, serves its
// REST API's routes on an httptest server and starts the run.
func startRun(t *testing.T, env map[string]string, edit func(*options.Options)) *liveRun {
	t.Helper()
	return startRunOn(t, env, edit, func(ctl *runner.Control) string {
		srv := httptest.NewServer(Handler(ctl))
		t.Cleanup(srv.Close)
		return srv.URL
	})
}

// startRunOn is startRun with the REST API served by serve, which returns
// its base URL.
func startRunOn(t *testing.T, env map[string]string, edit func(*options.Options), serve func(*runner.Control) string) *liveRun {
	t.Helper()
	var errs bytes.Buffer
	test, err := runner.Load("testdata/api.js", env, &errs)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := options.Consolidate(test.ScriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	opts.Quiet, opts.NoSummary = true, true
	edit(&opts)
	ctl := runner.NewControl(test, opts)
	r := &liveRun{ctl: ctl, base: serve(ctl), done: make(chan int, 1)}
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

// wait returns the run's exit code.
func (r *liveRun) wait(t *testing.T) int {
	t.Helper()
	select {
	case code := <-r.done:
		return code
	case <-time.After(eventually.Deadline):
		t.Fatal("the run did not end")
		return -1
	}
}

// call sends a request and decodes the JSON answer (nil for an empty
// body).
func call(t *testing.T, method, url, body string) (int, any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) == 0 {
		return resp.StatusCode, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s %s: answer is not JSON: %v\n%s", method, url, err, raw)
	}
	return resp.StatusCode, v
}

// get is call for a GET that must answer 200.
func get(t *testing.T, url string) any {
	t.Helper()
	code, v := call(t, http.MethodGet, url, "")
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, code, v)
	}
	return v
}

// at walks a decoded JSON document along object keys and array indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// shape maps a decoded JSON value to its skeleton: objects keep their keys
// with their values' shapes, arrays the shape of their first element (or
// "[]" when empty), and scalars become "number", "string", "bool" or
// "null".
func shape(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = shape(e)
		}
		return out
	case []any:
		if len(x) == 0 {
			return "[]"
		}
		return []any{shape(x[0])}
	case float64:
		return "number"
	case string:
		return "string"
	case bool:
		return "bool"
	}
	return "null"
}

// wantShape fails the test unless v has the skeleton want.
func wantShape(t *testing.T, what string, v, want any) {
	t.Helper()
	if got := shape(v); !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s has the shape\n%s\nwant (k6's documented one)\n%s", what, g, w)
	}
}

type obj = map[string]any

// The skeletons of k6's documented REST API examples (field names and
// JSON types), written out from the k6 REST API reference.
var (
	statusShape = obj{"data": obj{"type": "string", "id": "string", "attributes": obj{
		"status": "number", "paused": "bool", "vus": "number", "vus-max": "number",
		"stopped": "bool", "running": "bool", "tainted": "bool"}}}
	trendShape = obj{"type": "string", "id": "string", "attributes": obj{
		"type": "string", "contains": "string", "tainted": "null", "sample": obj{
			"min": "number", "max": "number", "avg": "number", "med": "number", "p(90)": "number", "p(95)": "number"}}}
	counterShape = obj{"type": "string", "id": "string", "attributes": obj{
		"type": "string", "contains": "string", "tainted": "null", "sample": obj{"count": "number", "rate": "number"}}}
	groupShape = func(checks, children, parent any) obj {
		return obj{"type": "string", "id": "string",
			"attributes":    obj{"path": "string", "name": "string", "checks": checks},
			"relationships": obj{"groups": obj{"data": children}, "parent": obj{"data": parent}}}
	}
	refShape   = obj{"type": "string", "id": "string"}
	checkShape = []any{obj{"id": "string", "path": "string", "name": "string", "passes": "number", "fails": "number"}}
	errorShape = obj{"errors": []any{obj{"status": "string", "title": "string", "detail": "string"}}}
)

// A paused run answers its status and no samples until the starter's
// PATCH, then runs to the end; every document keeps k6's shape.
func TestPausedRunStartsOnPatch(t *testing.T) {
	t.Parallel()
	r := startRun(t, map[string]string{}, func(o *options.Options) { o.Paused = true })
	eventually.True(t, "the run waits paused", func() bool {
		return at(get(t, r.base+"/v1/status"), "data", "attributes", "status") == float64(runner.StatusPausedBeforeRun)
	})
	st := get(t, r.base+"/v1/status")
	wantShape(t, "GET /v1/status", st, statusShape)
	if a := at(st, "data", "attributes"); at(a, "paused") != true || at(a, "vus-max") != 2.0 || at(a, "running") != false {
		t.Errorf("paused status attributes = %v", a)
	}
	if m := get(t, r.base+"/v1/metrics"); !reflect.DeepEqual(m, obj{"data": []any{}}) {
		t.Fatalf("metrics while paused = %v, want no metric", m)
	}
	if resp, err := http.Get(r.base + "/ping"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("/ping while paused: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	code, v := call(t, http.MethodPatch, r.base+"/v1/status", starterBody)
	if code != http.StatusOK || at(v, "data", "attributes", "paused") != false {
		t.Fatalf("starter PATCH: %d %v", code, v)
	}
	wantShape(t, "PATCH /v1/status", v, statusShape)
	if code := r.wait(t); code != runner.ExitOK {
		t.Fatalf("exit %d", code)
	}
	if got := at(get(t, r.base+"/v1/status"), "data", "attributes", "status"); got != float64(runner.StatusEnded) {
		t.Errorf("status after the run = %v, want %d (ended)", got, runner.StatusEnded)
	}
	checkDocuments(t, r.base)
}

// checkDocuments asserts the metrics, groups and setup documents of a
// finished run of api.js.
func checkDocuments(t *testing.T, base string) {
	t.Helper()
	it := get(t, base+"/v1/metrics/iterations")
	wantShape(t, "GET /v1/metrics/iterations", it, obj{"data": counterShape})
	if n := at(it, "data", "attributes", "sample", "count"); n != 4.0 {
		t.Errorf("iterations count = %v, want 4", n)
	}
	byID := map[string]any{}
	for _, m := range at(get(t, base+"/v1/metrics"), "data").([]any) {
		byID[at(m, "id").(string)] = m
	}
	wantShape(t, "the wait_time trend", byID["wait_time"], trendShape)
	for id, want := range map[string]any{
		"wait_time": obj{"type": "trend", "contains": "time"}, "ok_rate": obj{"type": "rate", "contains": "default", "tainted": false},
		"level": obj{"type": "gauge", "contains": "default"},
	} {
		attrs, _ := at(byID[id], "attributes").(map[string]any)
		for k, v := range want.(map[string]any) {
			if attrs[k] != v {
				t.Errorf("%s: %s = %v, want %v", id, k, attrs[k], v)
			}
		}
	}
	if s := at(byID["level"], "attributes", "sample"); !reflect.DeepEqual(s, obj{"value": 3.0}) {
		t.Errorf("gauge sample = %v", s)
	}
	if s := at(byID["ok_rate"], "attributes", "sample"); !reflect.DeepEqual(s, obj{"rate": 1.0}) {
		t.Errorf("rate sample = %v", s)
	}
	if _, ok := byID["dropped_iterations"]; ok {
		t.Error("a metric without samples is listed")
	}
	checkGroups(t, base)
	setup := get(t, base+"/v1/setup")
	wantShape(t, "GET /v1/setup", setup, obj{"data": obj{"type": "string", "id": "string", "attributes": obj{"data": obj{"token": "string"}}}})
}

// checkGroups asserts the root group and its one child "visit".
func checkGroups(t *testing.T, base string) {
	t.Helper()
	groups := get(t, base+"/v1/groups")
	wantShape(t, "GET /v1/groups", groups, obj{"data": []any{groupShape("null", []any{refShape}, "null")}})
	list := at(groups, "data").([]any)
	if len(list) != 2 || at(list[1], "attributes", "path") != "::visit" {
		t.Fatalf("groups = %v, want the root and ::visit", list)
	}
	rootID, visitID := at(list[0], "id"), at(list[1], "id").(string)
	if rootID != "d41d8cd98f00b204e9800998ecf8427e" {
		t.Errorf("root group id = %v, want the MD5 of the empty path", rootID)
	}
	visit := get(t, base+"/v1/groups/"+visitID)
	wantShape(t, "GET /v1/groups/{id}", visit, obj{"data": groupShape(checkShape, "[]", refShape)})
	if c := at(visit, "data", "attributes", "checks", 0); at(c, "passes") != 4.0 || at(c, "fails") != 0.0 || at(c, "path") != "::visit::one is one" {
		t.Errorf("check = %v, want 4 passes of ::visit::one is one", c)
	}
	if p := at(visit, "data", "relationships", "parent", "data", "id"); p != rootID {
		t.Errorf("parent of visit = %v, want the root %v", p, rootID)
	}
	code, v := call(t, http.MethodGet, base+"/v1/groups/nope", "")
	if code != http.StatusNotFound {
		t.Errorf("unknown group: %d", code)
	}
	wantShape(t, "a 404", v, errorShape)
}

// PATCH /v1/status refuses what k6 refuses, with one error in k6's error
// document whose status is the HTTP status.
func TestPatchStatusErrors(t *testing.T) {
	t.Parallel()
	r := startRun(t, map[string]string{}, func(o *options.Options) { o.Paused = true })
	eventually.True(t, "the run waits paused", func() bool {
		return at(get(t, r.base+"/v1/status"), "data", "attributes", "status") == float64(runner.StatusPausedBeforeRun)
	})
	for _, tc := range []struct{ name, method, body, title string }{
		{"not JSON", http.MethodPatch, `{"data":`, "Invalid data"},
		{"wrong type", http.MethodPatch, `{"data":{"attributes":{"paused":"no"}}}`, "Invalid data"},
		{"pause a paused test", http.MethodPatch, `{"data":{"attributes":{"paused":true}}}`, "Pause error"},
		{"change vus", http.MethodPatch, `{"data":{"attributes":{"vus":5}}}`, "Execution config error"},
		{"unknown metric", http.MethodGet, "", "Not Found"},
	} {
		url := r.base + "/v1/status"
		if tc.method == http.MethodGet {
			url = r.base + "/v1/metrics/nope"
		}
		code, v := call(t, tc.method, url, tc.body)
		wantShape(t, tc.name, v, errorShape)
		if code < 400 || at(v, "errors", 0, "title") != tc.title || at(v, "errors", 0, "status") != strconv.Itoa(code) {
			t.Errorf("%s: %d %v, want an error titled %q", tc.name, code, v, tc.title)
		}
	}
	if code, _ := call(t, http.MethodDelete, r.base+"/v1/status", ""); code != http.StatusMethodNotAllowed {
		t.Errorf("DELETE /v1/status: %d, want 405", code)
	}
	code, v := call(t, http.MethodPatch, r.base+"/v1/status", starterBody)
	if code != http.StatusOK {
		t.Fatalf("resume: %d %v", code, v)
	}
	if c := r.wait(t); c != runner.ExitOK {
		t.Fatalf("exit %d", c)
	}
	code, v = call(t, http.MethodPatch, r.base+"/v1/status", `{"data":{"attributes":{"paused":true}}}`)
	if code != http.StatusInternalServerError || !strings.Contains(at(v, "errors", 0, "detail").(string), "shared-iterations executor 'main'") {
		t.Errorf("pausing a started test: %d %v, want a 500 naming the executor", code, v)
	}
}

// PATCH stopped:true ends a running test with k6's exit code 103, after
// teardown.
func TestStopOverHTTP(t *testing.T) {
	t.Parallel()
	r := startRun(t, map[string]string{"DURATION": "30s"}, func(*options.Options) {})
	eventually.True(t, "iterations run", func() bool {
		code, v := call(t, http.MethodGet, r.base+"/v1/metrics/iterations", "")
		return code == http.StatusOK && at(v, "data", "attributes", "sample", "count").(float64) >= 2
	})
	code, v := call(t, http.MethodPatch, r.base+"/v1/status", `{"data":{"type":"status","id":"default","attributes":{"stopped":true}}}`)
	if code != http.StatusOK || at(v, "data", "attributes", "stopped") != true {
		t.Fatalf("stop: %d %v", code, v)
	}
	if c := r.wait(t); c != runner.ExitStoppedFromAPI {
		t.Fatalf("exit %d, want %d", c, runner.ExitStoppedFromAPI)
	}
	if n := at(get(t, r.base+"/v1/metrics/teardowns"), "data", "attributes", "sample", "count"); n != 1.0 {
		t.Errorf("teardowns = %v, want 1", n)
	}
	if s := at(get(t, r.base+"/v1/status"), "data", "attributes", "status"); s != float64(runner.StatusInterrupted) {
		t.Errorf("status = %v, want %d (interrupted)", s, runner.StatusInterrupted)
	}
}

// With --no-setup, setup data PUT while paused reaches every iteration;
// POST /v1/setup runs setup() and POST /v1/teardown teardown().
func TestSetupAndTeardownOverHTTP(t *testing.T) {
	t.Parallel()
	r := startRun(t, map[string]string{"WANT_TOKEN": "put"}, func(o *options.Options) { o.Paused, o.NoSetup = true, true })
	eventually.True(t, "the run waits paused", func() bool {
		return at(get(t, r.base+"/v1/status"), "data", "attributes", "status") == float64(runner.StatusPausedBeforeRun)
	})
	if v := get(t, r.base+"/v1/setup"); !reflect.DeepEqual(v, obj{"data": obj{"type": "setupData", "id": "default", "attributes": obj{}}}) {
		t.Errorf("setup data before any = %v, want empty attributes", v)
	}
	code, v := call(t, http.MethodPut, r.base+"/v1/setup", `{"token": "put", "n": [1, 2]}`)
	if code != http.StatusOK || at(v, "data", "attributes", "data", "token") != "put" {
		t.Fatalf("PUT /v1/setup: %d %v", code, v)
	}
	if code, v := call(t, http.MethodPut, r.base+"/v1/setup", `{"token":`); code != http.StatusBadRequest {
		t.Errorf("PUT of bad JSON: %d %v, want 400", code, v)
	}
	call(t, http.MethodPatch, r.base+"/v1/status", starterBody)
	if c := r.wait(t); c != runner.ExitOK {
		t.Fatalf("exit %d", c)
	}
	if n := at(get(t, r.base+"/v1/metrics/token_seen"), "data", "attributes", "sample", "count"); n != 4.0 {
		t.Errorf("iterations that saw the PUT setup data = %v, want 4", n)
	}
	code, v = call(t, http.MethodPost, r.base+"/v1/setup", "")
	if code != http.StatusOK || at(v, "data", "attributes", "data", "token") != "from-setup" {
		t.Errorf("POST /v1/setup: %d %v, want setup()'s data", code, v)
	}
	if code, v := call(t, http.MethodPost, r.base+"/v1/teardown", ""); code != http.StatusOK || v != nil {
		t.Errorf("POST /v1/teardown: %d %v, want an empty 200", code, v)
	}
	if n := at(get(t, r.base+"/v1/metrics/teardowns"), "data", "attributes", "sample", "count"); n != 2.0 {
		t.Errorf("teardowns = %v, want 2 (the run's and the POST's)", n)
	}
}

// Listen serves on a real port until Close, and refuses an address in use
// with an error naming it.
func TestListenAndClose(t *testing.T) {
	t.Parallel()
	test, err := runner.Load("testdata/api.js", map[string]string{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctl := runner.NewControl(test, options.Options{})
	srv, err := Listen("127.0.0.1:0", ctl, Config{})
	if err != nil {
		t.Fatal(err)
	}
	v := get(t, "http://"+srv.Addr()+"/v1/status")
	if s := at(v, "data", "attributes", "status"); s != float64(runner.StatusCreated) {
		t.Errorf("status before Execute = %v, want 0 (created)", s)
	}
	if _, err := Listen(srv.Addr(), ctl, Config{}); err == nil || !strings.Contains(err.Error(), srv.Addr()) {
		t.Errorf("listening twice on %s: %v, want an error naming the address", srv.Addr(), err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get("http://" + srv.Addr() + "/ping"); err == nil {
		t.Error("the server answers after Close")
	}
}
