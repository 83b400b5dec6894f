package output

import (
	"bytes"
	"context"
	"io"
	"maps"
	"net"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"

	"github.com/usefullatency/usefullatency/internal/otlptest"
	"github.com/usefullatency/usefullatency/internal/syncbuf"
	"github.com/usefullatency/usefullatency/metrics"
)

// otelToken is a secret in K6_OTEL_HEADERS that no output line may show.
const otelToken = "s3cr3t-otel-token"

// otelSamples returns samples of each metric type in two tag sets: the qa
// bucket and the single_tool bucket (whose empty status tag is dropped).
func otelSamples() []metrics.Sample {
	reg := metrics.NewRegistry()
	reqs := reg.MustNewMetric("http_reqs", metrics.Counter)
	vus := reg.MustNewMetric("vus", metrics.Gauge)
	first := reg.MustNewMetric("usefulsse_first_text", metrics.Trend, metrics.Time)
	failed := reg.MustNewMetric("usefulsse_failed", metrics.Rate)
	data := reg.MustNewMetric("data_received", metrics.Counter, metrics.Data)
	qa := metrics.Tags{"scenario": "qa", "bucket": "qa", "status": "200"}
	tool := metrics.Tags{"scenario": "tools", "bucket": "single_tool", "status": ""}
	at := time.Now()
	return []metrics.Sample{
		{Metric: reqs, Tags: qa, Time: at, Value: 1},
		{Metric: reqs, Tags: qa, Time: at, Value: 1},
		{Metric: reqs, Tags: tool, Time: at, Value: 1},
		{Metric: vus, Time: at, Value: 3},
		{Metric: vus, Time: at.Add(time.Millisecond), Value: 5},
		{Metric: first, Tags: qa, Time: at, Value: 120},
		{Metric: first, Tags: qa, Time: at, Value: 480},
		{Metric: first, Tags: tool, Time: at, Value: 30},
		{Metric: failed, Tags: qa, Time: at, Value: 0},
		{Metric: failed, Tags: qa, Time: at, Value: 0},
		{Metric: failed, Tags: tool, Time: at, Value: 1},
		{Metric: data, Tags: qa, Time: at, Value: 1024},
	}
}

