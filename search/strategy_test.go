package search

import (
	"math"
	"math/rand/v2"
	"testing"
)

// oracle judges a step at rate as a system of capacity c would, with
// noise: the rate passes when rate + N(0, sigma) ≤ c.
func oracle(c, sigma float64, rng *rand.Rand) func(rate float64) Step {
	return func(rate float64) Step {
		v, noise := rate, 0.0
		if rng != nil {
			noise = rng.NormFloat64() * sigma
		}
		pass := rate+noise <= c
		g := Gate{Metric: "usefulsse_useful{bucket:qa}", Source: "p(95)<2500", Limit: 2500, Pass: pass, Value: &v}
		st := Step{Rate: rate, Gates: []Gate{g}, Result: Pass}
		if !pass {
			st.Result = Fail
		}
		return st
	}
}

// drive runs a strategy against judge until it has its answer, and
// returns the answer and the number of steps.
func drive(t *testing.T, s Strategy, judge func(float64) Step) Answer {
	t.Helper()
	for i := 0; ; i++ {
		rate, phase, ok := s.Next()
		if !ok {
			return s.Answer()
		}
		if i > 200 {
			t.Fatalf("no answer after 200 steps")
		}
		st := judge(rate)
		st.Phase = phase
		s.Record(st)
	}
}

// TestStrategiesFindAKnownCapacity checks that both strategies find an
// exact capacity within their resolution, wherever it lies in the range.
func TestStrategiesFindAKnownCapacity(t *testing.T) {
	b := Bounds{Min: 4, Max: 120, Resolution: 1}
	for c := 4.5; c < 120; c += 3.7 {
		for name, s := range map[string]Strategy{"staircase": NewStaircase(b, 0), "runs": NewBisect(b, 2)} {
			a := drive(t, s, oracle(c, 0, nil))
			if a.Bound != Found || a.Capacity == nil || *a.Capacity > c || c-*a.Capacity > b.Resolution {
				t.Fatalf("%s, capacity %v: answer %+v", name, c, a.Line())
			}
			if *a.FailRate-*a.Capacity > b.Resolution || a.FirstGate != "usefulsse_useful{bucket:qa} p(95)<2500" {
				t.Errorf("%s, capacity %v: fail rate %v, gate %q", name, c, *a.FailRate, a.FirstGate)
			}
		}
	}
}

// TestStrategiesCoverNoisyCapacity checks, on 300 seeded searches of
// systems whose steps pass or fail with noise of a quarter of the
// resolution, that the answer lies within twice the resolution below the
// true capacity in at least 95 % of them, and never above it by more
// than the noise can explain.
func TestStrategiesCoverNoisyCapacity(t *testing.T) {
	b := Bounds{Min: 5, Max: 100, Resolution: 2}
	for _, name := range []string{"staircase", "runs"} {
		hits := 0
		const n = 300
		for seed := range uint64(n) {
			rng := rand.New(rand.NewPCG(seed, 7))
			c := 10 + rng.Float64()*80
			var s Strategy = NewStaircase(b, 0)
			if name == "runs" {
				s = NewBisect(b, 3)
			}
			a := drive(t, s, oracle(c, b.Resolution/4, rng))
			if a.Capacity == nil {
				continue
			}
			if d := c - *a.Capacity; d >= -b.Resolution && d <= 2*b.Resolution {
				hits++
			}
		}
		if hits < n*95/100 {
			t.Errorf("%s: %d of %d answers within [c-2r, c+r]", name, hits, n)
		}
		t.Logf("%s: %d of %d answers within [c-2r, c+r]", name, hits, n)
	}
}

