package executor

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/options"
)

// Pace is a schedule of rate multipliers decided while the test runs: a
// capacity search runs every paced arrival-rate scenario at its own rate
// times the current step's scale, and decides each next step when the
// one before it ends. A scenario asking when an iteration is due past the
// steps decided so far waits for the next decision (or for the end).
type Pace struct {
	mu   sync.Mutex
	cond *sync.Cond
	// steps are the decided steps, back to back from 0.
	steps []paceStep
	// ended is true once no step will be added: the schedule ends with
	// its last step.
	ended bool
	// planned bounds the schedule's length, for the banner and progress.
	planned time.Duration
	// scenarios are the names of the paced scenarios.
	scenarios map[string]bool
	// start is when the first paced scenario started; started closes then.
	start   time.Time
	started chan struct{}
	once    sync.Once
}

// paceStep runs the rates times scale from `from` to `to`.
type paceStep struct {
	from, to time.Duration
	scale    float64
}

// NewPace returns a pace for the named scenarios with no step decided;
// planned is the longest the schedule may run.
func NewPace(planned time.Duration, scenarios ...string) *Pace {
	p := &Pace{planned: planned, scenarios: map[string]bool{}, started: make(chan struct{})}
	p.cond = sync.NewCond(&p.mu)
	for _, s := range scenarios {
		p.scenarios[s] = true
	}
	return p
}

// Paces reports whether the scenario named runs on this pace.
func (p *Pace) Paces(scenario string) bool { return p != nil && p.scenarios[scenario] }

// Step adds a step of length d at scale after the steps decided so far
// and returns when it starts, from the scenarios' start.
func (p *Pace) Step(scale float64, d time.Duration) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	from := p.horizon()
	if !p.ended {
		p.steps = append(p.steps, paceStep{from: from, to: from + d, scale: scale})
	}
	p.cond.Broadcast()
	return from
}

// End adds no more steps: the paced scenarios end with the last one.
func (p *Pace) End() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended = true
	p.cond.Broadcast()
}

// horizon is the end of the decided steps; the caller holds mu.
func (p *Pace) horizon() time.Duration {
	if len(p.steps) == 0 {
		return 0
	}
	return p.steps[len(p.steps)-1].to
}

// at returns when the integral of rate × scale (iterations per second)
// reaches units, waiting for steps while it lies past the decided ones;
// false when the schedule ended first.
func (p *Pace) at(rate, units float64) (time.Duration, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	acc, i := 0.0, 0
	for {
		for ; i < len(p.steps); i++ {
			st := p.steps[i]
			perSec := rate * st.scale
			n := perSec * (st.to - st.from).Seconds()
			if acc+n > units && perSec > 0 {
				return st.from + time.Duration((units-acc)/perSec*float64(time.Second)), true
			}
			acc += n
		}
		if p.ended {
			return 0, false
		}
		p.cond.Wait()
	}
}

// baseRate is a scenario's rate in iterations per second that the pace
// scales: a constant arrival rate's rate, a ramping one's highest target.
func baseRate(sc options.Scenario) float64 {
	r := float64(sc.Rate)
	if sc.Executor == options.RampingArrivalRate {
		r = float64(sc.StartRate)
		for _, st := range sc.Stages {
			r = math.Max(r, float64(st.Target))
		}
	}
	return r / time.Duration(sc.TimeUnit).Seconds()
}

// BaseRate is the rate, in iterations per second, that a pace's scale
// multiplies for the scenario.
func BaseRate(sc options.Scenario) float64 { return baseRate(sc) }

// newPacedArrivals runs an arrival-rate scenario on env.Pace: its base
// rate times each step's scale, iterations spread evenly or by its
// arrival process as without a pace.
func newPacedArrivals(env Env) *arrivalRate {
	sc, pace := env.Scenario, env.Pace
	rate := baseRate(sc)
	units := func(i int64) float64 { return float64(i) }
	if p := arrivalsOf(sc); p != nil {
		units = p.Units
	}
	return &arrivalRate{
		env: env, duration: pace.planned,
		due:  func(i int64) (time.Duration, bool) { return pace.at(rate, units(i)) },
		desc: fmt.Sprintf("%.2f iterations/s%s × the search's scale, in steps (maxVUs: %s, gracefulStop: %s)", rate, arrivalNote(sc), vuRange(sc.PreAllocatedVUs, sc.MaxVUs), time.Duration(sc.GracefulStop)),
	}
}

// begin marks the start of the paced scenarios: the steps' times count
// from it.
func (p *Pace) begin(start time.Time) {
	p.once.Do(func() {
		p.start = start
		close(p.started)
	})
}

// Started is closed when the paced scenarios start.
func (p *Pace) Started() <-chan struct{} { return p.started }

// Start is when the paced scenarios started; read it after Started
// closed.
func (p *Pace) Start() time.Time { return p.start }

// wake ends every wait on the pace when ctx ends, so that a stopped test
// does not wait for a step that will never be decided.
func (p *Pace) wake(done <-chan struct{}) {
	<-done
	p.End()
}
