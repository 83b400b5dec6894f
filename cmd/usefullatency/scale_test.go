package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A REST API that records the PATCH and answers with the status, or with
// k6's error document when vus is above 4.
func fakeAPI(t *testing.T, got *map[string]any, auth *string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPatch || r.URL.Path != "/v1/status" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("request %s %s (%s), want a JSON PATCH /v1/status", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		}
		*auth = r.Header.Get("Authorization")
		raw, _ := io.ReadAll(r.Body)
		var doc struct {
			Data struct{ Attributes map[string]any } `json:"data"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Errorf("body %s: %v", raw, err)
		}
		*got = doc.Data.Attributes
		if vus, _ := doc.Data.Attributes["vus"].(float64); vus > 4 {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"errors":[{"status":"400","title":"Config update error","detail":"invalid configuration supplied: the number of active VUs (5) must be less than or equal to the number of maxVUs (4)"}]}`)
			return
		}
		io.WriteString(w, `{"data":{"type":"status","id":"default","attributes":{"status":7,"paused":false,"vus":3,"vus-max":4,"stopped":false,"running":true,"tainted":false}}}`)
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// scale sends only the counts given, with the token of K6_API_TOKEN (or
// --api-token), and prints the status as k6 scale does; a refusal is one
// ERRO line "title: detail" and exit 255; no count is exit 2.
func TestScaleCommand(t *testing.T) {
	var got map[string]any
	var auth string
	addr := fakeAPI(t, &got, &auth)
	t.Setenv("K6_API_TOKEN", "from-env")

	code, stdout, stderr := invoke("scale", "-u", "3", "--address", addr)
	want := "status: 7\npaused: \"false\"\nvus: \"3\"\nvus-max: \"4\"\nstopped: false\nrunning: true\ntainted: false\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("scale -u 3: exit %d\nstdout %q\nstderr %q\nwant 0 and\n%q", code, stdout, stderr, want)
	}
	if len(got) != 1 || got["vus"] != 3.0 || auth != "Bearer from-env" {
		t.Errorf("sent %v with %q, want only vus 3 and the token of K6_API_TOKEN", got, auth)
	}

	invoke("scale", "--max", "8", "-a", addr, "--api-token", "flag")
	if len(got) != 1 || got["vus-max"] != 8.0 || auth != "Bearer flag" {
		t.Errorf("sent %v with %q, want only vus-max 8 and the flag's token", got, auth)
	}

	code, stdout, stderr = invoke("scale", "-u", "5", "-a", addr)
	if code != exitScaleFailed || stdout != "" || strings.Count(stderr, "\n") != 1 ||
		!strings.Contains(stderr, "ERRO Config update error: invalid configuration supplied: the number of active VUs (5)") {
		t.Errorf("refused scale: exit %d, stdout %q, stderr %q; want 255 and one ERRO line", code, stdout, stderr)
	}

	if code, _, stderr := invoke("scale", "-a", addr); code != exitUsage || !strings.Contains(stderr, "specify either -u/--vus or -m/--max") {
		t.Errorf("scale without counts: exit %d, %q", code, stderr)
	}
}

// With no test listening, scale says so on one line and exits 255.
func TestScaleWithoutTest(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := strings.TrimPrefix(srv.URL, "http://")
	srv.Close()
	code, stdout, stderr := invoke("scale", "-u", "1", "-a", addr)
	if code != exitScaleFailed || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "no test answers on "+addr) {
		t.Errorf("exit %d, stdout %q, stderr %q; want 255 and one line saying no test answers", code, stdout, stderr)
	}
}
