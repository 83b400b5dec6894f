package executor

import (
	"math"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/options"
)

func stage(d time.Duration, target int64) options.Stage {
	return options.Stage{Duration: options.Duration(d), Target: target}
}

func TestConstantArrival(t *testing.T) {
	cases := []struct {
		name    string
		i, rate int64
		unit    time.Duration
		want    time.Duration
	}{
		{"first at zero", 0, 10, time.Second, 0},
		{"tenth", 10, 10, time.Second, time.Second},
		{"per minute", 3, 60, time.Minute, 3 * time.Second},
		{"uneven division stays exact", 3, 3, time.Second, time.Second},
		{"large index", 5000 * 3600, 5000, time.Second, time.Hour},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ConstantArrival(tc.i, tc.rate, tc.unit); got != tc.want {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRampingArrivals(t *testing.T) {
	t.Run("constant stage fires at i+1 over rate", func(t *testing.T) {
		ra := NewRampingArrivals(10, []options.Stage{stage(time.Second, 10)}, time.Second)
		for i := int64(0); i < 10; i++ {
			at, ok := ra.At(i)
			want := time.Duration(i+1) * 100 * time.Millisecond
			if !ok || absDur(at-want) > time.Microsecond {
				t.Fatalf("i=%d: got %v %v, want %v", i, at, ok, want)
			}
		}
		if _, ok := ra.At(10); ok {
			t.Fatal("iteration 10 is past the end")
		}
	})
	t.Run("linear ramp from zero", func(t *testing.T) {
		// Rate 0→20/s over 2 s: integral 5·t², total 20 iterations.
		ra := NewRampingArrivals(0, []options.Stage{stage(2*time.Second, 20)}, time.Second)
		n := int64(0)
		for ; ; n++ {
			at, ok := ra.At(n)
			if !ok {
				break
			}
			want := time.Duration(math.Sqrt(float64(n+1)/5) * float64(time.Second))
			if absDur(at-want) > time.Microsecond {
				t.Fatalf("i=%d: got %v, want %v", n, at, want)
			}
		}
		if n != 20 {
			t.Fatalf("fired %d iterations, want 20", n)
		}
	})
	t.Run("fractions carry over between stages", func(t *testing.T) {
		ra := NewRampingArrivals(0, []options.Stage{stage(time.Second, 3), stage(time.Second, 3)}, time.Second)
		// Integral: 1.5 in stage one, then 3/s: iteration 2 (integral 2) at 1s + 0.5/3 s.
		at, _ := ra.At(1)
		want := time.Second + time.Second/6
		if absDur(at-want) > time.Microsecond {
			t.Fatalf("got %v, want %v", at, want)
		}
	})
	t.Run("monotonic", func(t *testing.T) {
		ra := NewRampingArrivals(5, []options.Stage{stage(time.Second, 50), stage(time.Second, 0), stage(time.Second, 30)}, time.Second)
		prev := time.Duration(-1)
		for i := int64(0); ; i++ {
			at, ok := ra.At(i)
			if !ok {
				break
			}
			if at < prev {
				t.Fatalf("i=%d goes back in time: %v < %v", i, at, prev)
			}
			prev = at
		}
	})
}

func TestRampSteps(t *testing.T) {
	steps := RampSteps(0, []options.Stage{stage(10*time.Second, 5), stage(0, 2), stage(10*time.Second, 0)})
	at := func(d time.Duration) int64 {
		var v int64
		for _, s := range steps {
			if s.At <= d {
				v = s.VUs
			}
		}
		return v
	}
	cases := []struct {
		t    time.Duration
		want int64
	}{{0, 0}, {1999 * time.Millisecond, 0}, {2 * time.Second, 1}, {9 * time.Second, 4}, {10 * time.Second, 2},
		{14 * time.Second, 2}, {15 * time.Second, 1}, {20 * time.Second, 0}}
	for _, c := range cases {
		if got := at(c.t); got != c.want {
			t.Errorf("at %v: %d VUs, want %d", c.t, got, c.want)
		}
	}
	if w := Windows(1, steps, 20*time.Second); len(w) != 1 || w[0].On != 4*time.Second || w[0].Off != 15*time.Second {
		t.Errorf("windows of VU 1 = %v", w)
	}
	if w := Windows(3, steps, 20*time.Second); len(w) != 1 || w[0].On != 8*time.Second || w[0].Off != 10*time.Second {
		t.Errorf("windows of VU 3 = %v", w)
	}
	if MaxVUs(steps) != 5 {
		t.Error("max VUs")
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// TestWindowsRampDownAtEnd: a step to fewer VUs at the end of the stages
// ends a window as a ramp-down; VUs still wanted at the end do not.
func TestWindowsRampDownAtEnd(t *testing.T) {
	down := RampSteps(2, []options.Stage{{Duration: options.Duration(2 * time.Second), Target: 0}})
	if w := Windows(0, down, 2*time.Second); len(w) != 1 || w[0].Off != 2*time.Second || !w[0].RampDown {
		t.Errorf("last VU of stages ending at 0: windows %v, want one ramping down at 2s", w)
	}
	if w := Windows(1, down, 2*time.Second); len(w) != 1 || w[0].Off != time.Second || !w[0].RampDown {
		t.Errorf("first VU to go: windows %v, want one ramping down at 1s", w)
	}
	flat := RampSteps(2, []options.Stage{{Duration: options.Duration(2 * time.Second), Target: 2}})
	if w := Windows(1, flat, 2*time.Second); len(w) != 1 || w[0].RampDown {
		t.Errorf("VU still wanted at the end: windows %v, want one ended by the scenario", w)
	}
}

// TestDueBy checks the end of the iterations due by a time against a
// linear scan, for constant and ramping schedules, from several starting
// points, before, inside and after the schedule.
func TestDueBy(t *testing.T) {
	const d = 2 * time.Second
	constant := func(rate int64) func(int64) (time.Duration, bool) {
		return func(i int64) (time.Duration, bool) {
			at := ConstantArrival(i, rate, time.Second)
			return at, at < d
		}
	}
	ramp := NewRampingArrivals(0, []options.Stage{stage(time.Second, 3000), stage(time.Second, 500)}, time.Second)
	scan := func(due func(int64) (time.Duration, bool), from int64, el time.Duration) int64 {
		i := from
		for ; ; i++ {
			if at, ok := due(i); !ok || at > el {
				return i
			}
		}
	}
	for name, due := range map[string]func(int64) (time.Duration, bool){
		"constant 7/s": constant(7), "constant 1000/s": constant(1000), "constant 1e5/s": constant(100_000), "ramping": ramp.At,
	} {
		for _, el := range []time.Duration{0, time.Nanosecond, 333 * time.Millisecond, time.Second, d - 1, d, time.Hour} {
			for _, from := range []int64{0, 1, 5, scan(due, 0, el/2)} {
				from = min(from, scan(due, 0, el))
				if got, want := DueBy(due, from, el), scan(due, from, el); got != want {
					t.Errorf("%s: DueBy(from %d, %v) = %d, want %d", name, from, el, got, want)
				}
			}
		}
	}
	// 1e8/s for 2 s: 2e8 due at the end, found without 2e8 calls.
	calls := 0
	fast := func(i int64) (time.Duration, bool) {
		calls++
		return constant(100_000_000)(i)
	}
	if got := DueBy(fast, 0, time.Hour); got != 200_000_000 || calls > 200 {
		t.Errorf("DueBy at 1e8/s = %d after %d calls, want 2e8 in a few dozen", got, calls)
	}
}