// TestStaircaseBounds checks the answers at the ends of the range: a
// system that fails at --min, one that passes at --max, and a search the
// runner limited.
func TestStaircaseBounds(t *testing.T) {
	b := Bounds{Min: 10, Max: 50, Resolution: 1}
	if a := drive(t, NewStaircase(b, 0), oracle(5, 0, nil)); a.Bound != BelowMin || a.Capacity != nil || len(a.Steps) != 1 {
		t.Errorf("below min: %s after %d steps", a.Line(), len(a.Steps))
	}
	a := drive(t, NewStaircase(b, 0), oracle(500, 0, nil))
	if a.Bound != AtLeast || *a.Capacity != 50 || a.Steps[len(a.Steps)-1].Rate != 50 {
		t.Errorf("at least max: %s", a.Line())
	}
	limited := func(rate float64) Step {
		st := oracle(40, 0, nil)(rate)
		if rate > 25 {
			st.Result, st.Health.Limits = Limited, []string{"runner CPU at 97% of its cores"}
		}
		return st
	}
	a = drive(t, NewStaircase(b, 0), limited)
	if a.Bound != RunnerLimited || *a.Capacity > 25 || 25-*a.Capacity > 1 || a.FirstGate != "" {
		t.Errorf("runner-limited: %s", a.Line())
	}
	if want := "capacity: at least"; a.Line()[:len(want)] != want {
		t.Errorf("line %q", a.Line())
	}
}

// TestStaircaseConfirms checks that the staircase ends on a passing
// confirmation of its answer, and that a failed confirmation moves the
// answer down.
func TestStaircaseConfirms(t *testing.T) {
	b := Bounds{Min: 10, Max: 50, Resolution: 1}
	a := drive(t, NewStaircase(b, 0), oracle(30, 0, nil))
	last := a.Steps[len(a.Steps)-1]
	if last.Phase != PhaseConfirm || last.Result != Pass || last.Rate != *a.Capacity {
		t.Errorf("last step %+v, capacity %v", last, *a.Capacity)
	}
	confirms := 0
	flaky := func(rate float64) Step {
		st := oracle(30, 0, nil)(rate)
		if rate <= 30 && rate > 29 && confirms == 0 { // the first step near the limit passes, its confirmation fails
			confirms++
		} else if rate <= 30 && rate > 29 {
			st.Result = Fail
			st.Gates[0].Pass = false
		}
		return st
	}
	a = drive(t, NewStaircase(b, 0), flaky)
	if *a.Capacity > 29 || math.Abs(*a.Capacity-29) > 1 {
		t.Errorf("after a failed confirmation: %s", a.Line())
	}
}

// TestBisectCountsRepeats checks that every rate runs --repeat times, and
// passes only when every repeat does.
func TestBisectCountsRepeats(t *testing.T) {
	b := Bounds{Min: 10, Max: 40, Resolution: 2}
	n := 0
	judge := func(rate float64) Step {
		n++
		st := oracle(20, 0, nil)(rate)
		if rate == 10 && n == 2 { // one of --min's three repeats fails
			st.Result = Fail
		}
		return st
	}
	a := drive(t, NewBisect(b, 3), judge)
	if a.Bound != BelowMin || len(a.Steps) != 3 || a.Rates[0].Passed != 2 || a.Rates[0].Runs != 3 {
		t.Errorf("%s; rates %+v", a.Line(), a.Rates)
	}
	a = drive(t, NewBisect(b, 3), oracle(20, 0, nil))
	for _, r := range a.Rates {
		if r.Runs != 3 {
			t.Errorf("rate %v ran %d times", r.Rate, r.Runs)
		}
	}
}

// TestInterruptedAnswer checks that a search stopped before its answer
// says so instead of claiming a bound.
func TestInterruptedAnswer(t *testing.T) {
	s := NewStaircase(Bounds{Min: 10, Max: 50, Resolution: 1}, 0)
	for range 2 {
		rate, phase, _ := s.Next()
		st := oracle(30, 0, nil)(rate)
		st.Phase = phase
		s.Record(st)
	}
	a := s.Answer()
	a.Interrupted = true
	if want := "capacity: at least 15 req/s so far — the search was interrupted before it ended"; a.Line() != want {
		t.Errorf("line %q, want %q", a.Line(), want)
	}
	if a := (Answer{Interrupted: true}); a.Line() != "capacity: unknown — the search was interrupted before a rate passed" {
		t.Errorf("line %q", a.Line())
	}
}
