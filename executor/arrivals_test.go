package executor

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// arrivalScenario is an arrival-rate scenario of the given process: rate
// per second for d (constant-arrival-rate) with 50 VUs.
func arrivalScenario(arrival string, k float64, seed, rate int64, d time.Duration) options.Scenario {
	sc := options.NewScenario("s", options.ConstantArrivalRate)
	sc.Rate, sc.Duration, sc.PreAllocatedVUs, sc.MaxVUs = rate, options.Duration(d), 50, 50
	sc.Arrival, sc.Burstiness, sc.ArrivalSeed = arrival, k, seed
	return sc
}

// dueOf returns the schedule the executor of sc builds, on the segment.
func dueOf(t *testing.T, sc options.Scenario, seg Segment) func(int64) (time.Duration, bool) {
	t.Helper()
	ex, err := New(Env{Scenario: sc, Segment: seg})
	if err != nil {
		t.Fatal(err)
	}
	return ex.(*arrivalRate).due
}

// gaps returns the first n inter-arrival times of a schedule, in ns.
func gaps(t *testing.T, due func(int64) (time.Duration, bool), n int) []float64 {
	t.Helper()
	out := make([]float64, n)
	prev, _ := due(0)
	for i := range out {
		at, ok := due(int64(i + 1))
		if !ok {
			t.Fatalf("arrival %d is past the end", i+1)
		}
		out[i], prev = float64(at-prev), at
	}
	return out
}

