package options

import (
	"cmp"
	"slices"
	"time"
)

// PlanStep is a point of an execution plan: from At on, Planned VUs are
// reserved and up to Unplanned more may be started (arrival-rate
// executors grow from preAllocatedVUs to maxVUs).
type PlanStep struct {
	At        time.Duration
	Planned   int64
	Unplanned int64
}

// Requirements is what the whole, unsegmented test needs: how long it can
// last at most and how many VUs it can use at once.
type Requirements struct {
	// TotalDuration is when the last scenario ends, its startTime and
	// graceful stop (and, for ramping-vus, graceful ramp-down) included.
	TotalDuration time.Duration
	// MaxVUs is the most VUs the scenarios may hold at the same time.
	MaxVUs int64
}

// ExecutionRequirements computes the requirements of the consolidated
// scenarios the way k6's `inspect --execution-requirements` does: each
// scenario's plan is shifted by its startTime, the plans are merged in
// (time, scenario) order — scenarios sorted by startTime, then name — and
// summed step by step. TotalDuration is the time of the merged plan's last
// change; MaxVUs the largest sum of planned and unplanned VUs of a step.
func (o Options) ExecutionRequirements() Requirements {
	plan := mergePlans(o.Scenarios)
	var r Requirements
	for _, s := range plan {
		r.MaxVUs = max(r.MaxVUs, s.Planned+s.Unplanned)
	}
	if len(plan) > 0 {
		r.TotalDuration = plan[len(plan)-1].At
	}
	return r
}

// scenarioStep is a step of one scenario in the merged plan.
type scenarioStep struct {
	PlanStep
	scenario int
}

// mergePlans merges the scenarios' plans into one; a step is kept only
// when it changes the sums.
func mergePlans(scenarios []Scenario) []PlanStep {
	sorted := slices.Clone(scenarios)
	slices.SortStableFunc(sorted, func(a, b Scenario) int {
		return cmp.Or(cmp.Compare(a.StartTime, b.StartTime), cmp.Compare(a.Name, b.Name))
	})
	var all []scenarioStep
	for i, sc := range sorted {
		for _, s := range ScenarioPlan(sc) {
			s.At += time.Duration(sc.StartTime)
			all = append(all, scenarioStep{s, i})
		}
	}
	slices.SortStableFunc(all, func(a, b scenarioStep) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.scenario, b.scenario))
	})
	planned := make([]int64, len(sorted))
	unplanned := make([]int64, len(sorted))
	var out []PlanStep
	for _, s := range all {
		planned[s.scenario], unplanned[s.scenario] = s.Planned, s.Unplanned
		next := PlanStep{At: s.At, Planned: sum(planned), Unplanned: sum(unplanned)}
		if n := len(out); n == 0 || out[n-1].Planned != next.Planned || out[n-1].Unplanned != next.Unplanned {
			out = append(out, next)
		}
	}
	return out
}

func sum(xs []int64) int64 {
	var t int64
	for _, x := range xs {
		t += x
	}
	return t
}

// ScenarioPlan is the execution plan of one unsegmented scenario, from its
// own start: its VUs are reserved from 0 until its end plus gracefulStop.
// The iteration executors end at maxDuration, constant-vus and
// constant-arrival-rate at duration, the ramping executors after their
// stages; see rampingVUsPlan for ramping-vus. trace-replay's trace is not
// read here: its plan ends at its gracefulStop. externally-controlled
// reserves maxVUs, all planned, until its duration (it has no graceful
// stop), and with duration 0 (until stopped) never gives them back, as in
// k6: its plan is then one step.
func ScenarioPlan(sc Scenario) []PlanStep {
	stop := time.Duration(sc.GracefulStop)
	reserve := func(planned, unplanned int64, end time.Duration) []PlanStep {
		return []PlanStep{{At: 0, Planned: planned, Unplanned: unplanned}, {At: end + stop}}
	}
	switch sc.Executor {
	case ConstantVUs:
		return reserve(sc.VUs, 0, time.Duration(sc.Duration))
	case SharedIterations:
		if sc.VUs == 0 {
			return []PlanStep{{}}
		}
		return reserve(sc.VUs, 0, time.Duration(sc.MaxDuration))
	case PerVUIterations:
		return reserve(sc.VUs, 0, time.Duration(sc.MaxDuration))
	case ConstantArrivalRate:
		return reserve(sc.PreAllocatedVUs, sc.MaxVUs-sc.PreAllocatedVUs, time.Duration(sc.Duration))
	case RampingArrivalRate:
		return reserve(sc.PreAllocatedVUs, sc.MaxVUs-sc.PreAllocatedVUs, stagesDuration(sc.Stages))
	case TraceReplay: // its length is the trace's: 0 until the file was read
		return reserve(sc.PreAllocatedVUs, sc.MaxVUs-sc.PreAllocatedVUs, time.Duration(sc.TraceLength))
	case RampingVUs:
		return rampingVUsPlan(sc)
	case ExternallyControlled:
		if sc.Duration == 0 {
			return []PlanStep{{At: 0, Planned: sc.MaxVUs}}
		}
		return reserve(sc.MaxVUs, 0, time.Duration(sc.Duration))
	}
	return []PlanStep{{}}
}

func stagesDuration(stages []Stage) time.Duration {
	var d time.Duration
	for _, st := range stages {
		d += time.Duration(st.Duration)
	}
	return d
}
