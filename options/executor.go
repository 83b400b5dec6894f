package options

import (
	"errors"
	"fmt"
	"slices"
)

// executorSpec lists the fields one executor accepts besides the common
// ones, in the order InspectJSON prints them, and those a script must set.
type executorSpec struct {
	fields   []string
	required []string
	validate func(p *problems, sc Scenario)
}

// commonFields are accepted by every executor.
var commonFields = []string{"executor", "startTime", "gracefulStop", "exec", "env", "tags"}

// executors describes the supported executors: k6's six and ours,
// trace-replay. k6's
// externally-controlled executor is not supported.
var executors = map[string]executorSpec{
	ConstantArrivalRate: {
		fields:   slices.Concat([]string{"rate", "timeUnit", "duration", "preAllocatedVUs", "maxVUs"}, arrivalFields),
		required: []string{"rate", "duration", "preAllocatedVUs"},
		validate: validateConstantArrivalRate,
	},
	RampingArrivalRate: {
		fields:   slices.Concat([]string{"startRate", "timeUnit", "stages", "preAllocatedVUs", "maxVUs"}, arrivalFields),
		required: []string{"stages", "preAllocatedVUs"},
		validate: validateRampingArrivalRate,
	},
	ConstantVUs: {
		fields:   []string{"vus", "duration"},
		required: []string{"duration"},
		validate: validateConstantVUs,
	},
	RampingVUs: {
		fields:   []string{"startVUs", "stages", "gracefulRampDown"},
		required: []string{"stages"},
		validate: validateRampingVUs,
	},
	PerVUIterations: {
		fields:   []string{"vus", "iterations", "maxDuration"},
		validate: validateIterations,
	},
	SharedIterations: {
		fields:   []string{"vus", "iterations", "maxDuration"},
		validate: validateSharedIterations,
	},
	TraceReplay: {
		fields:   traceFields,
		required: []string{"file", "preAllocatedVUs"},
		validate: validateTraceReplay,
	},
}

// executorNames lists the supported executors for messages.
var executorNames = []string{
	ConstantArrivalRate, ConstantVUs, PerVUIterations,
	RampingArrivalRate, RampingVUs, SharedIterations, TraceReplay,
}

// allows reports whether field is valid for the executor.
func (s executorSpec) allows(field string) bool {
	return slices.Contains(commonFields, field) || slices.Contains(s.fields, field)
}

var (
	errPositive    = errors.New("must be more than 0")
	errNegative    = errors.New("must not be negative")
	errNoStages    = errors.New("at least one stage is required")
	errAllZeroLoad = errors.New("the start value or one of the stage targets must be more than 0")
)

func validateConstantVUs(p *problems, sc Scenario) {
	p.check(sc.VUs > 0, "vus", errPositive)
	p.check(sc.Duration > 0, "duration", errPositive)
}

func validateRampingVUs(p *problems, sc Scenario) {
	p.check(sc.StartVUs >= 0, "startVUs", errNegative)
	p.check(sc.GracefulRampDown >= 0, "gracefulRampDown", errNegative)
	validateStages(p, sc.Stages, sc.StartVUs)
}

func validateIterations(p *problems, sc Scenario) {
	p.check(sc.VUs > 0, "vus", errPositive)
	p.check(sc.Iterations > 0, "iterations", errPositive)
	p.check(sc.MaxDuration > 0, "maxDuration", errPositive)
}

func validateSharedIterations(p *problems, sc Scenario) {
	validateIterations(p, sc)
	p.check(sc.Iterations >= sc.VUs, "iterations", fmt.Errorf(
		"%d iterations cannot be shared by %d VUs: iterations must be at least vus", sc.Iterations, sc.VUs))
}

func validateConstantArrivalRate(p *problems, sc Scenario) {
	p.check(sc.Rate > 0, "rate", errPositive)
	p.check(sc.Duration > 0, "duration", errPositive)
	validateArrivalVUs(p, sc)
}

func validateRampingArrivalRate(p *problems, sc Scenario) {
	p.check(sc.StartRate >= 0, "startRate", errNegative)
	validateStages(p, sc.Stages, sc.StartRate)
	validateArrivalVUs(p, sc)
}

// validateArrivalVUs checks the fields shared by the arrival-rate
// executors: timeUnit > 0, 0 ≤ preAllocatedVUs ≤ maxVUs, maxVUs > 0, and
// the arrival process (validateArrival).
func validateArrivalVUs(p *problems, sc Scenario) {
	validateArrival(p, sc)
	p.check(sc.TimeUnit > 0, "timeUnit", errPositive)
	p.check(sc.PreAllocatedVUs >= 0, "preAllocatedVUs", errNegative)
	p.check(sc.MaxVUs > 0, "maxVUs", errPositive)
	p.check(sc.MaxVUs >= sc.PreAllocatedVUs, "maxVUs", fmt.Errorf(
		"%d is less than preAllocatedVUs (%d)", sc.MaxVUs, sc.PreAllocatedVUs))
}

// validateStages checks a ramping executor's stages: at least one, no
// negative duration or target, and some load (start or a target) above 0.
func validateStages(p *problems, stages []Stage, start int64) {
	p.check(len(stages) > 0, "stages", errNoStages)
	load := start > 0
	for i, st := range stages {
		p.check(st.Duration >= 0, fmt.Sprintf("stages[%d].duration", i), errNegative)
		p.check(st.Target >= 0, fmt.Sprintf("stages[%d].target", i), errNegative)
		load = load || st.Target > 0
	}
	p.check(load || len(stages) == 0, "stages", errAllZeroLoad)
}