// meanCV returns the mean and the coefficient of variation of xs.
func meanCV(xs []float64) (mean, cv float64) {
	var s, s2 float64
	for _, x := range xs {
		s += x
	}
	mean = s / float64(len(xs))
	for _, x := range xs {
		s2 += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(s2/float64(len(xs))) / mean
}

// TestArrivalInterArrivalStatistics: over 10,000 arrivals of a constant
// rate (50/s, so timeUnit/rate = 20 ms), the mean inter-arrival time is
// within 2 % of 20 ms and the coefficient of variation within 5 % of 1/√k,
// for gamma shapes 0.25, 1 (also as arrival 'poisson') and 4, on several
// seeds; consecutive gaps are uncorrelated; the first iteration is due at
// 0, as on the regular schedule.
func TestArrivalInterArrivalStatistics(t *testing.T) {
	const n = 10_000
	want := float64(20 * time.Millisecond)
	for _, tc := range []struct {
		name    string
		arrival string
		k       float64
	}{
		{"gamma 0.25", options.ArrivalGamma, 0.25},
		{"gamma 1", options.ArrivalGamma, 1},
		{"poisson", options.ArrivalPoisson, 0},
		{"gamma 4", options.ArrivalGamma, 4},
	} {
		for _, seed := range []int64{0, 1, 42} {
			sc := arrivalScenario(tc.arrival, tc.k, seed, 50, time.Hour)
			due := dueOf(t, sc, nil)
			if first, ok := due(0); first != 0 || !ok {
				t.Errorf("%s: the first iteration is due at %v, want 0 as on the regular schedule", tc.name, first)
			}
			xs := gaps(t, due, n)
			mean, cv := meanCV(xs)
			wantCV := 1 / math.Sqrt(sc.ArrivalShape())
			if math.Abs(mean/want-1) > 0.02 || math.Abs(cv/wantCV-1) > 0.05 {
				t.Errorf("%s, seed %d: mean %.3fms, CV %.3f; want 20ms ± 2%% and %.3f ± 5%%", tc.name, seed, mean/1e6, cv, wantCV)
			}
			if r := lagOneCorrelation(xs); math.Abs(r) > 4/math.Sqrt(n) {
				t.Errorf("%s, seed %d: consecutive gaps correlate (r = %.3f)", tc.name, seed, r)
			}
		}
	}
}

func lagOneCorrelation(xs []float64) float64 {
	mean, cv := meanCV(xs)
	v := (cv * mean) * (cv * mean)
	var c float64
	for i := 1; i < len(xs); i++ {
		c += (xs[i] - mean) * (xs[i-1] - mean)
	}
	return c / float64(len(xs)-1) / v
}

// TestArrivalMeansSpreadAsIndependentGaps: over 200 seeds, the mean of
// 10,000 gaps of shape 0.25 falls within two standard errors (CV/√n) of 1
// about 95 % of the time — as it does when the gaps are independent. Block
// lengths drawn with the wrong variance, or streams of neighbouring blocks
// that overlap, spread the means too much or too little.
func TestArrivalMeansSpreadAsIndependentGaps(t *testing.T) {
	const n, seeds, k = 10_000, 200, 0.25
	se := 1 / math.Sqrt(k) / math.Sqrt(n)
	inside := 0
	for seed := range uint64(seeds) {
		a := NewArrivals(k, seed)
		if z := (a.Units(n)/n - 1) / se; math.Abs(z) < 2 {
			inside++
		}
	}
	if f := float64(inside) / seeds; f < 0.88 || f > 0.995 {
		t.Errorf("%.1f%% of the seeds' means within 2 standard errors, want about 95%%", 100*f)
	}
}

// TestPoissonGapsAreExponential: the gaps of arrival 'poisson' pass a
// Kolmogorov–Smirnov test against the exponential distribution of mean
// timeUnit/rate at the 1 % level, on 10,000 gaps.
func TestPoissonGapsAreExponential(t *testing.T) {
	const n = 10_000
	xs := gaps(t, dueOf(t, arrivalScenario(options.ArrivalPoisson, 0, 7, 50, time.Hour), nil), n)
	slices.Sort(xs)
	mean := float64(20 * time.Millisecond)
	d := 0.0
	for i, x := range xs {
		cdf := 1 - math.Exp(-x/mean)
		d = max(d, math.Abs(cdf-float64(i)/n), math.Abs(cdf-float64(i+1)/n))
	}
	if d > 1.63/math.Sqrt(n) {
		t.Errorf("Kolmogorov–Smirnov distance %.4f, above the 1%% critical value %.4f", d, 1.63/math.Sqrt(n))
	}
}

// TestArrivalsArePure: Units is a function of (shape, seed, n) alone: the
// same seed gives the same schedule whatever order the arrivals are asked
// in (backwards, far ahead first, across the kept marks of 2^20
// arrivals), and another seed another schedule.
func TestArrivalsArePure(t *testing.T) {
	const span = blockArrivals*blocksPerMark + 5*blockArrivals + 17 // past the first mark
	seq := NewArrivals(0.5, 9)
	want := make([]float64, span)
	for n := range want {
		want[n] = seq.Units(int64(n))
	}
	for n := 1; n < span; n++ {
		if want[n] < want[n-1] || math.IsNaN(want[n]) {
			t.Fatalf("Units(%d) = %v after %v: not non-decreasing", n, want[n], want[n-1])
		}
	}
	orders := map[string][]int{
		"backwards": nil, "random": rand.New(rand.NewPCG(1, 2)).Perm(span)[:2000],
		"far first": {span - 1, 3, span - blockArrivals, blockArrivals*blocksPerMark - 1, blockArrivals * blocksPerMark, 1},
	}
	for n := span - 1; n >= span-3*blockArrivals; n-- {
		orders["backwards"] = append(orders["backwards"], n)
	}
	for name, order := range orders {
		fresh := NewArrivals(0.5, 9)
		for _, n := range order {
			if got := fresh.Units(int64(n)); got != want[n] {
				t.Fatalf("%s: Units(%d) = %v, want %v as in order", name, n, got, want[n])
			}
		}
	}
	other := NewArrivals(0.5, 10)
	same := 0
	for n := 1; n < 1000; n++ {
		if other.Units(int64(n)) == want[n] {
			same++
		}
	}
	if same > 0 {
		t.Errorf("seed 10 shares %d of 999 arrival times with seed 9", same)
	}
	if ArrivalSeed(0, "a") == ArrivalSeed(0, "b") || ArrivalSeed(0, "a") == ArrivalSeed(1, "a") {
		t.Error("ArrivalSeed does not tell seeds and scenarios apart")
	}
}

// TestArrivalsExtremeShapes: at the ends of the burstiness range the
// schedule stays finite and non-decreasing, with mean 1 where the
// distribution allows measuring it.
func TestArrivalsExtremeShapes(t *testing.T) {
	for _, k := range []float64{1e-300, 1e-9, 0.01, options.MaxBurstiness} {
		a := NewArrivals(k, 3)
		prev := 0.0
		for n := int64(1); n <= 3*blockArrivals; n++ {
			u := a.Units(n)
			if math.IsNaN(u) || math.IsInf(u, 0) || u < prev {
				t.Fatalf("k=%g: Units(%d) = %v after %v", k, n, u, prev)
			}
			prev = u
		}
	}
	if a := NewArrivals(options.MaxBurstiness, 3); math.Abs(a.Units(10_000)/10_000-1) > 1e-4 {
		t.Errorf("k=1e6: mean gap %v, want 1 within 1e-4", a.Units(10_000)/10_000)
	}
}

// tuples returns the segments of the sequence 0,1/3,2/3,1 as Segments.
func tuples(t *testing.T) []Segment {
	t.Helper()
	seq, err := options.ParseSequence("0,1/3,2/3,1")
	if err != nil {
		t.Fatal(err)
	}
	var out []Segment
	for _, seg := range seq.Segments() {
		tu, err := options.NewTuple(seg, seq)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tu)
	}
	return out
}

