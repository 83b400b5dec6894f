package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/syncbuf"
)

// prometheusBinary is the prometheus on PATH: Debian's package installs
// /usr/bin/prometheus, and scripts/deps (make deps) installs it when missing.
const prometheusBinary = "prometheus"

// prometheus is a real Prometheus started for a test, with the
// remote-write receiver enabled, on a free loopback port.
type prometheus struct {
	base string // http://127.0.0.1:port
	log  *syncbuf.Buffer
}

// startPrometheus runs Prometheus until the test ends. The test fails (it
// is not skipped) when the binary is missing: the round trip is part of
// the suite.
func startPrometheus(t *testing.T) *prometheus {
	t.Helper()
	exe, err := exec.LookPath(prometheusBinary)
	if err != nil {
		t.Fatalf("%s is missing (make deps installs it): %v", prometheusBinary, err)
	}
	dir := t.TempDir()
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, []byte("global:\n  scrape_interval: 1m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freeLoopbackAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, exe,
		"--config.file="+config, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--web.enable-remote-write-receiver", "--log.level=warn")
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	p := &prometheus{base: "http://" + addr, log: &syncbuf.Buffer{}}
	cmd.Stdout, cmd.Stderr = p.log, p.log
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("starting prometheus: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cancel(); <-exited })
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(p.base + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus not ready after 30s (last error %v):\n%s", err, p.log)
		}
		select { // poll again in 50 ms, unless it exits meanwhile
		case <-exited:
			t.Fatalf("prometheus exited before it was ready:\n%s", p.log)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// freeLoopbackAddr returns a loopback address with a port nobody listens on.
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// writeURL is the remote-write endpoint.
func (p *prometheus) writeURL() string { return p.base + "/api/v1/write" }

// promSample is one element of an instant query's vector.
type promSample struct {
	labels map[string]string
	value  float64
}

// query runs an instant PromQL query and returns its vector, failing the
// test on any error.
func (p *prometheus) query(t *testing.T, q string) []promSample {
	t.Helper()
	resp, err := http.Get(p.base + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		t.Fatalf("query %s: %v", q, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var r struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			ResultType string `json:"resultType"`
			Result     []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &r); err != nil || r.Status != "success" {
		t.Fatalf("query %s: %s %s", q, resp.Status, body)
	}
	if r.Data.ResultType != "vector" {
		t.Fatalf("query %s: result type %s, want vector", q, r.Data.ResultType)
	}
	out := make([]promSample, 0, len(r.Data.Result))
	for _, e := range r.Data.Result {
		s, _ := e.Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("query %s: value %v: %v", q, e.Value[1], err)
		}
		out = append(out, promSample{labels: e.Metric, value: v})
	}
	return out
}

// scalar runs a query that must return exactly one series and returns its
// value.
func (p *prometheus) scalar(t *testing.T, q string) float64 {
	t.Helper()
	v := p.query(t, q)
	if len(v) != 1 {
		t.Fatalf("query %s: %d series, want 1: %v", q, len(v), v)
	}
	return v[0].value
}

// TestPrometheusRemoteWrite runs a short streaming test with the
// experimental-prometheus-rw output into a real Prometheus, then reads the
// series back through its HTTP API: values match the summary export (time
// trends in seconds, counts exact), and every query of the Grafana
// dashboard returns data, with units that fit its metrics.
func TestPrometheusRemoteWrite(t *testing.T) {
	t.Parallel()
	prom := startPrometheus(t)
	srv := sseServer(t)
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{
		args: []string{"run", "-q", "-o", "experimental-prometheus-rw", "--summary-export", out,
			"--summary-trend-stats", "avg,min,med,max,p(95),p(99),count", script("prometheus/streams.js")},
		env: []string{"SSE_URL=" + srv.URL, "K6_PROMETHEUS_RW_SERVER_URL=" + prom.writeURL(),
			"K6_PROMETHEUS_RW_TREND_STATS=p(95),p(99),avg,count", "K6_PROMETHEUS_RW_PUSH_INTERVAL=500ms"},
	}.run(t)
	r.wantCode(t, 0)
	if strings.Contains(r.stderr, "ERRO") {
		t.Fatalf("the run reported errors:\n%s\nprometheus log:\n%s", r.stderr, prom.log)
	}
	exp := export(t, out)

	t.Run("values match the summary", func(t *testing.T) {
		for _, name := range []string{"first_event", "first_text", "useful", "complete"} {
			sub := "usefulsse_" + name + "{bucket:qa}"
			for _, stat := range []struct{ prom, export string }{{"p95", "p(95)"}, {"p99", "p(99)"}, {"avg", "avg"}} {
				q := fmt.Sprintf(`k6_usefulsse_%s_%s{bucket="qa"}`, name, stat.prom)
				gotSeconds := prom.scalar(t, q)
				wantMs := number(t, exp, "metrics", sub, stat.export)
				if math.Abs(gotSeconds*1000-wantMs) > 1e-6 {
					t.Errorf("%s = %v s, the summary's %s %s = %v ms", q, gotSeconds, sub, stat.export, wantMs)
				}
			}
			q := fmt.Sprintf(`k6_usefulsse_%s_count{bucket="qa"}`, name)
			if got, want := prom.scalar(t, q), number(t, exp, "metrics", sub, "count"); got != want {
				t.Errorf("%s = %v, the summary counts %v", q, got, want)
			}
		}
		for q, key := range map[string]string{
			"sum(k6_http_reqs_total)":          "http_reqs",
			"sum(k6_iterations_total)":         "iterations",
			"sum(k6_dropped_iterations_total)": "dropped_iterations",
		} {
			want := number(t, exp, "metrics", key, "count")
			if want == 0 {
				t.Errorf("the summary counts no %s: the script must produce some", key)
			}
			if got := prom.scalar(t, q); got != want {
				t.Errorf("%s = %v, the summary counts %v", q, got, want)
			}
		}
		// A Rate is pushed per tag set; weighted by the requests of each
		// tag set it gives back the run's rate.
		q := "sum(k6_usefulsse_failed_rate * k6_http_reqs_total) / sum(k6_http_reqs_total)"
		if got, want := prom.scalar(t, q), number(t, exp, "metrics", "usefulsse_failed", "value"); math.Abs(got-want) > 1e-12 || want == 0 {
			t.Errorf("%s = %v, the summary's usefulsse_failed rate = %v (want it > 0)", q, got, want)
		}
		if got := prom.scalar(t, `k6_usefulsse_failed_rate{bucket="fail"}`); got != 1 {
			t.Errorf(`k6_usefulsse_failed_rate{bucket="fail"} = %v, want 1`, got)
		}
		if got := prom.scalar(t, `k6_usefulsse_failed_rate{bucket="qa"}`); got != 0 {
			t.Errorf(`k6_usefulsse_failed_rate{bucket="qa"} = %v, want 0`, got)
		}
		if n := len(prom.query(t, `{__name__=~"k6_.*_(p95|p99|avg|count)",bucket="qa"}`)); n == 0 {
			t.Error("no trend series with the bucket label")
		}
	})

	t.Run("dashboard queries", func(t *testing.T) {
		checkDashboard(t, prom, "qa")
	})
}

// TestPrometheusRemoteWriteInterrupted stops a run with SIGINT while the
// push interval is far away: only the push at Stop can land the data, and
// it holds every iteration the summary counts.
func TestPrometheusRemoteWriteInterrupted(t *testing.T) {
	t.Parallel()
	prom := startPrometheus(t)
	out := filepath.Join(t.TempDir(), "export.json")
	inv := invocation{
		args: []string{"run", "-q", "-o", "experimental-prometheus-rw=" + prom.writeURL(),
			"--summary-export", out, "--tag", "testrun=interrupted", script("signal.js")},
		env: []string{"K6_PROMETHEUS_RW_PUSH_INTERVAL=1h"},
	}
	r := inv.interrupted(t)
	r.wantCode(t, 105)
	want := number(t, export(t, out), "metrics", "iterations", "count")
	if want < 5 {
		t.Fatalf("only %v iterations before the signal", want)
	}
	if got := prom.scalar(t, `sum(k6_iterations_total{testrun="interrupted"})`); got != want {
		t.Errorf("Prometheus has %v iterations, the summary %v", got, want)
	}
}

// TestPrometheusRemoteWriteUnreachable checks that failed pushes are
// reported in one line at the end and do not change the exit code.
func TestPrometheusRemoteWriteUnreachable(t *testing.T) {
	t.Parallel()
	r := invocation{args: []string{"run", "-q", "--no-summary", "-o",
		"experimental-prometheus-rw=http://" + freeLoopbackAddr(t) + "/api/v1/write", script("plain_summary.js")}}.run(t)
	r.wantCode(t, 0)
	line := r.errorLine(t)
	if !strings.Contains(line, "experimental-prometheus-rw") || !regexp.MustCompile(`\d+ of \d+ pushes to .* failed`).MatchString(line) {
		t.Errorf("error line = %q, want the output and the failed pushes", line)
	}
	if n := strings.Count(r.stderr, "ERRO"); n != 1 {
		t.Errorf("%d ERRO lines, want 1:\n%s", n, r.stderr)
	}
}

// dashboardPath is the Grafana dashboard shipped for the Prometheus output.
var dashboardPath = filepath.Join("..", "grafana", "usefullatency.json")

// dashboard is the part of Grafana's dashboard JSON model the test reads.
type dashboard struct {
	Inputs []struct {
		Name, Type, PluginID string
	} `json:"__inputs"`
	Templating struct {
		List []struct {
			Name, Type string
			Query      any
			Datasource *grafanaDatasource
		}
	}
	Panels []dashboardPanel
}

type dashboardPanel struct {
	ID          int
	Type, Title string
	Datasource  *grafanaDatasource
	FieldConfig struct {
		Defaults struct{ Unit string }
	}
	Targets []struct {
		Expr       string
		Datasource *grafanaDatasource
	}
	Panels []dashboardPanel // a collapsed row's panels
}

type grafanaDatasource struct{ Type, UID string }

// grafanaVariables replaces the dashboard's variables and Grafana's
// built-in interval variables in a query.
func grafanaVariables(expr, bucket string) string {
	return strings.NewReplacer(
		"${bucket}", bucket, "$bucket", bucket,
		"${__rate_interval}", "1m", "$__rate_interval", "1m",
		"${__interval}", "15s", "$__interval", "15s",
		"${__range}", "5m", "$__range", "5m",
	).Replace(expr)
}

// panelUnits are the units a panel may have for the kind of series its
// queries read.
var panelUnits = map[string][]string{
	"time":       {"s"},
	"ratio":      {"percentunit"},
	"throughput": {"ops", "reqps"},
	"count":      {"short", "none"},
}

var (
	// timeStatRE matches a stat of a time Trend (the probe's, k6's HTTP
	// and iteration ones); k6_vus_max is a Gauge.
	timeStatRE = regexp.MustCompile(`\bk6_(usefulsse_\w+|http_req_\w+|iteration_duration|group_duration|schedule_lag)_(p\d+|avg|min|max|med|sum)\b`)
	ratioRE    = regexp.MustCompile(`\bk6_\w+_rate\b`)
	rateFnRE   = regexp.MustCompile(`\b(rate|irate|increase)\(`)
)

// seriesKind says what a query returns: times (trend stats), ratios (Rate
// metrics, also when weighted by counters), throughput (rate() of
// counters) or counts.
func seriesKind(expr string) string {
	switch {
	case timeStatRE.MatchString(expr):
		return "time"
	case ratioRE.MatchString(expr):
		return "ratio"
	case rateFnRE.MatchString(expr):
		return "throughput"
	}
	return "count"
}

// checkDashboard parses the dashboard and runs each panel's queries, with
// the variables substituted, against Prometheus after a run: every query
// returns data, every panel's unit fits what its queries read, and the
// bucket variable lists bucket.
func checkDashboard(t *testing.T, prom *prometheus, bucket string) {
	t.Helper()
	b, err := os.ReadFile(dashboardPath)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s does not parse: %v", dashboardPath, err)
	}
	if len(d.Inputs) != 1 || d.Inputs[0].Name != "DS_PROMETHEUS" || d.Inputs[0].PluginID != "prometheus" {
		t.Errorf("__inputs = %+v, want one DS_PROMETHEUS Prometheus data source", d.Inputs)
	}
	checkBucketVariable(t, prom, d, bucket)
	var panels []dashboardPanel
	for _, p := range d.Panels {
		panels = append(panels, p)
		panels = append(panels, p.Panels...)
	}
	queries := 0
	for _, p := range panels {
		if p.Type == "row" {
			continue
		}
		name := fmt.Sprintf("panel %d %q", p.ID, p.Title)
		if len(p.Targets) == 0 {
			t.Errorf("%s has no query", name)
		}
		if p.Datasource == nil || p.Datasource.UID != "${DS_PROMETHEUS}" {
			t.Errorf("%s: datasource %+v, want uid ${DS_PROMETHEUS}", name, p.Datasource)
		}
		kind := ""
		for _, tg := range p.Targets {
			queries++
			if tg.Datasource != nil && tg.Datasource.UID != "${DS_PROMETHEUS}" {
				t.Errorf("%s: target datasource %+v, want uid ${DS_PROMETHEUS}", name, tg.Datasource)
			}
			k := seriesKind(tg.Expr)
			if kind != "" && k != kind {
				t.Errorf("%s mixes %s and %s series in one unit", name, kind, k)
			}
			kind = k
			q := grafanaVariables(tg.Expr, bucket)
			if strings.Contains(q, "$") {
				t.Errorf("%s: unknown variable left in %s", name, q)
				continue
			}
			if res := prom.query(t, q); len(res) == 0 {
				t.Errorf("%s: %s returns no data after the run", name, q)
			} else if kind == "ratio" {
				for _, s := range res {
					if s.value < 0 || s.value > 1 || math.IsNaN(s.value) {
						t.Errorf("%s: %s = %v, want a ratio in [0, 1]", name, q, s.value)
					}
				}
			}
		}
		if unit := p.FieldConfig.Defaults.Unit; kind != "" && !contains(panelUnits[kind], unit) {
			t.Errorf("%s reads %s series but has unit %q, want one of %v", name, kind, unit, panelUnits[kind])
		}
	}
	if queries < 10 {
		t.Errorf("the dashboard has %d queries, want the latency, outcome, load and threshold panels", queries)
	}
}

// checkBucketVariable runs the bucket variable's label_values query the
// way Grafana does, through the label values API.
func checkBucketVariable(t *testing.T, prom *prometheus, d dashboard, bucket string) {
	t.Helper()
	labelValuesRE := regexp.MustCompile(`^label_values\((\w+),\s*(\w+)\)$`)
	for _, v := range d.Templating.List {
		if v.Name != "bucket" {
			continue
		}
		q := fmt.Sprint(v.Query)
		if m, ok := v.Query.(map[string]any); ok {
			q = fmt.Sprint(m["query"])
		}
		m := labelValuesRE.FindStringSubmatch(q)
		if m == nil {
			t.Fatalf("bucket variable query %q: want label_values(metric, label)", q)
		}
		resp, err := http.Get(prom.base + "/api/v1/label/" + m[2] + "/values?match[]=" + url.QueryEscape(m[1]))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct{ Data []string }
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			t.Fatal(err)
		}
		if !contains(r.Data, bucket) {
			t.Errorf("bucket variable %s lists %v, want %q among them", q, r.Data, bucket)
		}
		return
	}
	t.Error("the dashboard has no bucket variable")
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
