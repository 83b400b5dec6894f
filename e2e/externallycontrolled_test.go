package e2e

import (
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// An externally-controlled scenario runs one VU until `usefullatency
// scale --vus 3` adds two, over a REST API that takes a token (K6_API_TOKEN
// for both commands); scale prints the status as k6 scale does and
// refuses vus above vus-max with exit 255 and k6's message; the stop
// through the API exits 103 and the summary export shows iterations from
// exactly VUs 1, 2 and 3.
func TestExternallyControlledScale(t *testing.T) {
	t.Parallel()
	const token = "e2e-scale-token"
	env := []string{"K6_API_TOKEN=" + token}
	auth := map[string]string{"Authorization": "Bearer " + token}
	addr := freeLoopbackAddr(t)
	out := filepath.Join(t.TempDir(), "summary.json")
	run := invocation{args: []string{"run", "-q", "--address", addr, "--summary-export", out,
		script("externallycontrolled/scale.js")}, env: env}.start(t, binary)
	attrs := func() map[string]any {
		_, doc, _ := apiCallWith(http.MethodGet, addr, "/v1/status", "", auth)
		a, _ := lookup(doc, "data", "attributes")
		m, _ := a.(map[string]any)
		return m
	}
	eventually.True(t, "one VU of 4 runs", func() bool {
		a := attrs()
		return a["running"] == true && a["vus"] == 1.0 && a["vus-max"] == 4.0
	})

	scaled := invocation{args: []string{"scale", "--vus", "3", "--address", addr}, env: env}.run(t)
	scaled.wantCode(t, 0)
	for _, line := range []string{"status: 7\n", "vus: \"3\"\n", "vus-max: \"4\"\n", "running: true\n"} {
		if !strings.Contains(scaled.stdout, line) {
			t.Errorf("scale printed no %q:\n%s", line, scaled.stdout)
		}
	}
	if a := attrs(); a["vus"] != 3.0 {
		t.Errorf("status after the scale: %v, want 3 VUs active", a)
	}
	eventually.True(t, "VU 3 runs iterations", func() bool {
		code, _, _ := apiCallWith(http.MethodGet, addr, "/v1/metrics/"+url.PathEscape("iterations_by_vu{vu:3}"), "", auth)
		return code == http.StatusOK
	})

	refused := invocation{args: []string{"scale", "-u", "5", "-a", addr}, env: env}.run(t)
	refused.wantCode(t, 255)
	if line := refused.errorLine(t); !strings.Contains(line,
		"Config update error: invalid configuration supplied: the number of active VUs (5) must be less than or equal to the number of maxVUs (4)") {
		t.Errorf("refused scale's error line %q, want k6's message", line)
	}

	code, doc, _ := apiCallWith(http.MethodPatch, addr, "/v1/status", `{"data":{"type":"status","id":"default","attributes":{"stopped":true}}}`, auth)
	if code != http.StatusOK {
		t.Fatalf("stop: %d %v", code, doc)
	}
	run.out().wantCode(t, 103)
	exp := export(t, out)
	for _, vu := range []string{"1", "2", "3"} {
		if n := number(t, exp, "metrics", "iterations_by_vu{vu:"+vu+"}", "count"); n < 1 {
			t.Errorf("VU %s ran %v iterations, want some", vu, n)
		}
	}
	if n, ok := lookup(exp, "metrics", "iterations_by_vu{vu:4}", "count"); ok && n != 0.0 {
		t.Errorf("VU 4, never active, ran %v iterations", n)
	}
}

// inspect --execution-requirements counts the scenario's maxVUs for its
// duration, with no graceful stop.
func TestExternallyControlledRequirements(t *testing.T) {
	t.Parallel()
	r := run(t, "inspect", "--execution-requirements", script("externallycontrolled/scale.js"))
	r.wantCode(t, 0)
	var got struct {
		TotalDuration string                    `json:"totalDuration"`
		MaxVUs        int64                     `json:"maxVUs"`
		Scenarios     map[string]map[string]any `json:"scenarios"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if got.TotalDuration != "10s" || got.MaxVUs != 4 || got.Scenarios["ext"]["executor"] != "externally-controlled" {
		t.Errorf("requirements %s, %d VUs, scenario %v; want 10s, 4, the externally-controlled one", got.TotalDuration, got.MaxVUs, got.Scenarios["ext"])
	}
}
