package executor

import (
	"math"
	"time"

	"github.com/usefullatency/usefullatency/options"
)

// ConstantArrival returns when iteration i (from 0) of a constant arrival
// rate is due, after the scenario start: i × timeUnit / rate. The first
// iteration is due at 0. The schedule is absolute, so lateness never
// accumulates.
func ConstantArrival(i, rate int64, timeUnit time.Duration) time.Duration {
	q, r := int64(timeUnit)/rate, int64(timeUnit)%rate
	return time.Duration(i*q + i*r/rate)
}

// RampingArrivals is the schedule of a ramping arrival rate: the rate moves
// linearly from each stage's start to its target; iteration i (from 0) is
// due when the integral of the rate reaches i+1, so the first one is due at
// 1/rate, not at 0.
type RampingArrivals struct {
	stages []rampStage
	total  time.Duration
}

type rampStage struct {
	start, dur time.Duration
	// r0 and r1 are the rates at the stage's start and end, per nanosecond.
	r0, r1 float64
	// cum is the integral of the rate up to the stage's start.
	cum float64
}

// NewRampingArrivals builds the schedule; rates are per timeUnit.
func NewRampingArrivals(startRate int64, stages []options.Stage, timeUnit time.Duration) *RampingArrivals {
	ra := &RampingArrivals{}
	from, cum := float64(startRate)/float64(timeUnit), 0.0
	for _, st := range stages {
		d := time.Duration(st.Duration)
		to := float64(st.Target) / float64(timeUnit)
		ra.stages = append(ra.stages, rampStage{start: ra.total, dur: d, r0: from, r1: to, cum: cum})
		cum += (from + to) / 2 * float64(d)
		ra.total += d
		from = to
	}
	return ra
}

// Duration returns the schedule's length.
func (ra *RampingArrivals) Duration() time.Duration { return ra.total }

// At returns when iteration i is due, and false when that is after the end.
func (ra *RampingArrivals) At(i int64) (time.Duration, bool) {
	want := float64(i + 1)
	for k, st := range ra.stages {
		end := st.cum + (st.r0+st.r1)/2*float64(st.dur)
		if want > end && k < len(ra.stages)-1 {
			continue
		}
		if want > end+1e-9 {
			return 0, false
		}
		// Solve r0·τ + (r1−r0)·τ²/(2D) = rem for τ in the stable form
		// τ = 2·rem / (r0 + √(r0² + 4a·rem)), a = (r1−r0)/(2D).
		rem := want - st.cum
		a := 0.0
		if st.dur > 0 {
			a = (st.r1 - st.r0) / (2 * float64(st.dur))
		}
		disc := math.Max(st.r0*st.r0+4*a*rem, 0)
		den := st.r0 + math.Sqrt(disc)
		if den <= 0 {
			return 0, false
		}
		tau := time.Duration(math.Ceil(2 * rem / den))
		return min(st.start+tau, st.start+st.dur), true
	}
	return 0, false
}

// Step is a point where the number of active VUs of a ramping-vus scenario
// changes.
type Step struct {
	At  time.Duration
	VUs int64
}

// RampSteps returns the VU count changes of a ramping-vus scenario. Going
// up from a to b over D, VU v joins at (v−a)/(b−a)·D; going down, the
// count becomes v at (a−v)/(a−b)·D. A zero-length stage jumps at once.
func RampSteps(startVUs int64, stages []options.Stage) []Step {
	steps := []Step{{At: 0, VUs: startVUs}}
	from, at := startVUs, time.Duration(0)
	for _, st := range stages {
		d, to := time.Duration(st.Duration), st.Target
		switch {
		case d == 0 || to == from:
			steps = append(steps, Step{At: at, VUs: to})
		case to > from:
			for v := from + 1; v <= to; v++ {
				steps = append(steps, Step{At: at + time.Duration(float64(d)*float64(v-from)/float64(to-from)), VUs: v})
			}
		default:
			for v := from - 1; v >= to; v-- {
				steps = append(steps, Step{At: at + time.Duration(float64(d)*float64(from-v)/float64(from-to)), VUs: v})
			}
		}
		from, at = to, at+d
	}
	return steps
}

// Window is a span of time when one VU of a ramping-vus scenario is active.
type Window struct {
	On, Off time.Duration
	// RampDown says that a stage takes the VU away at Off, so its last
	// iteration gets gracefulRampDown; otherwise Off is the end of the
	// stages, and the iteration gets gracefulStop.
	RampDown bool
}

// Windows returns the spans when VU k (from 0) is active: while the step
// count exceeds k, capped at end. A step at end itself still ramps down:
// stages that end at 0 VUs take the last ones away by ramping down, as in
// k6, not by stopping the scenario.
func Windows(k int64, steps []Step, end time.Duration) []Window {
	var out []Window
	on := time.Duration(-1)
	for _, s := range steps {
		if s.At > end || s.At == end && s.VUs > k {
			break
		}
		switch {
		case s.VUs > k && on < 0:
			on = s.At
		case s.VUs <= k && on >= 0:
			if s.At > on {
				out = append(out, Window{On: on, Off: s.At, RampDown: true})
			}
			on = -1
		}
	}
	if on >= 0 && end > on {
		out = append(out, Window{On: on, Off: end})
	}
	return out
}

// MaxVUs returns the largest VU count of the steps.
func MaxVUs(steps []Step) int64 {
	var m int64
	for _, s := range steps {
		m = max(m, s.VUs)
	}
	return m
}
