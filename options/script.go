package options

import (
	"errors"
	"fmt"
)

// scriptOption reads one top-level script option into o. Errors are
// located by the caller unless the parser located them itself.
type scriptOption func(o *Options, v any) error

// scriptOptions maps the k6 option names this package understands to
// their parsers.
var scriptOptions = map[string]scriptOption{
	"vus":        func(o *Options, v any) (err error) { o.VUs, err = ptrTo(toInt(v)); return err },
	"duration":   func(o *Options, v any) (err error) { o.Duration, err = ptrTo(toDuration(v)); return err },
	"iterations": func(o *Options, v any) (err error) { o.Iterations, err = ptrTo(toInt(v)); return err },
	"stages": func(o *Options, v any) (err error) {
		o.Stages, err = parseStageList("stages", v)
		return err
	},
	"scenarios":  func(o *Options, v any) (err error) { o.Scenarios, err = parseScenarios(v); return err },
	"thresholds": func(o *Options, v any) (err error) { o.Thresholds, err = parseThresholds(v); return err },
	"summaryTrendStats": func(o *Options, v any) (err error) {
		o.SummaryTrendStats, err = toStringList(v)
		return err
	},
	"summaryTimeUnit":          func(o *Options, v any) (err error) { o.SummaryTimeUnit, err = toString(v); return err },
	"tags":                     func(o *Options, v any) (err error) { o.Tags, err = toStringMap(v); return err },
	"setupTimeout":             func(o *Options, v any) (err error) { o.SetupTimeout, err = toDuration(v); return err },
	"teardownTimeout":          func(o *Options, v any) (err error) { o.TeardownTimeout, err = toDuration(v); return err },
	"insecureSkipTLSVerify":    func(o *Options, v any) (err error) { o.InsecureSkipTLS, err = toBool(v); return err },
	"executionSegment":         func(o *Options, v any) (err error) { o.ExecutionSegment, err = toString(v); return err },
	"executionSegmentSequence": func(o *Options, v any) (err error) { o.ExecutionSegmentSequence, err = toString(v); return err },
	"tlsVersion":               func(o *Options, v any) (err error) { o.TLSVersion, err = parseTLSVersion(v); return err },
	"tlsCipherSuites":          func(o *Options, v any) (err error) { o.TLSCipherSuites, err = parseCipherSuites(v); return err },
	"tlsAuth":                  func(o *Options, v any) (err error) { o.TLSAuth, err = parseTLSAuth(v); return err },
}

// unsupportedK6Options are k6 options this runner knows by name but does
// not implement; they are ignored with a more precise warning.
var unsupportedK6Options = map[string]bool{
	"cloud": true, "ext": true,
}

// FromScript reads the options a script exports (export const options =
// {...}), as sobek's Export() gives them: map[string]any, []any, int64,
// float64, string and bool. It understands vus, duration, iterations,
// stages, scenarios, thresholds, summaryTrendStats, summaryTimeUnit, tags,
// setupTimeout, teardownTimeout, insecureSkipTLSVerify, executionSegment,
// executionSegmentSequence, tlsVersion, tlsCipherSuites, tlsAuth and the options of the k6Options table (noSetup,
// maxRedirects, dns, ...). Other keys are ignored and reported in
// Options.Warnings; null values count as unset, and so does "" for the
// numeric options, as in k6 (see toInt). Numbers may be given as strings
// ("4", "10s", "1500") in the forms k6 accepts. Type errors, unknown
// scenario fields and missing required scenario fields are returned
// together as FieldErrors; value ranges are checked later by Consolidate.
// The result has Source "script".
func FromScript(raw map[string]any) (Options, error) {
	o := Options{Source: "script"}
	var errs []error
	for _, key := range sortedKeys(raw) {
		parse, ok := scriptOptions[key]
		switch {
		case raw[key] == nil:
		case !ok:
			o.Warnings = append(o.Warnings, unknownOptionWarning(key))
		default:
			if err := parse(&o, raw[key]); err != nil && !errors.Is(err, errNull) {
				errs = append(errs, at(key, err))
			}
		}
	}
	return o, errors.Join(errs...)
}

func unknownOptionWarning(key string) string {
	if unsupportedK6Options[key] {
		return fmt.Sprintf("k6 option %q is not supported and was ignored", key)
	}
	return fmt.Sprintf("unknown option %q ignored", key)
}
