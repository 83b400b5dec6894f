package options

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// DefaultSummaryTrendStats is k6's default for summaryTrendStats.
var DefaultSummaryTrendStats = []string{"avg", "min", "med", "max", "p(90)", "p(95)"}

// DefaultSetupTimeout is k6's default for setupTimeout and teardownTimeout.
const DefaultSetupTimeout = Duration(60 * time.Second)

// Consolidate merges layers, lowest first (defaults < script < environment
// < flags), derives the scenarios and validates the result, returning every
// problem at once (joined FieldErrors; the merged options are returned
// even then).
//
// Merging: a higher layer's set value wins. Pointer fields are unset when
// nil; strings, durations, bools, slices and maps when zero, so a higher
// layer cannot turn a bool back off. Env and Tags merge key by key, the
// higher layer winning. Thresholds come from the highest layer that has
// them (in practice the script). Warnings are concatenated.
//
// Execution (k6's rule): duration, iterations, stages and scenarios form
// one group. Within one layer, scenarios with any of the shortcuts, or
// stages with duration or iterations, are an error; duration with
// iterations is allowed. The highest layer that sets any of the group
// replaces the group of all lower layers, so "--iterations 10" replaces a
// script's scenarios. vus is an ordinary value: it never replaces
// scenarios, and is ignored with a warning when scenarios are used.
// Scenarios are then derived from the shortcuts (see deriveScenarios) and
// sorted by name.
//
// Defaults: summaryTrendStats avg, min, med, max, p(90), p(95);
// setupTimeout and teardownTimeout 60s.
func Consolidate(layers ...Options) (Options, error) {
	var errs []error
	for _, l := range layers {
		errs = append(errs, l.shortcutConflicts()...)
	}
	o := merge(layers)
	o.applyDefaults()
	errs = append(errs, o.validateSettings()...)
	if err := o.deriveScenarios(); err != nil {
		errs = append(errs, err) // no scenario to check
	} else {
		errs = append(errs, o.validateScenarios()...)
	}
	return o, errors.Join(errs...)
}

// executionSet lists the execution options this layer sets.
func (o Options) executionSet() []string {
	var set []string
	for _, opt := range []struct {
		name string
		ok   bool
	}{
		{"duration", o.Duration != nil},
		{"iterations", o.Iterations != nil},
		{"stages", len(o.Stages) > 0},
		{"scenarios", o.Scenarios != nil},
	} {
		if opt.ok {
			set = append(set, opt.name)
		}
	}
	return set
}

// shortcutConflicts reports execution options that cannot be combined in
// one layer: anything with scenarios, and stages with duration or
// iterations.
func (o Options) shortcutConflicts() []error {
	set := o.executionSet()
	conflict := len(set) > 1 && !slices.Equal(set, []string{"duration", "iterations"})
	if !conflict {
		return nil
	}
	return []error{&FieldError{Path: o.source(), Err: fmt.Errorf(
		"%s cannot be used together; use either scenarios, stages, or duration and/or iterations",
		strings.Join(set, " and "))}}
}

func (o Options) source() string {
	if o.Source == "" {
		return "options"
	}
	return o.Source
}

// merge applies layers in order onto empty options.
func merge(layers []Options) Options {
	var o Options
	for _, l := range layers {
		o.apply(l)
	}
	return o
}

// apply lays h, a higher layer, over o.
func (o *Options) apply(h Options) {
	if h.executionSet() != nil {
		o.Duration, o.Iterations = h.Duration, h.Iterations
		o.Stages, o.Scenarios = slices.Clone(h.Stages), slices.Clone(h.Scenarios)
	}
	o.VUs = override(o.VUs, h.VUs, h.VUs != nil)
	o.Thresholds = override(o.Thresholds, h.Thresholds, h.Thresholds != nil)
	o.SummaryTrendStats = override(o.SummaryTrendStats, h.SummaryTrendStats, len(h.SummaryTrendStats) > 0)
	o.Out = override(o.Out, h.Out, len(h.Out) > 0)
	o.TLSVersion = override(o.TLSVersion, h.TLSVersion, h.TLSVersion != nil)
	o.TLSCipherSuites = override(o.TLSCipherSuites, h.TLSCipherSuites, h.TLSCipherSuites != nil)
	o.TLSAuth = override(o.TLSAuth, h.TLSAuth, h.TLSAuth != nil)
	o.applyScalars(h)
	o.applyK6Options(h)
	o.Tags = mergeMaps(o.Tags, h.Tags)
	o.Env = mergeMaps(o.Env, h.Env)
	o.Warnings = append(o.Warnings, h.Warnings...)
}

// applyScalars lays h's set strings, durations and bools over o.
func (o *Options) applyScalars(h Options) {
	o.SummaryTimeUnit = override(o.SummaryTimeUnit, h.SummaryTimeUnit, h.SummaryTimeUnit != "")
	o.SummaryExport = override(o.SummaryExport, h.SummaryExport, h.SummaryExport != "")
	o.ExecutionSegment = override(o.ExecutionSegment, h.ExecutionSegment, h.ExecutionSegment != "")
	o.ExecutionSegmentSequence = override(o.ExecutionSegmentSequence, h.ExecutionSegmentSequence,
		h.ExecutionSegmentSequence != "")
	o.SetupTimeout = override(o.SetupTimeout, h.SetupTimeout, h.SetupTimeout != 0)
	o.TeardownTimeout = override(o.TeardownTimeout, h.TeardownTimeout, h.TeardownTimeout != 0)
	o.NoSummary = o.NoSummary || h.NoSummary
	o.NoThresholds = o.NoThresholds || h.NoThresholds
	o.InsecureSkipTLS = o.InsecureSkipTLS || h.InsecureSkipTLS
	o.ProbeTransport = override(o.ProbeTransport, h.ProbeTransport, h.ProbeTransport != "")
	o.ProbeCapture = override(o.ProbeCapture, h.ProbeCapture, h.ProbeCapture != "")
	o.Quiet = o.Quiet || h.Quiet
}

// override returns higher when it is set, else lower.
func override[T any](lower, higher T, set bool) T {
	if set {
		return higher
	}
	return lower
}

// mergeMaps returns a new map with lower's entries overwritten by higher's;
// nil when both are empty.
func mergeMaps(lower, higher map[string]string) map[string]string {
	if len(lower) == 0 && len(higher) == 0 {
		return lower
	}
	out := maps.Clone(lower)
	if out == nil {
		out = make(map[string]string, len(higher))
	}
	maps.Copy(out, higher)
	return out
}

func (o *Options) applyDefaults() {
	if len(o.SummaryTrendStats) == 0 {
		o.SummaryTrendStats = slices.Clone(DefaultSummaryTrendStats)
	}
	if o.SetupTimeout == 0 {
		o.SetupTimeout = DefaultSetupTimeout
	}
	if o.TeardownTimeout == 0 {
		o.TeardownTimeout = DefaultSetupTimeout
	}
	if o.SummaryMode == "disabled" {
		o.NoSummary = true // k6 v1's replacement for --no-summary
	}
}
