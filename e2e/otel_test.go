package e2e

import (
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"

	"github.com/usefullatency/usefullatency/internal/otlptest"
)

// otelSecret is a token in K6_OTEL_HEADERS that must never be printed.
const otelSecret = "s3cr3t-e2e-otel-token"

// TestOpenTelemetryOutput runs the after-sales example against --mock with
// -o experimental-opentelemetry to an OTLP/gRPC receiver and checks the
// collector's last (cumulative) export against the summary export.
func TestOpenTelemetryOutput(t *testing.T) {
	t.Parallel()
	rcv := otlptest.StartGRPC(t)
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{
		args: []string{"run", "-q", "--mock", "-e", "DURATION=2s", "--tag", "testid=otel-e2e",
			"-o", "experimental-opentelemetry", "--summary-export", out, "--summary-trend-stats", "avg,count", example("aftersales.js")},
		env: []string{"K6_OTEL_GRPC_EXPORTER_ENDPOINT=" + rcv.Endpoint, "K6_OTEL_GRPC_EXPORTER_INSECURE=true",
			"K6_OTEL_METRIC_PREFIX=k6_", "K6_OTEL_SERVICE_NAME=aftersales-load",
			"K6_OTEL_HEADERS=authorization=Bearer " + otelSecret, "K6_OTEL_EXPORT_INTERVAL=500ms"},
	}.run(t)
	r.wantCode(t, 0)
	if strings.Contains(r.stderr, "WARN") || strings.Contains(r.stderr, "ERRO") || strings.Contains(r.stderr+r.stdout, otelSecret) {
		t.Fatalf("stderr:\n%s", r.stderr)
	}
	last, ok := rcv.Last()
	if !ok {
		t.Fatal("the collector received nothing")
	}
	if got := last.Header["authorization"]; got != "Bearer "+otelSecret {
		t.Errorf("authorization header = %q", got)
	}
	if got := last.ResourceAttributes()["service.name"]; got != "aftersales-load" {
		t.Errorf("service.name = %q", got)
	}
	exp := export(t, out)
	ms := last.Metrics()
	for name, key := range map[string]string{"k6_http_reqs": "http_reqs", "k6_iterations": "iterations"} {
		want := number(t, exp, "metrics", key, "count")
		if got := otelSum(t, ms, name, nil); got != want || want == 0 {
			t.Errorf("%s = %v, the summary counts %v (want > 0)", name, got, want)
		}
	}
	for _, name := range []string{"first_text", "useful"} {
		want := number(t, exp, "metrics", "usefulsse_"+name, "count")
		if all, _ := otelHistogram(t, ms, "k6_usefulsse_"+name, nil); all != want || want == 0 {
			t.Errorf("k6_usefulsse_%s: count %v, the summary %v (want > 0)", name, all, want)
		}
	}
	// The script's thresholds make usefulsse_useful{bucket:qa} a submetric.
	count, sum := otelHistogram(t, ms, "k6_usefulsse_useful", map[string]string{"bucket": "qa"})
	wantQA := number(t, exp, "metrics", "usefulsse_useful{bucket:qa}", "count")
	avg := number(t, exp, "metrics", "usefulsse_useful{bucket:qa}", "avg")
	if count != wantQA || wantQA == 0 || math.Abs(sum/count-avg) > 1e-6*avg {
		t.Errorf("k6_usefulsse_useful{bucket=qa}: count %v, mean %v ms; the summary %v, avg %v ms", count, sum/count, wantQA, avg)
	}
	nonzero := otelSum(t, ms, "k6_checks", map[string]string{"condition": "nonzero"})
	total := otelSum(t, ms, "k6_checks", nil)
	if want := number(t, exp, "metrics", "checks", "value"); total == 0 || math.Abs(nonzero/total-want) > 1e-12 {
		t.Errorf("k6_checks: %v nonzero of %v, the summary's rate %v", nonzero, total, want)
	}
	for _, dp := range ms["k6_http_reqs"].GetSum().GetDataPoints() {
		a := map[string]string{}
		for _, kv := range dp.GetAttributes() {
			a[kv.GetKey()] = kv.GetValue().GetStringValue()
		}
		if a["testid"] != "otel-e2e" || a["scenario"] == "" || a["bucket"] == "" {
			t.Errorf("k6_http_reqs point attributes %v: want testid, scenario and bucket", a)
		}
	}
}

