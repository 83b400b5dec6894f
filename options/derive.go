package options

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// DefaultScenarioName names the scenario derived from the shortcuts.
const DefaultScenarioName = "default"

// deriveScenarios turns the shortcuts into a "default" scenario unless
// scenarios are set, following k6:
//   - iterations → shared-iterations with vus (default 1) and iterations;
//     with duration too, maxDuration = duration;
//   - duration → constant-vus with vus (default 1); duration must be > 0
//     (k6 has no infinite duration);
//   - stages → ramping-vus with startVUs = vus (default 1);
//   - nothing → per-vu-iterations, 1 VU × 1 iteration; vus alone is
//     ignored with a warning, as in k6.
//
// The scenarios are then sorted by name.
func (o *Options) deriveScenarios() error {
	if o.Scenarios != nil {
		if o.VUs != nil {
			o.Warnings = append(o.Warnings, fmt.Sprintf(
				"vus=%d ignored: scenarios set their own VUs", *o.VUs))
		}
		slices.SortFunc(o.Scenarios, func(a, b Scenario) int { return strings.Compare(a.Name, b.Name) })
		return nil
	}
	if o.Duration != nil && *o.Duration <= 0 {
		return &FieldError{Path: "duration", Err: errors.New(
			"must be more than 0; for a fixed amount of work use iterations")}
	}
	o.Scenarios = []Scenario{o.shortcutScenario()}
	o.derived = true
	return nil
}

// shortcutScenario builds the scenario the shortcuts stand for.
func (o *Options) shortcutScenario() Scenario {
	vus := int64(1)
	if o.VUs != nil {
		vus = *o.VUs
	}
	switch {
	case o.Iterations != nil:
		sc := NewScenario(DefaultScenarioName, SharedIterations)
		sc.VUs, sc.Iterations = vus, *o.Iterations
		if o.Duration != nil {
			sc.MaxDuration = *o.Duration
		}
		return sc
	case o.Duration != nil:
		sc := NewScenario(DefaultScenarioName, ConstantVUs)
		sc.VUs, sc.Duration = vus, *o.Duration
		return sc
	case len(o.Stages) > 0:
		sc := NewScenario(DefaultScenarioName, RampingVUs)
		sc.StartVUs, sc.Stages = vus, slices.Clone(o.Stages)
		return sc
	}
	if vus != 1 {
		o.Warnings = append(o.Warnings, fmt.Sprintf(
			"vus=%d ignored: it only works with iterations, duration or stages", vus))
	}
	return NewScenario(DefaultScenarioName, PerVUIterations)
}
