package search

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// testRun is a registry with the metrics a judged window reads.
type testRun struct {
	reg                            *metrics.Registry
	useful, lag, dropped, cpu, bad *metrics.Metric
	t0                             time.Time
}

func newTestRun() *testRun {
	reg := metrics.NewRegistry()
	return &testRun{reg: reg, t0: time.Unix(1000, 0),
		useful:  reg.MustNewMetric("usefulsse_useful", metrics.Trend, metrics.Time),
		lag:     reg.MustNewMetric("schedule_lag", metrics.Trend, metrics.Time),
		dropped: reg.MustNewMetric("dropped_iterations", metrics.Counter),
		cpu:     reg.MustNewMetric(metrics.ProbeClientCPU, metrics.Gauge),
		bad:     reg.MustNewMetric("premature_commits", metrics.Rate),
	}
}

// at is a sample of m at second s of the run.
func (r *testRun) at(m *metrics.Metric, s float64, v float64, tags metrics.Tags) metrics.Sample {
	return metrics.Sample{Metric: m, Time: r.t0.Add(time.Duration(s * float64(time.Second))), Value: v, Tags: tags}
}

var gateConfig = map[string][]metrics.ThresholdConfig{
	"usefulsse_useful{bucket:qa}":          {{Source: "p(95)<2500"}},
	"usefulsse_useful{bucket:single_tool}": {{Source: "p(95)<4000"}},
	"premature_commits":                    {{Source: "rate==0"}},
	"dropped_iterations":                   {{Source: "count==0"}},
}

// window fills a window over seconds 10-20 with qa and single_tool
// answers taking qa and tool ms, and one sample of each before and
// after it that would fail every gate.
func (r *testRun) window(qa, tool float64, extra ...metrics.Sample) *Window {
	w := NewWindow(r.t0.Add(10*time.Second), r.t0.Add(20*time.Second))
	var ss []metrics.Sample
	for i := range 100 {
		s := 10 + float64(i)/10
		ss = append(ss, r.at(r.useful, s, qa, metrics.Tags{"bucket": "qa"}),
			r.at(r.useful, s, tool, metrics.Tags{"bucket": "single_tool"}),
			r.at(r.lag, s, 1, nil), r.at(r.bad, s, 0, nil), r.at(r.cpu, s, 0.3, nil))
	}
	for _, s := range []float64{9.99, 20} { // outside the window
		ss = append(ss, r.at(r.useful, s, 1e6, metrics.Tags{"bucket": "qa"}), r.at(r.bad, s, 1, nil), r.at(r.dropped, s, 5, nil))
	}
	w.Add(append(ss, extra...))
	return w
}

func judge(t *testing.T, r *testRun, w *Window) Step {
	t.Helper()
	st, err := w.Judge(r.reg, gateConfig, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestJudgeWindow checks that a step is judged on the samples inside its
// window only, gate by gate, with its achieved rate.
func TestJudgeWindow(t *testing.T) {
	r := newTestRun()
	st := judge(t, r, r.window(1200, 3000))
	if st.Result != Pass || len(st.Gates) != 4 || len(st.Failed()) != 0 {
		t.Fatalf("%s: %+v", st.Result, st.Gates)
	}
	if st.Achieved != 10 {
		t.Errorf("achieved %v iterations/s, want 10 (100 starts in 10 s)", st.Achieved)
	}
	for _, g := range st.Gates {
		if g.Metric == "usefulsse_useful{bucket:qa}" && (*g.Value != 1200 || g.Samples != 100 || g.Limit != 2500) {
			t.Errorf("qa gate %+v", g)
		}
	}
	if st.Health.CPU == nil || math.Abs(*st.Health.CPU-0.3) > 1e-9 || st.Health.Dropped != 0 || st.Health.LagP95 == nil {
		t.Errorf("health %+v", st.Health)
	}
}

// TestJudgeNamesTheBucket checks that a gate failing for one bucket only
// is the one named, as the answer line shows it.
func TestJudgeNamesTheBucket(t *testing.T) {
	r := newTestRun()
	st := judge(t, r, r.window(1200, 5200))
	if st.Result != Fail || len(st.Failed()) != 1 {
		t.Fatalf("%s: failed %+v", st.Result, st.Failed())
	}
	g, _ := st.worst()
	if g.Name() != "usefulsse_useful{bucket:single_tool} p(95)<4000" || *g.Value != 5200 {
		t.Errorf("worst gate %s = %v", g.Name(), *g.Value)
	}
	if !strings.Contains(st.String(), "usefulsse_useful{bucket:single_tool} p(95)<4000 was 5200") {
		t.Errorf("line %q", st.String())
	}
}

// TestJudgeRunnerLimits checks that a saturated runner makes the step
// runner-limited even when gates fail, and that dropped iterations alone
// make it runner-limited while a failing latency gate beside them makes
// it a failure.
func TestJudgeRunnerLimits(t *testing.T) {
	r := newTestRun()
	hot := []metrics.Sample{}
	for i := range 1000 { // outweighs the window's 100 samples at 30 %
		hot = append(hot, r.at(r.cpu, 10+float64(i)/100, 0.99, nil))
	}
	st := judge(t, r, r.window(9000, 9000, hot...))
	if st.Result != Limited || !strings.Contains(strings.Join(st.Health.Limits, ";"), "runner CPU at") {
		t.Errorf("saturated: %s %v", st.Result, st.Health.Limits)
	}
	drop := []metrics.Sample{r.at(r.dropped, 15, 3, nil)}
	if st := judge(t, r, r.window(1200, 3000, drop...)); st.Result != Limited || st.Health.Dropped != 3 {
		t.Errorf("dropped only: %s, dropped %d", st.Result, st.Health.Dropped)
	}
	if st := judge(t, r, r.window(3000, 3000, drop...)); st.Result != Fail {
		t.Errorf("dropped and a slow qa: %s", st.Result)
	}
	late := []metrics.Sample{}
	for range 20 {
		late = append(late, r.at(r.lag, 12, 400, nil))
	}
	if st := judge(t, r, r.window(1200, 3000, late...)); st.Result != Limited || !strings.Contains(st.Health.Limits[0], "schedule lag") {
		t.Errorf("late starts: %s %v", st.Result, st.Health.Limits)
	}
}
