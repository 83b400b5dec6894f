package output

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/syncbuf"
	"github.com/usefullatency/usefullatency/metrics"
)

// echoServer answers every request with 400 and a body that echoes the
// request line and every header (Authorization and the configured ones
// included), as a misconfigured proxy or a debugging endpoint does, then
// 20 KB of padding.
func echoServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		fmt.Fprintf(&b, "bad request, you sent: %s %s\n", r.Method, r.URL.RequestURI())
		names := make([]string, 0, len(r.Header))
		for k := range r.Header {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(r.Header[k], ", "))
		}
		if u, p, ok := r.BasicAuth(); ok {
			fmt.Fprintf(&b, "(user %s, password %s)\n", u, p)
		}
		b.WriteString(strings.Repeat("padding ", 2500))
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(b.String()))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestEndpointAnswersRedacted points the Prometheus, InfluxDB and
// OpenTelemetry (HTTP) outputs at an endpoint that echoes their requests:
// the warnings and errors quote its answer cut to 512 bytes, with the
// Basic credential (plain and base64), the password and the header tokens
// masked.
func TestEndpointAnswersRedacted(t *testing.T) {
	t.Parallel()
	const secret = "pw-s3cret-42"
	srv := echoServer(t)
	host := strings.TrimPrefix(srv.URL, "http://")
	reqs := metrics.NewRegistry().MustNewMetric("http_reqs", metrics.Counter)
	sample := []metrics.Sample{{Metric: reqs, Time: time.Unix(1, 0), Value: 1}}
	cases := map[string]func(t *testing.T) string{
		"prometheus": func(t *testing.T) string {
			o := newTestPrometheus(t, srv.URL+"/api/v1/write", map[string]string{
				"K6_PROMETHEUS_RW_USERNAME": "alice", "K6_PROMETHEUS_RW_PASSWORD": secret,
				"K6_PROMETHEUS_RW_HTTP_HEADERS": "X-Scope-OrgID:tenant-" + secret + ",X-Token:Bearer tok-" + secret,
			})
			o.AddSamples(sample)
			err := o.Stop()
			if err == nil {
				t.Fatal("Stop returned no error after a 400")
			}
			return err.Error()
		},
		"influxdb": func(t *testing.T) string {
			o, log := newInfluxForTest(t, "http://alice:"+secret+"@"+host+"/k6", nil)
			_ = o.Start()
			o.AddSamples(sample)
			_ = o.Stop()
			return log.String()
		},
		"opentelemetry": func(t *testing.T) string {
			log := &syncbuf.Buffer{}
			o := newTestOtel(t, map[string]string{"K6_OTEL_EXPORTER_TYPE": "http", "K6_OTEL_HTTP_EXPORTER_ENDPOINT": host,
				"K6_OTEL_HTTP_EXPORTER_INSECURE": "true", "K6_OTEL_HEADERS": "authorization=Basic YWxpY2U6" + secret + ",api-key=" + secret}, log)
			o.stopTimeout = 5 * time.Second
			_ = o.Start()
			o.AddSamples(otelSamples())
			_ = o.Stop()
			return log.String()
		},
	}
	for name, run := range cases {
		t.Run(name, func(t *testing.T) {
			out := run(t)
			if !strings.Contains(out, "400") || !strings.Contains(out, "bad request, you sent") {
				t.Fatalf("the message does not quote the endpoint's answer:\n%s", out)
			}
			for _, leak := range []string{secret, "YWxpY2U6cHct" /* base64 of "alice:pw-" */} {
				if strings.Contains(out, leak) {
					t.Errorf("the message shows %q:\n%s", leak, out)
				}
			}
			for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
				if len(line) > 1200 || strings.Count(line, "padding") > 70 {
					t.Errorf("a %d-byte line: the answer is not cut to 512 bytes:\n%s", len(line), line)
				}
			}
		})
	}
}
