package summary

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./summary -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the text (go test ./summary -update rewrites it)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}

func TestTextGolden(t *testing.T) {
	tests := []struct {
		golden string
		edit   func(*Input)
		opts   TextOptions
	}{
		{golden: "text.golden", opts: TextOptions{Mode: Full}},
		{golden: "text_seconds_indent.golden", edit: func(in *Input) {
			in.TimeUnit = "s"
			in.TrendStats = []string{"count", "med", "p(99.9)"}
		}, opts: TextOptions{Indent: "> ", Mode: Full}},
		{golden: "text_compact.golden"},
		{golden: "text_legacy.golden", opts: TextOptions{Indent: " ", Mode: Legacy}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			in := richRun(t)
			if tt.edit != nil {
				tt.edit(&in)
			}
			golden(t, tt.golden, Text(in, tt.opts))
		})
	}
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestTextColor(t *testing.T) {
	in := richRun(t)
	plain := Text(in, TextOptions{Mode: Full})
	colored := Text(in, TextOptions{Color: true, Mode: Full})
	if ansi.MatchString(plain) {
		t.Error("text without Color has ANSI escape codes")
	}
	for _, want := range []string{green + "✓" + reset, red + "✗" + reset, green + "✓ 2" + reset, red + "✗ 1" + reset} {
		if !strings.Contains(colored, want) {
			t.Errorf("colored text lacks %q", want)
		}
	}
	if got := ansi.ReplaceAllString(colored, ""); got != plain {
		t.Errorf("colored text without its escape codes differs from the plain text:\n%s", got)
	}
}

func TestTextHidesMetricsWithoutSamples(t *testing.T) {
	text := Text(richRun(t), TextOptions{})
	for _, name := range []string{"never_used", "dropped_iterations", "schedule_lag", "no checks here"} {
		if strings.Contains(text, name) {
			t.Errorf("text shows %q, which has no samples, thresholds or checks", name)
		}
	}
}

func TestTextEmptyRun(t *testing.T) {
	in := Input{Duration: time.Second}
	want := "\n  █ TOTAL RESULTS \n\n\n"
	if got := Text(in, TextOptions{}); got != want {
		t.Errorf("Text of an empty run = %q, want %q", got, want)
	}
}