// newTestOtel builds the output with env; its warnings go to log.
func newTestOtel(t *testing.T, env map[string]string, log io.Writer) *Otel {
	t.Helper()
	o, err := New("experimental-opentelemetry", Params{Env: env, Log: log, Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	return o.(*Otel)
}

// attrs returns a data point's attributes as a map.
func attrs(dp interface {
	GetAttributes() []*commonpb.KeyValue
}) map[string]string {
	out := map[string]string{}
	for _, kv := range dp.GetAttributes() {
		out[kv.GetKey()] = kv.GetValue().GetStringValue()
	}
	return out
}

// pointsBy indexes number data points by the value of one attribute.
func pointsBy(t *testing.T, m *metricpb.Metric, key string) map[string]*metricpb.NumberDataPoint {
	t.Helper()
	var dps []*metricpb.NumberDataPoint
	switch d := m.GetData().(type) {
	case *metricpb.Metric_Sum:
		dps = d.Sum.GetDataPoints()
	case *metricpb.Metric_Gauge:
		dps = d.Gauge.GetDataPoints()
	default:
		t.Fatalf("%s: %T, want a sum or a gauge", m.GetName(), m.GetData())
	}
	out := map[string]*metricpb.NumberDataPoint{}
	for _, dp := range dps {
		out[attrs(dp)[key]] = dp
	}
	return out
}

// number is a data point's value, whether double or int.
func number(dp *metricpb.NumberDataPoint) float64 {
	if dp == nil {
		return -1
	}
	if _, ok := dp.GetValue().(*metricpb.NumberDataPoint_AsInt); ok {
		return float64(dp.GetAsInt())
	}
	return dp.GetAsDouble()
}

// wantSum checks that m is a monotonic cumulative sum.
func wantSum(t *testing.T, m *metricpb.Metric) {
	t.Helper()
	s := m.GetSum()
	if s == nil {
		t.Fatalf("%s: %T, want a sum", m.GetName(), m.GetData())
	}
	if !s.GetIsMonotonic() || s.GetAggregationTemporality() != metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
		t.Errorf("%s: monotonic %v, temporality %v; want a monotonic cumulative sum", m.GetName(), s.GetIsMonotonic(), s.GetAggregationTemporality())
	}
}

// receivers starts a receiver of each kind and returns the env that sends
// to it.
func receivers(t *testing.T) map[string]func() (*otlptest.Receiver, map[string]string) {
	return map[string]func() (*otlptest.Receiver, map[string]string){
		"grpc": func() (*otlptest.Receiver, map[string]string) {
			r := otlptest.StartGRPC(t)
			return r, map[string]string{"K6_OTEL_GRPC_EXPORTER_ENDPOINT": r.Endpoint, "K6_OTEL_GRPC_EXPORTER_INSECURE": "true"}
		},
		"http": func() (*otlptest.Receiver, map[string]string) {
			r := otlptest.StartHTTP(t, "/otlp/v1/metrics")
			return r, map[string]string{"K6_OTEL_EXPORTER_TYPE": "http", "K6_OTEL_HTTP_EXPORTER_ENDPOINT": r.Endpoint,
				"K6_OTEL_HTTP_EXPORTER_INSECURE": "true", "K6_OTEL_HTTP_EXPORTER_URL_PATH": "/otlp/v1/metrics"}
		},
	}
}

// TestOtelMapping sends each metric type over both exporters and checks
// names, instruments, units, attributes, values, the resource and the
// headers the collector received.
func TestOtelMapping(t *testing.T) {
	for kind, start := range receivers(t) {
		t.Run(kind, func(t *testing.T) {
			rcv, env := start()
			env["K6_OTEL_METRIC_PREFIX"] = "k6_"
			env["K6_OTEL_SERVICE_NAME"] = "checkout-load"
			env["K6_OTEL_SERVICE_VERSION"] = "v9.9.9"
			env["K6_OTEL_HEADERS"] = "x-tenant=team-a,authorization=Bearer%20" + otelToken
			log := &syncbuf.Buffer{}
			o := newTestOtel(t, env, log)
			if strings.Contains(o.Description(), otelToken) || !strings.Contains(o.Description(), rcv.Endpoint) {
				t.Errorf("description %q: want the endpoint and no header value", o.Description())
			}
			if err := o.Start(); err != nil {
				t.Fatal(err)
			}
			s := otelSamples()
			o.AddSamples(s[:5])
			o.AddSamples(s[5:])
			if err := o.Stop(); err != nil {
				t.Fatal(err)
			}
			if log.String() != "" {
				t.Errorf("warnings from a run to a working collector:\n%s", log)
			}
			e, ok := rcv.Last()
			if !ok {
				t.Fatal("the collector received nothing")
			}
			if got := e.Header["authorization"]; got != "Bearer "+otelToken {
				t.Errorf("authorization header = %q", got)
			}
			if got := e.Header["x-tenant"]; got != "team-a" {
				t.Errorf("x-tenant header = %q", got)
			}
			res := e.ResourceAttributes()
			if res["service.name"] != "checkout-load" || res["service.version"] != "v9.9.9" {
				t.Errorf("resource attributes %v", res)
			}
			checkOtelMetrics(t, e.Metrics())
		})
	}
}

// checkOtelMetrics checks the export of otelSamples with the prefix k6_.
func checkOtelMetrics(t *testing.T, ms map[string]*metricpb.Metric) {
	t.Helper()
	names := slices.Sorted(maps.Keys(ms))
	want := []string{"k6_data_received", "k6_http_reqs", "k6_usefulsse_failed", "k6_usefulsse_first_text", "k6_vus"}
	if !slices.Equal(names, want) {
		t.Fatalf("metrics %v, want %v", names, want)
	}
	reqs := ms["k6_http_reqs"]
	wantSum(t, reqs)
	byBucket := pointsBy(t, reqs, "bucket")
	if number(byBucket["qa"]) != 2 || number(byBucket["single_tool"]) != 1 {
		t.Errorf("http_reqs qa %v, single_tool %v; want 2 and 1", number(byBucket["qa"]), number(byBucket["single_tool"]))
	}
	if a := attrs(byBucket["qa"]); !maps.Equal(a, map[string]string{"scenario": "qa", "bucket": "qa", "status": "200"}) {
		t.Errorf("qa attributes %v", a)
	}
	if a := attrs(byBucket["single_tool"]); !maps.Equal(a, map[string]string{"scenario": "tools", "bucket": "single_tool"}) {
		t.Errorf("single_tool attributes %v (an empty tag must be left out)", a)
	}

	if g := ms["k6_vus"].GetGauge(); g == nil || len(g.GetDataPoints()) != 1 || g.GetDataPoints()[0].GetAsDouble() != 5 {
		t.Errorf("vus: %v, want one gauge point of 5", ms["k6_vus"].GetData())
	}

	first := ms["k6_usefulsse_first_text"]
	h := first.GetHistogram()
	if h == nil || first.GetUnit() != "ms" || h.GetAggregationTemporality() != metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
		t.Fatalf("first_text: unit %q, %v; want a cumulative histogram in ms", first.GetUnit(), first.GetData())
	}
	for _, dp := range h.GetDataPoints() {
		b := attrs(dp)["bucket"]
		want := map[string][4]float64{"qa": {2, 600, 120, 480}, "single_tool": {1, 30, 30, 30}}[b]
		got := [4]float64{float64(dp.GetCount()), dp.GetSum(), dp.GetMin(), dp.GetMax()}
		if got != want {
			t.Errorf("first_text{bucket=%s} count, sum, min, max = %v, want %v", b, got, want)
		}
		var inBuckets uint64
		for _, c := range dp.GetBucketCounts() {
			inBuckets += c
		}
		if inBuckets != dp.GetCount() || len(dp.GetExplicitBounds()) == 0 {
			t.Errorf("first_text{bucket=%s}: bucket counts %v over bounds %v", b, dp.GetBucketCounts(), dp.GetExplicitBounds())
		}
	}
	if len(h.GetDataPoints()) != 2 {
		t.Errorf("first_text: %d points, want 2", len(h.GetDataPoints()))
	}

	failed := ms["k6_usefulsse_failed"]
	wantSum(t, failed)
	var got []string
	for _, dp := range failed.GetSum().GetDataPoints() {
		a := attrs(dp)
		got = append(got, a["bucket"]+" "+a["condition"]+" "+strconv.FormatFloat(number(dp), 'g', -1, 64))
	}
	sort.Strings(got)
	if want := []string{"qa zero 2", "single_tool nonzero 1"}; !slices.Equal(got, want) {
		t.Errorf("usefulsse_failed points %v, want %v", got, want)
	}

	if d := ms["k6_data_received"]; d.GetUnit() != "By" || number(pointsBy(t, d, "bucket")["qa"]) != 1024 {
		t.Errorf("data_received: unit %q, %v; want 1024 By", d.GetUnit(), d.GetData())
	}
}

