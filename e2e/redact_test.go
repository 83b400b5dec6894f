package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretsRedacted runs a script whose request URL carries a password and
// an api_key, with a Prometheus remote-write URL and an InfluxDB URL that
// have a password (and dead endpoints, so their errors are printed), a JSON output, a summary
// export and an HTML report: no secret may appear in stdout, stderr or any
// file; the redacted forms do.
func TestSecretsRedacted(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	t.Cleanup(srv.Close)
	target := strings.Replace(srv.URL, "http://", "http://carol:pw-s3cret@", 1)
	dir := t.TempDir()
	prom := "http://alice:hunter2-s3cret@" + freeLoopbackAddr(t) + "/api/v1/write?token=t0k-s3cret"
	influx := "http://bob:influx-s3cret@" + freeLoopbackAddr(t) + "/k6"
	r := invocation{
		args: []string{"run", "-o", "experimental-prometheus-rw=" + prom, "-o", "influxdb=" + influx, "-o", "json=" + filepath.Join(dir, "out.json"),
			"--summary-export", filepath.Join(dir, "summary.json"), "--report", filepath.Join(dir, "report.html"), script("redact.js")},
		env: []string{"TARGET=" + target},
	}.run(t)
	r.wantCode(t, 0)
	texts := map[string]string{"stdout": r.stdout, "stderr": r.stderr}
	for _, f := range []string{"out.json", "summary.json", "report.html"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = string(b)
	}
	for where, text := range texts {
		if strings.Contains(text, "s3cret") {
			i := strings.Index(text, "s3cret")
			t.Errorf("%s holds a secret: …%s…", where, text[max(0, i-120):min(len(text), i+40)])
		}
	}
	for _, want := range []string{"alice:REDACTED@", "bob:REDACTED@", "api_key=REDACTED"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(texts["out.json"], "api_key=REDACTED&limit=2") {
		t.Errorf("out.json lacks the redacted url tag")
	}
}
