package summary

import (
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// run is a small metrics world for tests: a registry with the built-in
// metrics, an engine, and a group tree.
type run struct {
	t    *testing.T
	reg  *metrics.Registry
	eng  *metrics.Engine
	root *metrics.Group
}

func newRun(t *testing.T) *run {
	t.Helper()
	reg := metrics.NewRegistry()
	metrics.RegisterBuiltin(reg)
	return &run{t: t, reg: reg, eng: metrics.NewEngine(reg), root: metrics.NewRootGroup()}
}

// metric registers (or returns) a metric.
func (r *run) metric(name string, typ metrics.MetricType, vt ...metrics.ValueType) *metrics.Metric {
	r.t.Helper()
	m, err := r.reg.NewMetric(name, typ, vt...)
	if err != nil {
		r.t.Fatal(err)
	}
	return m
}

// sub registers the submetric of parent selected by sel.
func (r *run) sub(parent *metrics.Metric, sel string) *metrics.Metric {
	r.t.Helper()
	m, err := r.reg.Submetric(parent, sel)
	if err != nil {
		r.t.Fatal(err)
	}
	return m
}

// push adds values to m with tags.
func (r *run) push(m *metrics.Metric, tags metrics.Tags, vs ...float64) {
	for _, v := range vs {
		r.eng.Push(metrics.Sample{Metric: m, Tags: tags, Value: v})
	}
}

// check records passes and fails of a check in g, and in the checks metric.
func (r *run) check(g *metrics.Group, name string, passes, fails int) {
	c := g.Check(name)
	checks := r.reg.Get("checks")
	for i := 0; i < passes+fails; i++ {
		pass := i < passes
		c.Record(pass)
		v := 0.0
		if pass {
			v = 1
		}
		r.push(checks, metrics.Tags{"check": name, "group": g.Path}, v)
	}
}

// input returns the summary input of the run.
func (r *run) input(d time.Duration) Input {
	return Input{Metrics: r.reg.All(), Root: r.root, Duration: d}
}

// threshold parses src, evaluates it on m as the runner's last evaluation
// would, at elapsed time d, and adds it to m with Failed forced, so a test
// can show a failing threshold whatever the value.
func threshold(t *testing.T, m *metrics.Metric, src string, d time.Duration, failed bool) {
	t.Helper()
	th, err := metrics.ParseThreshold(metrics.ThresholdConfig{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	th.Eval(m, d)
	th.Failed = failed
	m.Thresholds = append(m.Thresholds, th)
}

// richRun is the run behind the golden files: HTTP, streaming, custom,
// execution and network metrics, a submetric, a passing and a failing
// threshold (and one on a submetric), checks at the root and in nested
// groups, a group without checks and a metric without samples.
func richRun(t *testing.T) Input {
	r := newRun(t)
	dur := r.metric("http_req_duration", metrics.Trend, metrics.Time)
	ok := r.sub(dur, "expected_response:true")
	failed := r.metric("http_req_failed", metrics.Rate)
	reqs := r.metric("http_reqs", metrics.Counter)
	for i := 1; i <= 9; i++ {
		r.push(dur, metrics.Tags{"expected_response": "true"}, 100+float64(i)*5.5)
		r.push(failed, nil, 0)
		r.push(reqs, nil, 1)
	}
	r.push(dur, metrics.Tags{"expected_response": "false"}, 1500)
	r.push(failed, nil, 1)
	r.push(reqs, nil, 1)
	const d = 10 * time.Second
	threshold(t, dur, "p(95)<1500", d, false)
	threshold(t, dur, "p(90) < 200", d, true)
	threshold(t, ok, "avg<1000", d, false)
	threshold(t, failed, "rate<0.01", d, true)

	ttft := r.metric("usefulsse_time_to_first_token", metrics.Trend, metrics.Time)
	r.push(ttft, nil, 0.25, 0.5, 0.75, 12.5)
	events := r.metric("usefulsse_events", metrics.Counter)
	r.push(events, nil, 40, 2)

	myTrend := r.metric("my_trend", metrics.Trend)
	r.push(myTrend, nil, 3.5, 10, 152.355556, 684)
	myGauge := r.metric("queue_depth", metrics.Gauge)
	r.push(myGauge, nil, 7, 2, 4)
	r.metric("never_used", metrics.Counter)

	r.push(r.reg.Get("iterations"), nil, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
	r.push(r.reg.Get("iteration_duration"), nil, 1500, 62000, 999.999, 3725000)
	r.push(r.reg.Get("vus"), nil, 1, 3, 2)
	r.push(r.reg.Get("vus_max"), nil, 3)
	r.push(r.reg.Get("group_duration"), nil, 0.0005, 0.012)
	r.push(r.metric("data_received", metrics.Counter, metrics.Data), nil, 5300, 1234567)
	r.push(r.metric("data_sent", metrics.Counter, metrics.Data), nil, 4900)

	r.check(r.root, "status is 200", 10, 0)
	api := r.root.Group("api")
	r.check(api, "body ok", 2, 1)
	r.check(api, "status is 200", 3, 0)
	auth := api.Group("auth")
	r.check(auth, "token valid", 0, 3)
	r.root.Group("no checks here")

	return r.input(d)
}