// TestOtelLegacyRate checks K6_OTEL_SINGLE_COUNTER_FOR_RATE=false: a Rate
// is the counters name.occurred (non-zero samples) and name.total.
func TestOtelLegacyRate(t *testing.T) {
	rcv := otlptest.StartHTTP(t, "/v1/metrics")
	o := newTestOtel(t, map[string]string{"K6_OTEL_EXPORTER_TYPE": "http", "K6_OTEL_HTTP_EXPORTER_ENDPOINT": rcv.Endpoint,
		"K6_OTEL_HTTP_EXPORTER_INSECURE": "true", "K6_OTEL_SINGLE_COUNTER_FOR_RATE": "false"}, nil)
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	o.AddSamples(otelSamples())
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	e, ok := rcv.Last()
	if !ok {
		t.Fatal("the collector received nothing")
	}
	ms := e.Metrics()
	if _, ok := ms["usefulsse_failed"]; ok {
		t.Error("the single counter is exported too")
	}
	occurred, total := pointsBy(t, ms["usefulsse_failed.occurred"], "bucket"), pointsBy(t, ms["usefulsse_failed.total"], "bucket")
	if number(occurred["single_tool"]) != 1 || occurred["qa"] != nil && number(occurred["qa"]) != 0 {
		t.Errorf("occurred: single_tool %v, qa %v; want 1 and none", number(occurred["single_tool"]), number(occurred["qa"]))
	}
	if number(total["qa"]) != 2 || number(total["single_tool"]) != 1 {
		t.Errorf("total: qa %v, single_tool %v; want 2 and 1", number(total["qa"]), number(total["single_tool"]))
	}
}