// TestArrivalSegmentsShareOneProcess: three instances on 0:1/3, 1/3:2/3
// and 2/3:1, each building its own schedule and asking only for the
// indices striped to it (as a runner does), together have exactly the due
// times of the single process, index by index, for both executors.
func TestArrivalSegmentsShareOneProcess(t *testing.T) {
	ramp := arrivalScenario(options.ArrivalGamma, 0.3, 5, 0, 0)
	ramp.Executor, ramp.StartRate = options.RampingArrivalRate, 10
	ramp.Stages = []options.Stage{stage(2*time.Second, 400), stage(time.Second, 400), stage(2*time.Second, 0)}
	for name, sc := range map[string]options.Scenario{
		"constant poisson": arrivalScenario(options.ArrivalPoisson, 0, 0, 700, 3*time.Second),
		"ramping gamma":    ramp,
	} {
		single := dueOf(t, sc, nil)
		var want []time.Duration
		for i := int64(0); ; i++ {
			at, ok := single(i)
			if !ok {
				break
			}
			want = append(want, at)
		}
		got := make([]time.Duration, len(want))
		owners := make([]int, len(want)+100)
		for _, seg := range tuples(t) {
			due := dueOf(t, sc, seg)
			for i := int64(0); ; i++ {
				if !seg.Owns(i) {
					continue
				}
				at, ok := due(i)
				if !ok {
					break
				}
				if i >= int64(len(want)) {
					t.Fatalf("%s: a segment has arrival %d, the single process %d arrivals", name, i, len(want))
				}
				got[i] = at
				owners[i]++
			}
		}
		for i := range want {
			if owners[i] != 1 || got[i] != want[i] {
				t.Fatalf("%s: arrival %d owned %d times, at %v; the single process has it at %v", name, i, owners[i], got[i], want[i])
			}
		}
	}
}

