package metrics

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseThreshold(t *testing.T) {
	tests := []struct {
		name, src string
		agg       string
		pct       float64
		op        string
		target    float64
	}{
		{"less-equal", "avg<=200", "avg", 0, "<=", 200},
		{"less", "avg<200", "avg", 0, "<", 200},
		{"greater-equal", "min>=1.5", "min", 0, ">=", 1.5},
		{"greater", "max>1", "max", 0, ">", 1},
		{"strict-equal is equal", "count===10", "count", 0, "==", 10},
		{"equal", "value==3", "value", 0, "==", 3},
		{"not-equal", "rate!=0", "rate", 0, "!=", 0},
		{"med", "med<50", "med", 0, "<", 50},
		{"percentile", "p(95)<1500", "p(95)", 95, "<", 1500},
		{"decimal percentile", "p(99.9)<2000", "p(99.9)", 99.9, "<", 2000},
		{"percentile 0", "p(0)>=0", "p(0)", 0, ">=", 0},
		{"percentile 100", "p(100)<=9", "p(100)", 100, "<=", 9},
		{"percentile trailing zeros canonical", "p(95.00)<1", "p(95)", 95, "<", 1},
		{"spaces everywhere", "  p(90)   <   300  ", "p(90)", 90, "<", 300},
		{"spaces inside p", "p( 90 ) < 300", "p(90)", 90, "<", 300},
		{"tabs", "\tavg\t<\t1\t", "avg", 0, "<", 1},
		{"negative number", "value > -5", "value", 0, ">", -5},
		{"fraction without integer", "rate < .01", "rate", 0, "<", 0.01},
		{"exponent", "count < 1e3", "count", 0, "<", 1000},
		{"spaced strict equal", "count === 2", "count", 0, "==", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := ThresholdConfig{Source: tt.src, AbortOnFail: true, DelayAbortEval: time.Second}
			th, err := ParseThreshold(cfg)
			if err != nil {
				t.Fatalf("ParseThreshold(%q): %v", tt.src, err)
			}
			if th.Stat.String() != tt.agg || th.Stat.Percentile != tt.pct || th.Operator != tt.op || th.Target != tt.target {
				t.Errorf("got agg=%q pct=%v op=%q target=%v, want %q %v %q %v",
					th.Stat, th.Stat.Percentile, th.Operator, th.Target, tt.agg, tt.pct, tt.op, tt.target)
			}
			if th.ThresholdConfig != cfg {
				t.Errorf("config = %+v, want %+v", th.ThresholdConfig, cfg)
			}
		})
	}
}

func TestParseThresholdInvalid(t *testing.T) {
	tests := []struct {
		name, src, wantErr string
	}{
		{"percentile above 100", "p(101)<1", "invalid percentile"},
		{"negative percentile", "p(-1)<1", "invalid percentile"},
		{"percentile without parentheses", "p95<1", "unknown stat"},
		{"empty percentile", "p()<1", "invalid percentile"},
		{"unclosed percentile", "p(95<1", "invalid percentile"},
		{"missing number", "avg<", "missing number"},
		{"unknown aggregation", "foo<1", "unknown stat"},
		{"unit on number", "avg<1ms", "invalid number"},
		{"double operator", "p(95)<<2", "invalid number"},
		{"no operator", "avg 1", "no comparison operator"},
		{"single equals", "avg=1", "no comparison operator"},
		{"empty", "", "no comparison operator"},
		{"missing aggregation", "<1", "missing aggregation"},
		{"upper case aggregation", "AVG<1", "unknown stat"},
		{"sum is no threshold aggregation", "sum<1", "not a threshold aggregation"},
		{"infinity", "avg<Inf", "invalid number"},
		{"nan", "avg<NaN", "invalid number"},
		{"hexadecimal", "avg<0x10", "invalid number"},
		{"overflow", "avg<1e999", "out of range"},
		{"two numbers", "avg<1 2", "invalid number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, err := ParseThreshold(ThresholdConfig{Source: tt.src})
			if err == nil {
				t.Fatalf("ParseThreshold(%q) = %+v, want error", tt.src, th)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.wantErr) {
				t.Errorf("error %q does not contain %q", msg, tt.wantErr)
			}
			if want := `threshold "` + tt.src + `"`; !strings.HasPrefix(msg, want) {
				t.Errorf("error %q does not start with %q", msg, want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q spans several lines", msg)
			}
		})
	}
}