// TestOtelExportsDuringTheRun waits for periodic exports before Stop and
// checks that they are cumulative.
func TestOtelExportsDuringTheRun(t *testing.T) {
	rcv := otlptest.StartGRPC(t)
	o := newTestOtel(t, map[string]string{"K6_OTEL_GRPC_EXPORTER_ENDPOINT": rcv.Endpoint, "K6_OTEL_GRPC_EXPORTER_INSECURE": "true",
		"K6_OTEL_FLUSH_INTERVAL": "20ms", "K6_OTEL_EXPORT_INTERVAL": "50ms"}, nil)
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	s := otelSamples()
	reqsIn := func(e otlptest.Export) float64 {
		m := e.Metrics()["http_reqs"]
		if m == nil {
			return 0
		}
		return number(pointsBy(t, m, "bucket")["qa"])
	}
	awaitReqs := func(want float64) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case e := <-rcv.Exports:
				if reqsIn(e) == want {
					return
				}
			case <-deadline:
				t.Fatalf("no export with %v qa requests within 10s", want)
			}
		}
	}
	o.AddSamples(s[:1])
	awaitReqs(1)
	o.AddSamples(s[1:2])
	awaitReqs(2) // the total since the start, not the new sample alone
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
}

// TestOtelUnreachableCollector checks that a collector nobody listens on,
// or one that accepts and never answers, costs the run a bounded wait at
// the end and two warnings, without the header's secret.
func TestOtelUnreachableCollector(t *testing.T) {
	closed := freeAddr(t)
	stalled, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { _ = stalled.Close(); <-done })
	go func() { // connections are held open, never read, closed at the end
		defer close(done)
		var accepted []net.Conn
		defer func() {
			for _, c := range accepted {
				_ = c.Close()
			}
		}()
		for {
			c, err := stalled.Accept()
			if err != nil {
				return
			}
			accepted = append(accepted, c)
		}
	}()
	cases := map[string]map[string]string{
		"grpc refused": {"K6_OTEL_GRPC_EXPORTER_ENDPOINT": closed, "K6_OTEL_GRPC_EXPORTER_INSECURE": "true"},
		"http refused": {"K6_OTEL_EXPORTER_TYPE": "http", "K6_OTEL_HTTP_EXPORTER_ENDPOINT": closed, "K6_OTEL_HTTP_EXPORTER_INSECURE": "true"},
		"grpc stalled": {"K6_OTEL_GRPC_EXPORTER_ENDPOINT": stalled.Addr().String(), "K6_OTEL_GRPC_EXPORTER_INSECURE": "true"},
		"http stalled": {"K6_OTEL_EXPORTER_TYPE": "http", "K6_OTEL_HTTP_EXPORTER_ENDPOINT": stalled.Addr().String(), "K6_OTEL_HTTP_EXPORTER_INSECURE": "true"},
	}
	for name, env := range cases {
		t.Run(name, func(t *testing.T) {
			env["K6_OTEL_HEADERS"] = "authorization=Bearer " + otelToken
			log := &syncbuf.Buffer{}
			o := newTestOtel(t, env, log)
			o.stopTimeout = 500 * time.Millisecond
			if err := o.Start(); err != nil {
				t.Fatal(err)
			}
			begin := time.Now()
			for range 1000 {
				o.AddSamples(otelSamples())
			}
			if d := time.Since(begin); d > time.Second {
				t.Errorf("AddSamples took %s for 12,000 samples", d)
			}
			begin = time.Now()
			if err := o.Stop(); err != nil {
				t.Errorf("Stop: %v (a collector's failure is a warning)", err)
			}
			if d := time.Since(begin); d > 3*time.Second {
				t.Errorf("Stop took %s, want it bounded by the stop timeout (500ms)", d)
			}
			out := log.String()
			if strings.Contains(out, otelToken) {
				t.Errorf("the header's secret is printed:\n%s", out)
			}
			if !strings.Contains(out, "WARN experimental-opentelemetry: export to ") ||
				!regexp.MustCompile(`WARN experimental-opentelemetry: 1 of 1 exports to \S+ \S+ failed, the last with: \S`).MatchString(out) {
				t.Errorf("warnings:\n%s\nwant the first failure and the count", out)
			}
		})
	}
}