func TestTextChecksFromTreeWithoutChecksMetric(t *testing.T) {
	root := metrics.NewRootGroup()
	c := root.Check("ok")
	c.Record(true)
	c.Record(false)
	text := Text(Input{Root: root, Duration: 2 * time.Second}, TextOptions{})
	for _, want := range []string{
		"    checks_total.......: 2      1/s\n",
		"    checks_succeeded...: 50.00% 1 out of 2\n",
		"    ✗ ok\n      ↳  50% — ✓ 1 / ✗ 1\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

func TestThresholdValue(t *testing.T) {
	r := newRun(t)
	trend := r.metric("latency", metrics.Trend, metrics.Time)
	r.push(trend, nil, 100, 200)
	counter := r.metric("bytes", metrics.Counter, metrics.Data)
	r.push(counter, nil, 5000)
	rate := r.metric("errors", metrics.Rate)
	r.push(rate, nil, 1, 0, 0)
	gauge := r.metric("depth", metrics.Gauge)
	r.push(gauge, nil, 4)
	in := r.input(2 * time.Second)
	tests := []struct {
		m    *metrics.Metric
		src  string
		want string
	}{
		{trend, "p(95)<1500", " p(95)=195ms"},
		{trend, "avg <= 150", " avg=150ms"},
		{trend, "count>1", " count=2"},
		{trend, "med===150", " med=150ms"},
		{counter, "count>=10", " count=5.0 kB"},
		{counter, "rate<100", " rate=2.5 kB/s"},
		{rate, "rate!=0", " rate=33.33%"},
		{gauge, "value>3", " value=4"},
		{gauge, "p(99)<3", ""},
		{trend, "p( 99.90 ) < 1", " p(99.9)=199.9ms"},
	}
	for _, tt := range tests {
		th, err := metrics.ParseThreshold(metrics.ThresholdConfig{Source: tt.src})
		if err != nil {
			t.Fatal(err)
		}
		th.Eval(tt.m, in.Duration)
		if got := thresholdValue(tt.m, th, in); got != tt.want {
			t.Errorf("thresholdValue(%s, %q) = %q, want %q", tt.m.Name, tt.src, got, tt.want)
		}
	}
}

// TestTextScenarioSections checks the full summary's SCENARIO sections:
// each scenario's own checks and metrics, from the per-scenario breakdown,
// and none in compact mode.
func TestTextScenarioSections(t *testing.T) {
	r := newRun(t)
	iters := r.metric("iterations", metrics.Counter)
	checks := r.metric("checks", metrics.Rate)
	b := metrics.NewBreakdown([]string{"scenario"}, iters, checks)
	samples := []metrics.Sample{
		{Metric: iters, Tags: metrics.Tags{"scenario": "browse"}, Value: 1},
		{Metric: iters, Tags: metrics.Tags{"scenario": "browse"}, Value: 1},
		{Metric: iters, Tags: metrics.Tags{"scenario": "buy"}, Value: 1},
		{Metric: checks, Tags: metrics.Tags{"scenario": "buy"}, Value: 0},
	}
	b.Add(samples)
	tally := metrics.NewCheckTally("scenario", checks)
	tally.Add([]metrics.Sample{{Metric: checks, Tags: metrics.Tags{"scenario": "buy", "check": "paid"}, Value: 0}})
	r.push(iters, nil, 1, 1, 1)
	r.push(checks, nil, 0)
	in := r.input(time.Second)
	in.ByScenario, in.ChecksByScenario = b, tally
	full := Text(in, TextOptions{Mode: Full})
	for _, want := range []string{
		"█ SCENARIO: browse \n\n    EXECUTION\n    iterations...: 2 2/s\n",
		"█ SCENARIO: buy \n\n    checks_total.......: 1       1/s\n",
		"    checks_failed......: 100.00% 1 out of 1\n\n    ✗ paid\n      ↳  0% — ✓ 0 / ✗ 1\n",
	} {
		if !strings.Contains(full, want) {
			t.Errorf("full summary lacks %q:\n%s", want, full)
		}
	}
	if compact := Text(in, TextOptions{}); strings.Contains(compact, "SCENARIO") {
		t.Errorf("compact summary has scenario sections:\n%s", compact)
	}
}

// TestTextGroupMetrics checks that the full summary's GROUP sections show
// the metrics of the samples taken in each group, also for a group
// without checks, from the per-group breakdown.
func TestTextGroupMetrics(t *testing.T) {
	r := newRun(t)
	reqs := r.metric("http_reqs", metrics.Counter)
	api := r.root.Group("api")
	api.Group("login")
	b := metrics.NewBreakdown([]string{"group"}, reqs)
	b.Add([]metrics.Sample{
		{Metric: reqs, Tags: metrics.Tags{"group": "::api"}, Value: 1},
		{Metric: reqs, Tags: metrics.Tags{"group": "::api::login"}, Value: 1},
		{Metric: reqs, Tags: metrics.Tags{"group": "::api::login"}, Value: 1},
	})
	r.push(reqs, nil, 1, 1, 1)
	in := r.input(time.Second)
	in.ByGroup = b
	full := Text(in, TextOptions{Mode: Full})
	for _, want := range []string{
		"█ GROUP: api \n\n    HTTP\n    http_reqs...: 1 1/s\n",
		"    ↳ GROUP: login\n\n      HTTP\n      http_reqs...: 2 2/s\n",
	} {
		if !strings.Contains(full, want) {
			t.Errorf("full summary lacks %q:\n%s", want, full)
		}
	}
}

func TestWebSocketMetricsHaveTheirBlock(t *testing.T) {
	for name, want := range map[string]string{
		"ws_connecting": "WEBSOCKET", "ws_msgs_received": "WEBSOCKET", "ws_session_duration": "WEBSOCKET",
		"ws_custom_thing": "CUSTOM", "data_sent": "NETWORK",
		"grpc_req_duration": "GRPC", "grpc_streams": "GRPC", "grpc_streams_msgs_received": "GRPC", "grpc_custom": "CUSTOM",
	} {
		if got := blockOf(name); got != want {
			t.Errorf("blockOf(%q) = %q, want %q", name, got, want)
		}
	}
}