func TestThresholdValidate(t *testing.T) {
	all := []string{"avg", "min", "max", "med", "p(95)", "count", "rate", "value"}
	allowed := map[MetricType]map[string]bool{
		Counter: {"count": true, "rate": true},
		Gauge:   {"value": true},
		Rate:    {"rate": true},
		Trend:   {"avg": true, "min": true, "max": true, "med": true, "p(95)": true},
	}
	for _, typ := range []MetricType{Counter, Gauge, Rate, Trend} {
		for _, agg := range all {
			t.Run(typ.String()+"/"+agg, func(t *testing.T) {
				th, err := ParseThreshold(ThresholdConfig{Source: agg + "<1"})
				if err != nil {
					t.Fatal(err)
				}
				err = th.Validate(typ)
				if allowed[typ][agg] {
					if err != nil {
						t.Errorf("Validate(%s) = %v, want nil", typ, err)
					}
					return
				}
				if err == nil {
					t.Fatalf("Validate(%s) accepted %q", typ, agg)
				}
				for _, want := range []string{agg + "<1", `"` + agg + `"`, typ.String()} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not name %q", err, want)
					}
				}
			})
		}
	}
}

func TestThresholdValidateListsAllowed(t *testing.T) {
	th, err := ParseThreshold(ThresholdConfig{Source: "avg<1"})
	if err != nil {
		t.Fatal(err)
	}
	err = th.Validate(Counter)
	if err == nil || !strings.Contains(err.Error(), "count, rate") {
		t.Errorf("Validate(Counter) = %v, want the allowed aggregations listed", err)
	}
}

// trend1to100 returns a Trend metric holding the values 1, 2, …, 100 added in
// a scrambled order.
func trend1to100() *Metric {
	m := newMetric("t", Trend, Time)
	for i := range 100 {
		m.Sink.Add(float64((i*37)%100 + 1))
	}
	return m
}

