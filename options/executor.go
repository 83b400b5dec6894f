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
	// noGracefulStop refuses the common field gracefulStop, whatever its
	// value, as k6 refuses it for externally-controlled.
	noGracefulStop bool
}

// commonFields are accepted by every executor.
var commonFields = []string{"executor", "startTime", "gracefulStop", "exec", "env", "tags", "options"}

// executors describes the supported executors: k6's seven and ours,
// trace-replay.
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
	ExternallyControlled: {
		fields:         []string{"vus", "maxVUs", "duration"},
		required:       []string{"duration"},
		validate:       validateExternallyControlled,
		noGracefulStop: true,
	},
}

// executorNames lists the supported executors for messages.
var executorNames = []string{
	ConstantArrivalRate, ConstantVUs, ExternallyControlled, PerVUIterations,
	RampingArrivalRate, RampingVUs, SharedIterations, TraceReplay,
}

// hideGracefulStop reports whether inspect leaves out gracefulStop: for
// an executor that has none (externally-controlled).
func hideGracefulStop(sc *Scenario) bool { return executors[sc.Executor].noGracefulStop }

// allows reports whether field is valid for the executor.
func (s executorSpec) allows(field string) bool {
	return slices.Contains(commonFields, field) || slices.Contains(s.fields, field)
}

var (
	errPositive    = errors.New("must be more than 0")
	errNegative    = errors.New("must not be negative")
	errNoStages    = errors.New("at least one stage is required")
	errAllZeroLoad = errors.New("the start value or one of the stage targets must be more than 0")
	// errNoGracefulStop is k6's refusal of gracefulStop for
	// externally-controlled, whose VUs are interrupted at its end.
	errNoGracefulStop = errors.New("not supported by the externally-controlled executor: its iterations are interrupted when it ends")
)

func validateConstantVUs(p *problems, sc Scenario) {
	p.check(sc.VUs > 0, "vus", errPositive)
	p.check(sc.Duration > 0, "duration", errPositive)
}

// validateExternallyControlled checks k6's rules for externally-controlled:
// 0 ≤ vus ≤ maxVUs, a duration not negative (0 runs until the test is
// stopped), and no gracefulStop.
func validateExternallyControlled(p *problems, sc Scenario) {
	p.check(sc.VUs >= 0, "vus", errNegative)
	p.check(sc.MaxVUs >= sc.VUs, "maxVUs", fmt.Errorf("%d is less than vus (%d)", sc.MaxVUs, sc.VUs))
	p.check(sc.Duration >= 0, "duration", errors.New("must not be negative; 0 runs until the test is stopped"))
	p.check(sc.GracefulStop == 0, "gracefulStop", errNoGracefulStop)
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
