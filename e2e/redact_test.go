package e2e

import (
	"encoding/base64"
	"fmt"
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

// TestSecretsInMalformedURLs plants secrets in malformed URLs given to
// k6/http, the streaming probe and k6/ws (a bad port, a bad escape, a
// missing ']', a control character: Go's url.Error quotes the whole URL),
// thrown uncaught (the ERRO lines) and caught and printed by the script (the
// exception's own text), and in the query names jwt, code, session and pass
// of a valid request: no secret reaches stderr, the JSON and CSV outputs,
// the summary export or the HTML report.
func TestSecretsInMalformedURLs(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	r := invocation{
		args: []string{"run", "-o", "json=" + filepath.Join(dir, "out.json"), "-o", "csv=" + filepath.Join(dir, "out.csv"),
			"--summary-export", filepath.Join(dir, "summary.json"), "--report", filepath.Join(dir, "report.html"),
			script("redact_malformed.js")},
		env: []string{"TARGET=" + srv.URL},
	}.run(t)
	r.wantCode(t, 0)
	texts := map[string]string{"stdout": r.stdout, "stderr": r.stderr}
	for _, f := range []string{"out.json", "out.csv", "summary.json", "report.html"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = string(b)
	}
	for where, text := range texts {
		if i := strings.Index(text, "s3cret"); i >= 0 {
			t.Errorf("%s holds a secret: …%s…", where, text[max(0, i-160):min(len(text), i+40)])
		}
	}
	if n := strings.Count(r.stderr, "caught: GoError"); n != 6 {
		t.Errorf("%d caught exceptions printed, want 6:\n%s", n, r.stderr)
	}
	for _, want := range []string{"api_key=REDACTED", "u:REDACTED@", "access_token=REDACTED", "token=REDACTED", "password=REDACTED"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(texts["out.json"], "jwt=REDACTED&code=REDACTED&session=REDACTED&pass=REDACTED&limit=2") {
		t.Errorf("out.json lacks the redacted url tag")
	}
}

// TestSecretsInOutputAnswers points the Prometheus remote-write and the
// OpenTelemetry (HTTP) outputs at an endpoint that answers 400 echoing its
// request, Authorization header included: the WARN and ERRO lines quote
// the start of the answer, without the password, its Basic form or the
// header tokens.
func TestSecretsInOutputAnswers(t *testing.T) {
	t.Parallel()
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "rejected %s %s\n", r.Method, r.URL.Path)
		for k, v := range r.Header {
			fmt.Fprintf(w, "%s: %s\n", k, strings.Join(v, ", "))
		}
		_, _ = w.Write([]byte(strings.Repeat("filler ", 3000)))
	}))
	t.Cleanup(echo.Close)
	const password = "rw-pass-s3cret"
	r := invocation{
		args: []string{"run", "-o", "experimental-prometheus-rw=" + echo.URL + "/api/v1/write", "-o", "experimental-opentelemetry",
			script("checks.js")},
		env: []string{"K6_PROMETHEUS_RW_USERNAME=alice", "K6_PROMETHEUS_RW_PASSWORD=" + password,
			"K6_OTEL_EXPORTER_TYPE=http", "K6_OTEL_HTTP_EXPORTER_INSECURE=true",
			"K6_OTEL_HTTP_EXPORTER_ENDPOINT=" + strings.TrimPrefix(echo.URL, "http://"),
			"K6_OTEL_HEADERS=authorization=Bearer otel-tok-s3cret,x-api-key=otel-key-s3cret"},
	}.run(t)
	basic := base64.StdEncoding.EncodeToString([]byte("alice:" + password))
	for _, leak := range []string{"s3cret", basic[:12]} {
		if i := strings.Index(r.stderr, leak); i >= 0 {
			t.Errorf("stderr shows %q: …%s…", leak, r.stderr[max(0, i-160):min(len(r.stderr), i+40)])
		}
	}
	if !strings.Contains(r.stderr, "rejected POST /api/v1/write") || !strings.Contains(r.stderr, "rejected POST /v1/metrics") {
		t.Errorf("stderr does not quote the endpoints' answers:\n%s", r.stderr)
	}
	for line := range strings.SplitSeq(r.stderr, "\n") {
		if strings.Count(line, "filler") > 80 {
			t.Errorf("a line quotes %d bytes of an answer, want at most 512:\n%s", len(line), line)
		}
	}
}

// TestSecretsInModuleURLs imports a remote module over plain http whose
// URL carries a token: the warning about plain http names it redacted.
func TestSecretsInModuleURLs(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("export const answer = 42;\n"))
	}))
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "remote.js")
	src := fmt.Sprintf("import { answer } from '%s/lib.js?token=mod-s3cret';\nexport default function () { if (answer !== 42) throw new Error('no module'); }\n", srv.URL)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := invocation{args: []string{"run", "-q", "--no-summary", path}, env: []string{"XDG_CACHE_HOME=" + t.TempDir()}}.run(t)
	r.wantCode(t, 0)
	if strings.Contains(r.stderr, "s3cret") || !strings.Contains(r.stderr, "lib.js?token=REDACTED") {
		t.Errorf("stderr:\n%s\nwant the module's URL redacted in the plain-http warning", r.stderr)
	}
}