// freeAddr returns a loopback address nobody listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestOtelSettings checks the defaults and that every invalid setting is
// reported at once, without a header's value.
func TestOtelSettings(t *testing.T) {
	cfg, err := otelSettings(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.exporter != "grpc" || cfg.endpoint != "localhost:4317" || cfg.insecure || cfg.serviceName != "k6" || cfg.prefix != "" ||
		cfg.flushInterval != time.Second || cfg.exportInterval != 10*time.Second || !cfg.singleCounterForRate || cfg.maxSeries != 2000 {
		t.Errorf("defaults %+v", cfg)
	}
	cfg, err = otelSettings(map[string]string{"K6_OTEL_EXPORTER_TYPE": "http"})
	if err != nil || cfg.endpoint != "localhost:4318" || cfg.urlPath != "/v1/metrics" {
		t.Errorf("http defaults %+v, %v", cfg, err)
	}
	_, err = otelSettings(map[string]string{
		"K6_OTEL_EXPORTER_TYPE": "udp", "K6_OTEL_FLUSH_INTERVAL": "0", "K6_OTEL_EXPORT_INTERVAL": "soon",
		"K6_OTEL_HEADERS": "authorization=x," + otelToken, "K6_OTEL_SINGLE_COUNTER_FOR_RATE": "maybe",
		"K6_OTEL_MAX_SERIES": "-1", "K6_OTEL_TLS_CLIENT_KEY": "/nonexistent/key.pem",
	})
	if err == nil {
		t.Fatal("no error")
	}
	for _, name := range []string{"K6_OTEL_EXPORTER_TYPE", "K6_OTEL_FLUSH_INTERVAL", "K6_OTEL_EXPORT_INTERVAL", "K6_OTEL_HEADERS",
		"K6_OTEL_SINGLE_COUNTER_FOR_RATE", "K6_OTEL_MAX_SERIES", "K6_OTEL_TLS_CLIENT_KEY"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error does not name %s: %v", name, err)
		}
	}
	if strings.Contains(err.Error(), otelToken) {
		t.Errorf("error shows a header: %v", err)
	}
	if _, err := New("experimental-opentelemetry=localhost:4317", Params{}); err == nil {
		t.Error("an argument is accepted")
	}
}