func TestThresholdValue(t *testing.T) {
	counter := newMetric("c", Counter, Default)
	for range 30 {
		counter.Sink.Add(2)
	}
	gauge := newMetric("g", Gauge, Default)
	gauge.Sink.Add(7)
	gauge.Sink.Add(3)
	rate := newMetric("r", Rate, Default)
	for _, v := range []float64{1, 0, 1, 1} {
		rate.Sink.Add(v)
	}
	tests := []struct {
		name    string
		m       *Metric
		src     string
		elapsed time.Duration
		want    float64
	}{
		{"counter count", counter, "count>0", 0, 60},
		{"counter rate per second", counter, "rate>0", 30 * time.Second, 2},
		{"counter rate at zero time", counter, "rate>0", 0, 0},
		{"gauge last value", gauge, "value>0", 0, 3},
		{"rate", rate, "rate>0", 0, 0.75},
		{"trend avg", trend1to100(), "avg<1", 0, 50.5},
		{"trend min", trend1to100(), "min<1", 0, 1},
		{"trend max", trend1to100(), "max<1", 0, 100},
		{"trend med", trend1to100(), "med<1", 0, 50.5},
		{"trend p(95)", trend1to100(), "p(95)<1", 0, 95.05},
		{"trend p(99.9)", trend1to100(), "p(99.9)<1", 0, 99.901},
		{"trend p(0)", trend1to100(), "p(0)<1", 0, 1},
		{"trend p(100)", trend1to100(), "p(100)<1", 0, 100},
		{"empty trend avg", newMetric("e", Trend, Time), "avg<1", 0, 0},
		{"empty trend min", newMetric("e", Trend, Time), "min<1", 0, 0},
		{"empty trend max", newMetric("e", Trend, Time), "max<1", 0, 0},
		{"empty trend med", newMetric("e", Trend, Time), "med<1", 0, 0},
		{"empty trend p(95)", newMetric("e", Trend, Time), "p(95)<1", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th := mustParse(t, tt.src)
			if got := th.Value(tt.m, tt.elapsed); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Value = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestThresholdValueMismatchIsNaN(t *testing.T) {
	th := mustParse(t, "avg<1")
	if v := th.Value(newMetric("c", Counter, Default), 0); !math.IsNaN(v) {
		t.Errorf("avg of a counter = %v, want NaN", v)
	}
	if th.Eval(newMetric("c", Counter, Default), 0) {
		t.Error("Eval passed an aggregation that does not apply to the metric")
	}
}

func TestThresholdEval(t *testing.T) {
	rate := newMetric("r", Rate, Default)
	rate.Sink.Add(1)
	rate.Sink.Add(0)
	tests := []struct {
		name    string
		m       *Metric
		src     string
		elapsed time.Duration
		pass    bool
	}{
		{"p(95) under target", trend1to100(), "p(95)<96", 0, true},
		{"p(95) over target", trend1to100(), "p(95)<95", 0, false},
		{"less-equal at boundary", trend1to100(), "max<=100", 0, true},
		{"less at boundary", trend1to100(), "max<100", 0, false},
		{"greater-equal at boundary", trend1to100(), "min>=1", 0, true},
		{"greater at boundary", trend1to100(), "min>1", 0, false},
		{"equal", trend1to100(), "avg==50.5", 0, true},
		{"strict equal", trend1to100(), "avg===50.5", 0, true},
		{"not equal", trend1to100(), "avg!=50.5", 0, false},
		{"rate half", rate, "rate>=0.5", 0, true},
		{"rate too low", rate, "rate>0.9", 0, false},
		{"empty rate passes", newMetric("r", Rate, Default), "rate>0.99", 0, true},
		{"empty trend reads zero and passes", newMetric("t", Trend, Time), "p(95)<1", 0, true},
		{"empty trend reads zero and fails", newMetric("t", Trend, Time), "min>0", 0, false},
		{"empty counter counts zero", newMetric("c", Counter, Default), "count>0", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th := mustParse(t, tt.src)
			th.Failed = tt.pass // Eval must overwrite it.
			if got := th.Eval(tt.m, tt.elapsed); got != tt.pass {
				t.Errorf("Eval = %v, want %v (value %v)", got, tt.pass, th.LastValue)
			}
			if th.Failed != !tt.pass {
				t.Errorf("Failed = %v, want %v", th.Failed, !tt.pass)
			}
		})
	}
}

func TestThresholdEvalCounterRateWithElapsed(t *testing.T) {
	m := newMetric("c", Counter, Default)
	for range 100 {
		m.Sink.Add(1)
	}
	th := mustParse(t, "rate<20")
	if th.Eval(m, 2*time.Second) { // 50/s
		t.Errorf("rate 50/s passed rate<20")
	}
	if !th.Eval(m, 10*time.Second) { // 10/s
		t.Errorf("rate 10/s failed rate<20 (value %v)", th.LastValue)
	}
	if th.LastValue != 10 {
		t.Errorf("LastValue = %v, want 10", th.LastValue)
	}
}

func TestApplyThresholdsSubmetric(t *testing.T) {
	reg := NewRegistry()
	dur := reg.MustNewMetric("http_req_duration", Trend, Time)
	reqs := reg.MustNewMetric("http_reqs", Counter)
	err := ApplyThresholds(reg, map[string][]ThresholdConfig{
		"http_req_duration":                        {{Source: "p(95)<1000"}},
		`http_req_duration{ status : "200" }`:      {{Source: "max<100"}, {Source: "avg < 50"}},
		"http_req_duration{status:200,method:GET}": {{Source: "min>=0"}},
		"http_reqs": {{Source: "count>0"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dur.Thresholds) != 1 || len(reqs.Thresholds) != 1 {
		t.Fatalf("parent thresholds: %d on duration, %d on reqs; want 1 and 1", len(dur.Thresholds), len(reqs.Thresholds))
	}
	if len(dur.Submetrics) != 2 {
		t.Fatalf("%d submetrics, want 2", len(dur.Submetrics))
	}
	sub, err := reg.Submetric(dur, "status:200")
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.Thresholds) != 2 {
		t.Fatalf("status:200 submetric has %d thresholds, want 2", len(sub.Thresholds))
	}

	e := NewEngine(reg)
	now := time.Now()
	e.Push(
		Sample{Metric: dur, Tags: Tags{"status": "200", "method": "GET"}, Time: now, Value: 10},
		Sample{Metric: dur, Tags: Tags{"status": "200", "method": "POST"}, Time: now, Value: 30},
		Sample{Metric: dur, Tags: Tags{"status": "500", "method": "GET"}, Time: now, Value: 900},
		Sample{Metric: reqs, Tags: Tags{"status": "200"}, Time: now, Value: 1},
	)
	if n := sub.Sink.(*TrendSink).Count(); n != 2 {
		t.Errorf("status:200 submetric got %d samples, want 2", n)
	}
	var failed, abort bool
	e.Read(func() { failed, abort = EvalThresholds(reg, time.Second, true) })
	if failed || abort {
		t.Fatalf("EvalThresholds = %v, %v; want all passing", failed, abort)
	}
	if got := sub.Thresholds[1].LastValue; got != 20 {
		t.Errorf("submetric avg = %v, want 20 (the 500 must not count)", got)
	}

	e.Push(Sample{Metric: dur, Tags: Tags{"status": "200"}, Time: now, Value: 150})
	e.Read(func() { failed, abort = EvalThresholds(reg, time.Second, true) })
	if !failed || abort {
		t.Errorf("EvalThresholds = %v, %v; want failed without abort", failed, abort)
	}
	if !sub.Thresholds[0].Failed || !sub.Thresholds[1].Failed || dur.Thresholds[0].Failed {
		t.Errorf("failed flags: sub max %v, sub avg %v, parent p(95) %v; want true, true, false",
			sub.Thresholds[0].Failed, sub.Thresholds[1].Failed, dur.Thresholds[0].Failed)
	}
}

func TestApplyThresholdsErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  map[string][]ThresholdConfig
		want []string // one entry per expected line, in order
	}{
		{
			name: "unknown metric",
			cfg:  map[string][]ThresholdConfig{"foo": {{Source: "count>0"}}},
			want: []string{`threshold on unknown metric "foo"`},
		},
		{
			name: "unknown metric with selector",
			cfg:  map[string][]ThresholdConfig{"foo{a:b}": {{Source: "count>0"}}},
			want: []string{`threshold on unknown metric "foo"`},
		},
		{
			name: "bad selector",
			cfg:  map[string][]ThresholdConfig{"http_reqs{status}": {{Source: "count>0"}}},
			want: []string{`threshold key "http_reqs{status}": invalid submetric selector`},
		},
		{
			name: "unclosed selector",
			cfg:  map[string][]ThresholdConfig{"http_reqs{status:200": {{Source: "count>0"}}},
			want: []string{`invalid submetric selector`},
		},
		{
			name: "many problems at once, sorted by key",
			cfg: map[string][]ThresholdConfig{
				"http_reqs":         {{Source: "avg<1"}, {Source: "count>0"}, {Source: "rate<<1"}},
				"foo":               {{Source: "p(101)<1"}},
				"http_req_duration": {{Source: "p(95)<1ms"}, {Source: "value<1"}},
			},
			want: []string{
				`threshold on unknown metric "foo"`,
				`metric "foo": threshold "p(101)<1": invalid percentile`,
				`metric "http_req_duration": threshold "p(95)<1ms": invalid number`,
				`metric "http_req_duration": threshold "value<1": aggregation "value" does not apply to a trend metric`,
				`metric "http_reqs": threshold "avg<1": aggregation "avg" does not apply to a counter metric; a counter allows count, rate`,
				`metric "http_reqs": threshold "rate<<1": invalid number`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := NewRegistry()
			dur := reg.MustNewMetric("http_req_duration", Trend, Time)
			reqs := reg.MustNewMetric("http_reqs", Counter)
			err := ApplyThresholds(reg, tt.cfg)
			if err == nil {
				t.Fatal("ApplyThresholds returned nil")
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("%d error lines, want %d:\n%v", len(lines), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.Contains(lines[i], w) {
					t.Errorf("line %d = %q, want it to contain %q", i, lines[i], w)
				}
			}
			if len(dur.Thresholds)+len(reqs.Thresholds) != 0 || len(dur.Submetrics)+len(reqs.Submetrics) != 0 {
				t.Errorf("thresholds or submetrics attached despite errors")
			}
		})
	}
}

func TestEvalThresholdsAbort(t *testing.T) {
	tests := []struct {
		name        string
		cfg         ThresholdConfig
		elapsed     time.Duration
		final       bool
		failed      bool
		abort       bool
		addFailures bool
	}{
		{"passing never aborts", ThresholdConfig{Source: "rate<0.5", AbortOnFail: true}, time.Minute, true, false, false, false},
		{"failing without abortOnFail", ThresholdConfig{Source: "rate<0.5"}, time.Minute, true, true, false, true},
		{"abortOnFail without delay", ThresholdConfig{Source: "rate<0.5", AbortOnFail: true}, 0, false, true, true, true},
		{"before delay", ThresholdConfig{Source: "rate<0.5", AbortOnFail: true, DelayAbortEval: 10 * time.Second}, 9 * time.Second, false, true, false, true},
		{"at delay", ThresholdConfig{Source: "rate<0.5", AbortOnFail: true, DelayAbortEval: 10 * time.Second}, 10 * time.Second, false, true, true, true},
		{"final before delay", ThresholdConfig{Source: "rate<0.5", AbortOnFail: true, DelayAbortEval: 10 * time.Second}, time.Second, true, true, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := NewRegistry()
			m := reg.MustNewMetric("http_req_failed", Rate)
			if err := ApplyThresholds(reg, map[string][]ThresholdConfig{"http_req_failed": {tt.cfg}}); err != nil {
				t.Fatal(err)
			}
			e := NewEngine(reg)
			v := 0.0
			if tt.addFailures {
				v = 1
			}
			e.Push(Sample{Metric: m, Value: v}, Sample{Metric: m, Value: v})
			var failed, abort bool
			e.Read(func() { failed, abort = EvalThresholds(reg, tt.elapsed, tt.final) })
			if failed != tt.failed || abort != tt.abort {
				t.Errorf("EvalThresholds = failed %v, abort %v; want %v, %v", failed, abort, tt.failed, tt.abort)
			}
		})
	}
}

func mustParse(t *testing.T, src string) *Threshold {
	t.Helper()
	th, err := ParseThreshold(ThresholdConfig{Source: src})
	if err != nil {
		t.Fatalf("ParseThreshold(%q): %v", src, err)
	}
	return th
}
