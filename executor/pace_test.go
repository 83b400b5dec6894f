package executor

import (
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/options"
)

// TestPaceSchedule checks that a paced scenario's iterations are due at
// its rate times each step's scale, that a step at scale 0 starts none,
// and that the schedule ends with the last step once the pace ended.
func TestPaceSchedule(t *testing.T) {
	p := NewPace(time.Minute, "qa")
	p.Step(1, time.Second)
	p.Step(0, 500*time.Millisecond)
	if from := p.Step(2, time.Second); from != 1500*time.Millisecond {
		t.Fatalf("third step from %v", from)
	}
	p.End()
	want := map[int64]time.Duration{0: 0, 9: 900 * time.Millisecond, 10: 1500 * time.Millisecond,
		11: 1550 * time.Millisecond, 29: 2450 * time.Millisecond}
	for i, at := range want {
		got, ok := p.at(10, float64(i))
		if !ok || (got-at).Abs() > time.Microsecond {
			t.Errorf("iteration %d due at %v (%v), want %v", i, got, ok, at)
		}
	}
	if _, ok := p.at(10, 30); ok {
		t.Error("iteration 30 due after the last step")
	}
}

// TestPaceWaitsForTheNextStep checks that an iteration past the decided
// steps waits for the next decision, and is due in the new step.
func TestPaceWaitsForTheNextStep(t *testing.T) {
	p := NewPace(time.Minute, "qa")
	p.Step(1, time.Second)
	got := make(chan time.Duration)
	go func() {
		at, _ := p.at(4, 6) // the 2nd iteration of the next step
		got <- at
	}()
	select {
	case at := <-got:
		t.Fatalf("due at %v before the next step was decided", at)
	case <-time.After(20 * time.Millisecond): // a wait that would have returned by now
	}
	p.Step(2, time.Second)
	if at := <-got; at != time.Second+250*time.Millisecond {
		t.Errorf("due at %v, want 1.25s", at)
	}
}

// TestPacedScenario checks that only the scenarios a pace names run on
// it, and that a ramping arrival rate is scaled from its highest target.
func TestPacedScenario(t *testing.T) {
	p := NewPace(time.Minute, "qa", "ramp")
	qa := options.Scenario{Name: "qa", Executor: options.ConstantArrivalRate, Rate: 3, TimeUnit: options.Duration(time.Second)}
	other := qa
	other.Name = "other"
	ramp := options.Scenario{Name: "ramp", Executor: options.RampingArrivalRate, StartRate: 2, TimeUnit: options.Duration(time.Minute),
		Stages: []options.Stage{{Duration: options.Duration(time.Minute), Target: 120}, {Duration: options.Duration(time.Minute), Target: 60}}}
	for _, tc := range []struct {
		sc     options.Scenario
		paced  bool
		perSec float64
	}{{qa, true, 3}, {other, false, 3}, {ramp, true, 2}} {
		ex, err := New(Env{Scenario: tc.sc, Pace: p})
		if err != nil {
			t.Fatal(err)
		}
		a := ex.(*arrivalRate)
		if paced := strings.Contains(a.desc, "the search's scale"); paced != tc.paced {
			t.Errorf("%s: paced %v", tc.sc.Name, paced)
		}
		if r := BaseRate(tc.sc); r != tc.perSec {
			t.Errorf("%s: base rate %v, want %v", tc.sc.Name, r, tc.perSec)
		}
	}
}