// BenchmarkOtelRecord measures what the output costs the buffer's
// goroutine per 1,000 samples: tags to attributes and the SDK's
// instruments (half histogram, half counter), without the export; with
// the samples of a request sharing one Tags map, and with a map per sample.
func BenchmarkOtelRecord(b *testing.B) {
	reg := metrics.NewRegistry()
	useful := reg.MustNewMetric("usefulsse_useful", metrics.Trend, metrics.Time)
	reqs := reg.MustNewMetric("http_reqs", metrics.Counter)
	tags := metrics.Tags{"bucket": "qa", "scenario": "s", "name": "http://x/chat", "method": "POST", "status": "200", "group": ""}
	for _, shared := range []bool{true, false} {
		batch := make([]metrics.Sample, 1000)
		for i := range batch {
			batch[i] = metrics.Sample{Metric: useful, Tags: tags, Value: float64(i)}
			if !shared {
				batch[i].Tags = maps.Clone(tags)
			}
			if i%2 == 1 {
				batch[i].Metric = reqs
			}
		}
		name := map[bool]string{true: "shared tags", false: "tags per sample"}[shared]
		b.Run(name, func(b *testing.B) {
			o, err := New("experimental-opentelemetry", Params{Env: map[string]string{"K6_OTEL_GRPC_EXPORTER_INSECURE": "true"}})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := o.(*Otel).record(batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/1000samples")
		})
	}
}

// TestOtelRefusedName checks that a k6 metric name the SDK refuses (a
// space is valid in k6, not in OpenTelemetry) costs one warning and its
// own samples, not the others.
func TestOtelRefusedName(t *testing.T) {
	rcv := otlptest.StartGRPC(t)
	log := &syncbuf.Buffer{}
	o := newTestOtel(t, map[string]string{"K6_OTEL_GRPC_EXPORTER_ENDPOINT": rcv.Endpoint, "K6_OTEL_GRPC_EXPORTER_INSECURE": "true"}, log)
	reg := metrics.NewRegistry()
	bad := reg.MustNewMetric("_cart_items", metrics.Counter)
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	o.AddSamples([]metrics.Sample{{Metric: bad, Value: 1}, {Metric: bad, Value: 2}})
	o.AddSamples(otelSamples())
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(log.String(), "WARN experimental-opentelemetry: metric _cart_items is not exported"); n != 1 {
		t.Errorf("%d warnings for the refused name, want 1:\n%s", n, log)
	}
	e, ok := rcv.Last()
	if !ok {
		t.Fatal("the collector received nothing")
	}
	ms := e.Metrics()
	if _, ok := ms["_cart_items"]; ok || ms["http_reqs"] == nil {
		t.Errorf("metrics %v: want http_reqs and not the refused name", slices.Sorted(maps.Keys(ms)))
	}
}

// TestOtelDeltaTemporality checks that the SDK's own variable
// OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=delta, which no
// K6_OTEL_* variable overrides, turns counters and histograms to delta.
func TestOtelDeltaTemporality(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE", "delta")
	rcv := otlptest.StartGRPC(t)
	o := newTestOtel(t, map[string]string{"K6_OTEL_GRPC_EXPORTER_ENDPOINT": rcv.Endpoint, "K6_OTEL_GRPC_EXPORTER_INSECURE": "true"}, nil)
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	o.AddSamples(otelSamples())
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	e, ok := rcv.Last()
	if !ok {
		t.Fatal("the collector received nothing")
	}
	ms := e.Metrics()
	delta := metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_DELTA
	if ms["http_reqs"].GetSum().GetAggregationTemporality() != delta || ms["usefulsse_first_text"].GetHistogram().GetAggregationTemporality() != delta {
		t.Errorf("http_reqs %v, usefulsse_first_text %v; want delta", ms["http_reqs"].GetSum().GetAggregationTemporality(),
			ms["usefulsse_first_text"].GetHistogram().GetAggregationTemporality())
	}
}

// TestOtelTLS sends over HTTPS to a collector whose certificate is signed
// by K6_OTEL_TLS_CERTIFICATE; without it the system roots refuse the
// certificate and the export fails with a warning.
func TestOtelTLS(t *testing.T) {
	rcv, ca := otlptest.StartHTTPS(t, "/v1/metrics")
	env := map[string]string{"K6_OTEL_EXPORTER_TYPE": "http", "K6_OTEL_HTTP_EXPORTER_ENDPOINT": rcv.Endpoint}
	for _, trusted := range []bool{true, false} {
		if trusted {
			env["K6_OTEL_TLS_CERTIFICATE"] = ca
		} else {
			delete(env, "K6_OTEL_TLS_CERTIFICATE")
		}
		log := &syncbuf.Buffer{}
		o := newTestOtel(t, env, log)
		if err := o.Start(); err != nil {
			t.Fatal(err)
		}
		o.AddSamples(otelSamples())
		before := len(rcv.All())
		if err := o.Stop(); err != nil {
			t.Fatal(err)
		}
		received := len(rcv.All()) - before
		if trusted && (received != 1 || log.String() != "") {
			t.Errorf("with the CA: %d exports received, log:\n%s", received, log)
		}
		if !trusted && (received != 0 || !strings.Contains(log.String(), "1 of 1 exports")) {
			t.Errorf("without the CA: %d exports received, log:\n%s", received, log)
		}
	}
}

// TestOtelMaxSeries checks K6_OTEL_MAX_SERIES: beyond the cap a metric's
// samples are counted in the overflow series, so its total is kept.
func TestOtelMaxSeries(t *testing.T) {
	rcv := otlptest.StartGRPC(t)
	o := newTestOtel(t, map[string]string{"K6_OTEL_GRPC_EXPORTER_ENDPOINT": rcv.Endpoint, "K6_OTEL_GRPC_EXPORTER_INSECURE": "true",
		"K6_OTEL_MAX_SERIES": "3"}, nil)
	reg := metrics.NewRegistry()
	reqs := reg.MustNewMetric("http_reqs", metrics.Counter)
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		o.AddSamples([]metrics.Sample{{Metric: reqs, Tags: metrics.Tags{"id": strconv.Itoa(i)}, Value: 1}})
	}
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	e, ok := rcv.Last()
	if !ok {
		t.Fatal("the collector received nothing")
	}
	dps := e.Metrics()["http_reqs"].GetSum().GetDataPoints()
	var total float64
	overflow := false
	for _, dp := range dps {
		total += dp.GetAsDouble()
		for _, kv := range dp.GetAttributes() {
			overflow = overflow || kv.GetKey() == "otel.metric.overflow" && kv.GetValue().GetBoolValue()
		}
	}
	if len(dps) != 3 || !overflow || total != 10 {
		t.Errorf("%d points (overflow %v) totalling %v; want 3 with the overflow series, totalling 10", len(dps), overflow, total)
	}
}

