package options

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// envVar reads one K6_* variable's non-empty value into o.
type envVar struct {
	name string
	set  func(o *Options, s string) error
}

// envVars lists the variables FromEnv reads, in the order it reports errors.
var envVars = []envVar{
	{"K6_VUS", func(o *Options, s string) (err error) { o.VUs, err = ptrTo(envCount(s)); return err }},
	{"K6_DURATION", func(o *Options, s string) (err error) { o.Duration, err = ptrTo(envDuration(s)); return err }},
	{"K6_ITERATIONS", func(o *Options, s string) (err error) { o.Iterations, err = ptrTo(envCount(s)); return err }},
	{"K6_STAGES", func(o *Options, s string) (err error) { o.Stages, err = ParseStages(s); return err }},
	{"K6_SUMMARY_TREND_STATS", setTrendStats},
	{"K6_SUMMARY_TIME_UNIT", func(o *Options, s string) error { o.SummaryTimeUnit = s; return checkTimeUnit(s) }},
	{"K6_SUMMARY_EXPORT", func(o *Options, s string) error { o.SummaryExport = s; return nil }},
	{"K6_NO_SUMMARY", func(o *Options, s string) (err error) { o.NoSummary, err = envBool(s); return err }},
	{"K6_NO_THRESHOLDS", func(o *Options, s string) (err error) { o.NoThresholds, err = envBool(s); return err }},
	{"K6_EXECUTION_SEGMENT", func(o *Options, s string) (err error) {
		o.ExecutionSegment = s
		_, err = ParseSegment(s)
		return err
	}},
	{"K6_EXECUTION_SEGMENT_SEQUENCE", func(o *Options, s string) (err error) {
		o.ExecutionSegmentSequence = s
		_, err = ParseSequence(s)
		return err
	}},
	{"USEFULLATENCY_PROBE_TRANSPORT", func(o *Options, s string) error { o.ProbeTransport = s; return checkProbeTransport(s) }},
	{"USEFULLATENCY_PROBE_CAPTURE", func(o *Options, s string) error { o.ProbeCapture = s; return checkProbeCapture(s) }},
	{"K6_INSECURE_SKIP_TLS_VERIFY", func(o *Options, s string) (err error) { o.InsecureSkipTLS, err = envBool(s); return err }},
	{"K6_OUT", func(o *Options, s string) error { o.Out = splitList(s); return nil }},
	{"K6_SETUP_TIMEOUT", func(o *Options, s string) (err error) { o.SetupTimeout, err = envDuration(s); return err }},
	{"K6_TEARDOWN_TIMEOUT", func(o *Options, s string) (err error) { o.TeardownTimeout, err = envDuration(s); return err }},
}

// FromEnv reads the K6_* environment layer from environ ("KEY=value"
// entries as os.Environ returns them; for a repeated key the last one
// wins). It reads K6_VUS, K6_DURATION, K6_ITERATIONS, K6_STAGES
// ("30s:10,1m:20", see ParseStages), K6_SUMMARY_TREND_STATS (comma
// separated), K6_SUMMARY_TIME_UNIT (s, ms or us), K6_SUMMARY_EXPORT,
// K6_NO_SUMMARY, K6_NO_THRESHOLDS, K6_EXECUTION_SEGMENT,
// K6_EXECUTION_SEGMENT_SEQUENCE, K6_INSECURE_SKIP_TLS_VERIFY, K6_OUT
// (comma separated), K6_SETUP_TIMEOUT, K6_TEARDOWN_TIMEOUT and the
// variable of each option of the k6Options table (K6_NO_SETUP,
// K6_MAX_REDIRECTS, K6_DNS, ...; see Options.SetText for their forms). Empty
// values count as unset. Booleans take strconv.ParseBool's forms. Every
// invalid value is reported, as a FieldError named after its variable.
// The result has Source "environment".
func FromEnv(environ []string) (Options, error) {
	env := EnvMap(environ)
	o := Options{Source: "environment"}
	var errs []error
	for _, v := range envVars {
		if s := strings.TrimSpace(env[v.name]); s != "" {
			errs = append(errs, at(v.name, v.set(&o, s)))
		}
	}
	return o, errors.Join(errs...)
}

// EnvMap indexes "KEY=value" entries, as os.Environ returns them, by key;
// for a repeated key the last entry wins, and entries without "=" are
// skipped.
func EnvMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// envCount reads a non-negative integer.
func envCount(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a non-negative integer", s)
	}
	return n, nil
}

func envDuration(s string) (Duration, error) {
	d, err := ParseDuration(s)
	return Duration(d), err
}

func envBool(s string) (bool, error) {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("%q is not a boolean (want true or false)", s)
	}
	return b, nil
}

// setTrendStats reads a comma-separated list of trend stats and checks them.
func setTrendStats(o *Options, s string) error {
	o.SummaryTrendStats = splitList(s)
	return checkTrendStats(o.SummaryTrendStats)
}