// TestArrivalSegmentRunsMergeToOneRun runs a poisson scenario (300/s for
// 1 s) in a synctest bubble once whole and once per segment of
// 0,1/3,2/3,1: the segments' iterations, by global index and scheduled
// offset, are exactly the whole run's, none dropped, and schedule_lag is 0
// (the due time is the process's arrival time).
func TestArrivalSegmentRunsMergeToOneRun(t *testing.T) {
	type start struct {
		i  int64
		at time.Duration
	}
	runOn := func(t *testing.T, seg Segment) ([]start, *metrics.Registry, *Stats) {
		sc := arrivalScenario(options.ArrivalPoisson, 0, 11, 300, time.Second)
		var mu sync.Mutex
		var starts []start
		var begin time.Time
		env, reg := testEnv(sc, 50, func(_ context.Context, _ VU, it Iteration) Outcome {
			mu.Lock()
			defer mu.Unlock()
			starts = append(starts, start{it.InTest, it.Scheduled.Sub(begin)})
			return Completed
		})
		env.Segment = seg
		ex, err := New(env)
		if err != nil {
			t.Fatal(err)
		}
		begin = time.Now()
		if err := ex.Run(context.Background(), begin); err != nil {
			t.Fatal(err)
		}
		sort.Slice(starts, func(a, b int) bool { return starts[a].i < starts[b].i })
		return starts, reg, ex.Stats()
	}
	synctest.Test(t, func(t *testing.T) {
		whole, reg, st := runOn(t, nil)
		if n := len(whole); n < 240 || n > 360 || st.Dropped.Load() != 0 {
			t.Fatalf("whole run: %d iterations, %d dropped; want about 300, none dropped", n, st.Dropped.Load())
		}
		if lag := reg.Get("schedule_lag").Sink.(*metrics.TrendSink); lag.Max != 0 {
			t.Errorf("schedule_lag max %vms, want 0 on the bubble's clock", lag.Max)
		}
		var merged []start
		for _, seg := range tuples(t) {
			part, _, st := runOn(t, seg)
			if st.Dropped.Load() != 0 {
				t.Fatalf("segment dropped %d", st.Dropped.Load())
			}
			merged = append(merged, part...)
		}
		sort.Slice(merged, func(a, b int) bool { return merged[a].i < merged[b].i })
		if !slices.Equal(merged, whole) {
			t.Fatalf("the segments' iterations (%d) differ from the whole run's (%d)", len(merged), len(whole))
		}
	})
}

// TestRampingArrivalsRandomPerStage: a ramp 0→100/s over 10 s, 100/s for
// 10 s, then 100→20/s over 10 s, with gamma arrivals of shape 0.25, 1 and
// 4: each stage gets the rate's integral (500, 1000, 600 arrivals) within
// four standard deviations of a renewal count (√(m/k)).
func TestRampingArrivalsRandomPerStage(t *testing.T) {
	stages := []options.Stage{stage(10*time.Second, 100), stage(10*time.Second, 100), stage(10*time.Second, 20)}
	want := []float64{500, 1000, 600}
	for _, k := range []float64{0.25, 1, 4} {
		sc := arrivalScenario(options.ArrivalGamma, k, 0, 0, 0)
		sc.Executor, sc.Stages = options.RampingArrivalRate, stages
		due := dueOf(t, sc, nil)
		counts := make([]float64, len(stages))
		for i := int64(0); ; i++ {
			at, ok := due(i)
			if !ok {
				break
			}
			counts[min(int(at/(10*time.Second)), len(stages)-1)]++
		}
		for s, m := range want {
			if sd := math.Sqrt(m / k); math.Abs(counts[s]-m) > 4*sd+1 {
				t.Errorf("k=%g, stage %d: %v arrivals, want %v ± %.0f", k, s, counts[s], m, 4*sd+1)
			}
		}
	}
}