// TestOtelEndpointURL checks endpoints given as URLs: http:// means no TLS
// and, for OTLP/HTTP, the URL's path is the one posted to.
func TestOtelEndpointURL(t *testing.T) {
	grpcRcv, httpRcv := otlptest.StartGRPC(t), otlptest.StartHTTP(t, "/collector/metrics")
	cases := map[*otlptest.Receiver]map[string]string{
		grpcRcv: {"K6_OTEL_GRPC_EXPORTER_ENDPOINT": "http://" + grpcRcv.Endpoint},
		httpRcv: {"K6_OTEL_EXPORTER_TYPE": "http", "K6_OTEL_HTTP_EXPORTER_ENDPOINT": "http://" + httpRcv.Endpoint + "/collector/metrics"},
	}
	for rcv, env := range cases {
		log := &syncbuf.Buffer{}
		o := newTestOtel(t, env, log)
		if err := o.Start(); err != nil {
			t.Fatal(err)
		}
		o.AddSamples(otelSamples())
		if err := o.Stop(); err != nil {
			t.Fatal(err)
		}
		if _, ok := rcv.Last(); !ok || log.String() != "" {
			t.Errorf("%v: received %v, log:\n%s", env, ok, log)
		}
	}
}

// TestOtelBoundedBuffer checks that samples beyond the buffer's bound are
// dropped from the output and counted in a warning, the others exported.
func TestOtelBoundedBuffer(t *testing.T) {
	rcv := otlptest.StartGRPC(t)
	log := &syncbuf.Buffer{}
	o := newTestOtel(t, map[string]string{"K6_OTEL_GRPC_EXPORTER_ENDPOINT": rcv.Endpoint, "K6_OTEL_GRPC_EXPORTER_INSECURE": "true",
		"K6_OTEL_FLUSH_INTERVAL": "1h"}, log)
	o.buf.max = 20
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	for range 3 { // 12 samples each: only the first batch fits
		o.AddSamples(otelSamples())
	}
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "WARN experimental-opentelemetry: 24 samples were not exported: more than 20 arrived") {
		t.Errorf("log:\n%s", log)
	}
	e, ok := rcv.Last()
	if !ok {
		t.Fatal("the collector received nothing")
	}
	if got := number(pointsBy(t, e.Metrics()["http_reqs"], "bucket")["qa"]); got != 2 {
		t.Errorf("http_reqs{bucket=qa} = %v, want the first batch's 2", got)
	}
}

// cancelExporter is an OTLP exporter whose exports fail as a canceled
// context makes them fail.
type cancelExporter struct{ sdkmetric.Exporter }

func (cancelExporter) Export(ctx context.Context, _ *metricdata.ResourceMetrics) error {
	return ctx.Err()
}

// TestOtelExportCanceledAtStop checks that a periodic export the reader
// cancels when Stop shuts it down is no failure (no WARN line, not
// counted), while the same cancellation during the run is one.
func TestOtelExportCanceledAtStop(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, stopping := range []bool{false, true} {
		var log bytes.Buffer
		e := &otelExporter{Exporter: cancelExporter{}, log: &log, name: "experimental-opentelemetry", endpoint: "grpc 127.0.0.1:4317"}
		e.stopping.Store(stopping)
		_ = e.Export(canceled, &metricdata.ResourceMetrics{})
		if counted := e.failures == 1 && strings.Contains(log.String(), "WARN"); counted == stopping {
			t.Errorf("stopping %v: %d failures, log %q", stopping, e.failures, log.String())
		}
	}
}
