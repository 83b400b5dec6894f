package options

import (
	"reflect"
	"testing"
	"time"
)

func TestFromEnv(t *testing.T) {
	o, err := FromEnv([]string{
		"PATH=/bin",
		"K6_VUS=1",
		"K6_VUS=10", // the last one wins
		"K6_DURATION=1m",
		"K6_ITERATIONS=50",
		"K6_STAGES=30s:10,1m:20",
		"K6_SUMMARY_TREND_STATS=avg, p(99.9) ,max",
		"K6_SUMMARY_TIME_UNIT=us",
		"K6_SUMMARY_EXPORT=out.json",
		"K6_NO_SUMMARY=true",
		"K6_NO_THRESHOLDS=1",
		"K6_EXECUTION_SEGMENT=1/3:2/3",
		"K6_EXECUTION_SEGMENT_SEQUENCE=0,1/3,2/3,1",
		"K6_INSECURE_SKIP_TLS_VERIFY=TRUE",
		"K6_OUT=json=a.json, csv=b.csv",
		"K6_SETUP_TIMEOUT=90s",
		"K6_TEARDOWN_TIMEOUT=1d",
		"K6_QUIET=",
		"USEFULLATENCY_PROBE_TRANSPORT=nethttp",
	})
	checkErrors(t, err)
	want := Options{
		VUs: ptr[int64](10), Duration: ptr(Duration(time.Minute)), Iterations: ptr[int64](50),
		Stages:            []Stage{{Duration(30 * time.Second), 10}, {Duration(time.Minute), 20}},
		SummaryTrendStats: []string{"avg", "p(99.9)", "max"}, SummaryTimeUnit: "us",
		SummaryExport: "out.json", NoSummary: true, NoThresholds: true,
		ExecutionSegment: "1/3:2/3", ExecutionSegmentSequence: "0,1/3,2/3,1",
		InsecureSkipTLS: true, Out: []string{"json=a.json", "csv=b.csv"},
		SetupTimeout: Duration(90 * time.Second), TeardownTimeout: Duration(24 * time.Hour),
		Source: "environment", ProbeTransport: "nethttp",
	}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("got  %+v\nwant %+v", o, want)
	}
}

func TestFromEnvEmptyIsUnset(t *testing.T) {
	o, err := FromEnv([]string{"K6_VUS=", "K6_DURATION=  ", "K6_OUT="})
	checkErrors(t, err)
	if o.VUs != nil || o.Duration != nil || o.Out != nil {
		t.Fatalf("empty values were set: %+v", o)
	}
}

func TestFromEnvErrors(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		want []string
	}{
		{"vus not a number", []string{"K6_VUS=ten"}, []string{`K6_VUS: "ten" is not a non-negative integer`}},
		{"vus negative", []string{"K6_VUS=-1"}, []string{"K6_VUS: "}},
		{"iterations fractional", []string{"K6_ITERATIONS=1.5"}, []string{"K6_ITERATIONS: "}},
		{"duration", []string{"K6_DURATION=long"}, []string{`K6_DURATION: invalid duration "long"`}},
		{"stages", []string{"K6_STAGES=30s:x"}, []string{`K6_STAGES: stage 1 "30s:x": target "x"`}},
		{"trend stats", []string{"K6_SUMMARY_TREND_STATS=avg,p(101),mean"},
			[]string{`K6_SUMMARY_TREND_STATS: invalid trend stat "p(101)", "mean"`}},
		{"time unit", []string{"K6_SUMMARY_TIME_UNIT=ns"}, []string{`K6_SUMMARY_TIME_UNIT: invalid time unit "ns"`}},
		{"bool", []string{"K6_NO_SUMMARY=yes"}, []string{`K6_NO_SUMMARY: "yes" is not a boolean`}},
		{"segment", []string{"K6_EXECUTION_SEGMENT=2/3:1/3"}, []string{"K6_EXECUTION_SEGMENT: execution segment"}},
		{"sequence", []string{"K6_EXECUTION_SEGMENT_SEQUENCE=0,1/2,1/3"}, []string{"K6_EXECUTION_SEGMENT_SEQUENCE: "}},
		{"tls bool", []string{"K6_INSECURE_SKIP_TLS_VERIFY=on"}, []string{"K6_INSECURE_SKIP_TLS_VERIFY: "}},
		{"setup timeout", []string{"K6_SETUP_TIMEOUT=x"}, []string{"K6_SETUP_TIMEOUT: "}},
		{"probe transport", []string{"USEFULLATENCY_PROBE_TRANSPORT=epoll"},
			[]string{`USEFULLATENCY_PROBE_TRANSPORT: invalid probe transport "epoll": want reactor or nethttp`}},
		{"every problem in order", []string{"K6_NO_SUMMARY=2", "K6_VUS=x", "K6_DURATION=y"},
			[]string{"K6_VUS:", "K6_DURATION:", "K6_NO_SUMMARY:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromEnv(tt.env)
			checkErrors(t, err, tt.want...)
		})
	}
}

// TestProbeTransport checks the probe transport's values: the flag layer
// wins over the environment, and a wrong value names the option.
func TestProbeTransport(t *testing.T) {
	for _, v := range []string{"", "reactor", "nethttp"} {
		o := Options{ProbeTransport: v}
		checkErrors(t, joinErrs(o.validateSettings()))
	}
	o := Options{ProbeTransport: "epoll"}
	checkErrors(t, joinErrs(o.validateSettings()), `probeTransport: invalid probe transport "epoll"`)
	env, flags := Options{ProbeTransport: "nethttp"}, Options{ProbeTransport: "reactor"}
	env.apply(flags)
	if env.ProbeTransport != "reactor" {
		t.Errorf("flag over env: %q", env.ProbeTransport)
	}
	flags.apply(Options{})
	if flags.ProbeTransport != "reactor" {
		t.Errorf("an unset layer cleared it: %q", flags.ProbeTransport)
	}
}

// TestProbeCapture checks the probe capture's values and that the flag
// layer wins over the environment.
func TestProbeCapture(t *testing.T) {
	for _, v := range []string{"", "auto", "on", "off"} {
		o := Options{ProbeCapture: v}
		checkErrors(t, joinErrs(o.validateSettings()))
	}
	o := Options{ProbeCapture: "yes"}
	checkErrors(t, joinErrs(o.validateSettings()), `probeCapture: invalid probe capture "yes"`)
	env, flags := Options{ProbeCapture: "off"}, Options{ProbeCapture: "on"}
	env.apply(flags)
	if env.ProbeCapture != "on" {
		t.Errorf("flag over env: %q", env.ProbeCapture)
	}
}