// matches reports whether a data point has every attribute of sel.
func matches(kvs interface{ GetAttributes() []*commonpb.KeyValue }, sel map[string]string) bool {
	n := 0
	for _, kv := range kvs.GetAttributes() {
		if v, ok := sel[kv.GetKey()]; ok && v == kv.GetValue().GetStringValue() {
			n++
		}
	}
	return n == len(sel)
}

// otelSum adds the points of a sum metric whose attributes match sel.
func otelSum(t *testing.T, ms map[string]*metricpb.Metric, name string, sel map[string]string) float64 {
	t.Helper()
	m := ms[name]
	if m.GetSum() == nil {
		t.Fatalf("%s: %v, want a sum", name, m.GetData())
	}
	var total float64
	for _, dp := range m.GetSum().GetDataPoints() {
		if matches(dp, sel) {
			total += dp.GetAsDouble() + float64(dp.GetAsInt())
		}
	}
	return total
}

// otelHistogram adds the counts and sums of a histogram's points whose
// attributes match sel.
func otelHistogram(t *testing.T, ms map[string]*metricpb.Metric, name string, sel map[string]string) (count, sum float64) {
	t.Helper()
	m := ms[name]
	if m.GetHistogram() == nil || m.GetUnit() != "ms" {
		t.Fatalf("%s: unit %q, %v; want a histogram in ms", name, m.GetUnit(), m.GetData())
	}
	for _, dp := range m.GetHistogram().GetDataPoints() {
		if matches(dp, sel) {
			count += float64(dp.GetCount())
			sum += dp.GetSum()
		}
	}
	return count, sum
}

// TestOpenTelemetryOutputUnreachable checks that a collector nobody
// listens on leaves the exit code alone, costs a bounded wait and prints
// warnings without the header's secret.
func TestOpenTelemetryOutputUnreachable(t *testing.T) {
	t.Parallel()
	r := invocation{
		args: []string{"run", "-q", "--no-summary", "-o", "experimental-opentelemetry", script("plain_summary.js")},
		env: []string{"K6_OTEL_EXPORTER_TYPE=http", "K6_OTEL_HTTP_EXPORTER_ENDPOINT=" + freeLoopbackAddr(t),
			"K6_OTEL_HTTP_EXPORTER_INSECURE=true", "K6_OTEL_HEADERS=x-api-key=" + otelSecret},
	}.run(t)
	r.wantCode(t, 0)
	if strings.Contains(r.stderr+r.stdout, otelSecret) {
		t.Errorf("the header's secret is printed:\n%s", r.stderr)
	}
	if !regexp.MustCompile(`WARN experimental-opentelemetry: 1 of 1 exports to http \S+ failed`).MatchString(r.stderr) || strings.Contains(r.stderr, "ERRO") {
		t.Errorf("stderr:\n%s\nwant a warning counting the failed export and no error", r.stderr)
	}
	if r.elapsed > 15*time.Second {
		t.Errorf("the run took %s", r.elapsed)
	}
}

// TestOpenTelemetryOutputInterrupted stops a run with SIGINT while the
// export interval is far away: only the export at the end can land the
// data, and it holds every iteration the summary counts.
func TestOpenTelemetryOutputInterrupted(t *testing.T) {
	t.Parallel()
	rcv := otlptest.StartHTTP(t, "/v1/metrics")
	out := filepath.Join(t.TempDir(), "export.json")
	inv := invocation{
		args: []string{"run", "-q", "-o", "experimental-opentelemetry", "--summary-export", out, script("signal.js")},
		env: []string{"K6_OTEL_EXPORTER_TYPE=http", "K6_OTEL_HTTP_EXPORTER_ENDPOINT=" + rcv.Endpoint,
			"K6_OTEL_HTTP_EXPORTER_INSECURE=true", "K6_OTEL_EXPORT_INTERVAL=1h"},
	}
	r := inv.interrupted(t)
	r.wantCode(t, 105)
	want := number(t, export(t, out), "metrics", "iterations", "count")
	if want < 5 {
		t.Fatalf("only %v iterations before the signal", want)
	}
	if n := len(rcv.All()); n != 1 {
		t.Errorf("%d exports, want the one at the end", n)
	}
	last, ok := rcv.Last()
	if !ok {
		t.Fatal("the collector received nothing")
	}
	if got := otelSum(t, last.Metrics(), "iterations", nil); got != want {
		t.Errorf("the collector has %v iterations, the summary %v", got, want)
	}
}
