package executor

import (
	"math"
	"sync"
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

// DueBy returns the first iteration from `from` on that is not due at
// elapsed: the end of the iterations due by then. due is a schedule (an
// iteration's due time, false past the end), non-decreasing in i. An
// exponential then binary search costs O(log n) calls of due for n due
// iterations, so a loop that fell behind a fast schedule finds in one step
// every iteration it missed.
func DueBy(due func(i int64) (time.Duration, bool), from int64, elapsed time.Duration) int64 {
	isDue := func(i int64) bool {
		at, ok := due(i)
		return ok && at <= elapsed
	}
	if !isDue(from) {
		return from
	}
	lo, hi := from, from+1 // lo is due; is hi?
	for step := int64(1); isDue(hi); step *= 2 {
		lo = hi
		if hi > math.MaxInt64-step {
			return math.MaxInt64
		}
		hi += step
	}
	for hi-lo > 1 { // lo due, hi not
		if mid := lo + (hi-lo)/2; isDue(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
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
	return ra.AtUnits(float64(i + 1))
}

// AtUnits returns when the integral of the rate reaches want (in
// iterations), and false when that is after the end: the inverse of the
// integral, which maps an arrival process in operational time (Arrivals)
// onto the ramp.
func (ra *RampingArrivals) AtUnits(want float64) (time.Duration, bool) {
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

// Arrivals is a seeded gamma renewal process in operational time: time
// measured by the integral of the rate, in iterations, where iteration i of
// the regular schedule falls at a whole number. The inter-arrival times
// there are independent Gamma(k, 1/k) variates: mean 1 whatever the shape
// k, so the mean rate stays the scenario's (per stage of a ramp), and
// coefficient of variation 1/√k; k = 1 is a Poisson process, k < 1 is
// burstier, k > 1 more regular. Units(n) is the sum of the first n; a
// constant rate maps it onto time by timeUnit/rate (ConstantAt), a ramping
// one through the inverse of the rate's integral (RampingArrivals.AtUnits).
//
// Units is a pure function of (shape, seed, n), whatever the order of the
// calls, so that the instances of an execution segment sequence, each
// asking only for the indices striped to it, share one global process. It
// is computed in blocks of blockArrivals (K) arrivals: a block's length is a
// Gamma(K·k, 1/k) variate (the sum of its K inter-arrival times), split
// among its arrivals in the proportions of K Gamma(k, 1) variates divided
// by their sum — a Dirichlet vector, independent of that sum, so together
// exactly K independent inter-arrival times (Lukacs). Both come from the
// stream keyed by (seed, block), so one block costs K draws wherever it
// is. A block's start is the running sum of the lengths before it, kept
// every blocksPerMark blocks: memory is one float per 2^20 arrivals, and a
// loop that finds millions of arrivals due at once (DueBy) draws one length
// per block it skips. Arrivals is safe for concurrent use.
type Arrivals struct {
	shape float64
	seed  uint64

	mu sync.Mutex
	// marks[m] is the start of block m·blocksPerMark.
	marks []float64
	// run holds the lengths of the blocks of one mark.
	run struct {
		mark    int64
		lengths [blocksPerMark]float64
	}
	// recent are the last blocks split, replaced in turn from next.
	recent [recentBlocks]*arrivalBlock
	next   int
}

const (
	// blockArrivals is the number of arrivals of a block, K.
	blockArrivals = 1024
	// blocksPerMark is the number of blocks between two kept starts.
	blocksPerMark = 1024
	// recentBlocks is the number of split blocks kept.
	recentBlocks = 4
)

// arrivalBlock is one split block.
type arrivalBlock struct {
	index         int64
	start, length float64
	// before[j] is the share of the block's length that passes before its
	// arrival j: 0 for the first, non-decreasing, at most 1.
	before [blockArrivals]float64
}

// NewArrivals returns the process of gamma shape k > 0 drawn from seed (see
// ArrivalSeed).
func NewArrivals(shape float64, seed uint64) *Arrivals {
	a := &Arrivals{shape: shape, seed: seed, marks: []float64{0}}
	a.run.mark = -1
	return a
}

// ArrivalSeed returns the seed of a scenario's arrival process: the
// script's arrivalSeed mixed with the scenario's name, so that scenarios
// with the same seed still arrive independently.
func ArrivalSeed(seed int64, scenario string) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(scenario); i++ {
		h = (h ^ uint64(scenario[i])) * 1099511628211
	}
	return mix64(uint64(seed) ^ mix64(h))
}

// Units returns the sum of the first n inter-arrival times (0 for n ≤ 0):
// non-decreasing in n, with mean n.
func (a *Arrivals) Units(n int64) float64 {
	if n <= 0 {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	b := a.block(n / blockArrivals)
	return b.start + b.length*b.before[n%blockArrivals]
}

// ConstantAt returns when iteration i (from 0) of a constant arrival rate is
// due: Units(i) × timeUnit / rate, so the first one is due at 0 as in
// ConstantArrival; saturated at the largest Duration.
func (a *Arrivals) ConstantAt(i, rate int64, timeUnit time.Duration) time.Duration {
	ns := a.Units(i) * (float64(timeUnit) / float64(rate))
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(ns)
}

// block returns block b split, from the recent ones or drawn.
func (a *Arrivals) block(b int64) *arrivalBlock {
	for _, r := range a.recent {
		if r != nil && r.index == b {
			return r
		}
	}
	r := a.recent[a.next]
	if r == nil {
		r = new(arrivalBlock)
		a.recent[a.next] = r
	}
	a.next = (a.next + 1) % recentBlocks
	r.index, r.start = b, a.blockStart(b)
	v := newVariates(a.seed, uint64(b))
	r.length = a.length(&v)
	a.split(&v, &r.before)
	return r
}

// length draws a block's length, the first draw of its stream: a
// Gamma(K·k, 1/k) variate, mean K.
func (a *Arrivals) length(v *variates) float64 {
	return math.Exp(v.logGamma(blockArrivals*a.shape) - math.Log(a.shape))
}

// split fills before with the running sums of K Gamma(k, 1) variates, the
// next draws of the block's stream, divided by their total. When every
// variate underflows (shapes near 0), all arrivals fall at the block's
// start.
func (a *Arrivals) split(v *variates, before *[blockArrivals]float64) {
	var logs [blockArrivals]float64
	top := math.Inf(-1)
	for j := range logs {
		logs[j] = v.logGamma(a.shape)
		top = max(top, logs[j])
	}
	if math.IsInf(top, -1) {
		clear(before[:])
		return
	}
	sum := 0.0
	for j, l := range logs {
		before[j] = sum
		sum += math.Exp(l - top)
	}
	for j := range before {
		before[j] /= sum
	}
}

// blockStart returns the start of block b: the lengths of the blocks before
// it added in order from 0. Every path adds the same lengths in the same
// order (from the mark before b), so the start is the same float however
// it is reached.
func (a *Arrivals) blockStart(b int64) float64 {
	m := b / blocksPerMark
	for last := int64(len(a.marks)) - 1; last < m; last++ {
		a.marks = append(a.marks, a.runningSum(last, blocksPerMark))
	}
	return a.runningSum(m, b-m*blocksPerMark)
}

// runningSum returns marks[m] plus the lengths of the first n blocks of
// mark m, in order.
func (a *Arrivals) runningSum(m, n int64) float64 {
	if a.run.mark != m {
		a.run.mark = m
		for k := range a.run.lengths {
			v := newVariates(a.seed, uint64(m*blocksPerMark+int64(k)))
			a.run.lengths[k] = a.length(&v)
		}
	}
	s := a.marks[m]
	for _, l := range a.run.lengths[:n] {
		s += l
	}
	return s
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

// TraceDue returns when each row of a trace is due after the scenario
// start: (t_i − t_0) × unit / speed, where t_i is row i's timestamp in
// units of unit and speed > 0 scales time (2 replays twice as fast). The
// first row is due at 0; timestamps must not decrease.
func TraceDue(timestamps []float64, unit time.Duration, speed float64) []time.Duration {
	due := make([]time.Duration, len(timestamps))
	for i, t := range timestamps {
		due[i] = time.Duration(math.Round((t - timestamps[0]) * float64(unit) / speed))
	}
	return due
}