// TestConstantArrivalUnchanged: arrival 'constant', set or not, is k6's
// regular schedule bit for bit, for both executors, whatever the seed.
func TestConstantArrivalUnchanged(t *testing.T) {
	for _, arrival := range []string{"", options.ArrivalConstant} {
		sc := arrivalScenario(arrival, 0, 99, 7, 10*time.Second)
		due := dueOf(t, sc, nil)
		ramp := sc
		ramp.Executor, ramp.StartRate = options.RampingArrivalRate, 3
		ramp.Stages = []options.Stage{stage(5*time.Second, 50), stage(5*time.Second, 1)}
		rdue, ra := dueOf(t, ramp, nil), NewRampingArrivals(3, ramp.Stages, time.Second)
		for i := range int64(300) {
			if at, ok := due(i); at != ConstantArrival(i, 7, time.Second) || ok != (at < 10*time.Second) {
				t.Fatalf("arrival %q: constant-arrival-rate iteration %d at %v", arrival, i, at)
			}
			at, ok := rdue(i)
			if wat, wok := ra.At(i); at != wat || ok != wok {
				t.Fatalf("arrival %q: ramping-arrival-rate iteration %d at %v %v, want %v %v", arrival, i, at, ok, wat, wok)
			}
		}
	}
}

// TestDueByRandomSchedules checks DueBy against a linear scan on poisson
// and bursty schedules, where due times repeat and jump.
func TestDueByRandomSchedules(t *testing.T) {
	ramp := arrivalScenario(options.ArrivalGamma, 0.1, 2, 0, 0)
	ramp.Executor, ramp.Stages = options.RampingArrivalRate, []options.Stage{stage(time.Second, 3000), stage(time.Second, 500)}
	for name, sc := range map[string]options.Scenario{
		"poisson 1000/s": arrivalScenario(options.ArrivalPoisson, 0, 1, 1000, 2*time.Second),
		"gamma 0.05":     arrivalScenario(options.ArrivalGamma, 0.05, 1, 5000, 2*time.Second),
		"ramping gamma":  ramp,
	} {
		due := dueOf(t, sc, nil)
		scan := func(from int64, el time.Duration) int64 {
			for i := from; ; i++ {
				if at, ok := due(i); !ok || at > el {
					return i
				}
			}
		}
		for _, el := range []time.Duration{0, time.Millisecond, 333 * time.Millisecond, time.Second, 2*time.Second - 1, time.Hour} {
			for _, from := range []int64{0, 1, scan(0, el/2)} {
				from = min(from, scan(0, el))
				if got, want := DueBy(due, from, el), scan(from, el); got != want {
					t.Errorf("%s: DueBy(from %d, %v) = %d, want %d", name, from, el, got, want)
				}
			}
		}
	}
}

// TestPoissonBeyondTheMachine runs poisson arrivals at 1e8/s for 2 s on 10
// VUs: as with the regular schedule, the scenario ends at its duration,
// every due iteration is started or dropped, and finding them costs a
// length per block of 1024 arrivals, not a draw per arrival.
func TestPoissonBeyondTheMachine(t *testing.T) {
	t.Parallel()
	sc := arrivalScenario(options.ArrivalPoisson, 0, 0, 1e8, 2*time.Second)
	sc.PreAllocatedVUs, sc.MaxVUs, sc.GracefulStop = 10, 10, options.Duration(time.Second)
	env, _ := testEnv(sc, 10, func(context.Context, VU, Iteration) Outcome { return Completed })
	due := DueBy(dueOf(t, sc, nil), 0, 2*time.Second)
	begin := time.Now()
	st := run(t, env).Stats()
	if el := time.Since(begin); el > 10*time.Second {
		t.Errorf("the 2 s scenario took %s", el)
	}
	if started, dropped := st.Completed.Load()+st.Interrupted.Load(), st.Dropped.Load(); started+dropped != due || started == 0 {
		t.Errorf("started %d + dropped %d, want the %d due, some started", started, dropped, due)
	}
	if math.Abs(float64(due)/2e8-1) > 0.001 {
		t.Errorf("%d due in 2 s at 1e8/s", due)
	}
}
