package executor

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

type fakeVU int64

func (v fakeVU) ID() int64 { return int64(v) }

func vus(n int) []VU {
	out := make([]VU, n)
	for i := range out {
		out[i] = fakeVU(i + 1)
	}
	return out
}

func testEnv(sc options.Scenario, n int, iterate IterateFunc) (Env, *metrics.Registry) {
	reg := metrics.NewRegistry()
	return Env{
		Scenario: sc, VUs: vus(n), Iterate: iterate, Engine: metrics.NewEngine(reg),
		Builtin: metrics.RegisterBuiltin(reg), Tags: metrics.Tags{"scenario": sc.Name},
		Warn: func(string) {},
	}, reg
}

func sleeper(d time.Duration) IterateFunc {
	return func(ctx context.Context, _ VU, _ Iteration) Outcome {
		select {
		case <-time.After(d):
			return Completed
		case <-ctx.Done():
			return Interrupted
		}
	}
}

func run(t *testing.T, env Env) Executor {
	t.Helper()
	ex, err := New(env)
	if err != nil {
		t.Fatal(err)
	}
	if err := ex.Run(context.Background(), time.Now()); err != nil {
		t.Fatal(err)
	}
	return ex
}

func TestConstantArrivalRateDrops(t *testing.T) {
	t.Parallel()
	// 10/s for 3 s, one VU whose iteration takes 1 s: 30 due, 3 run, 27 dropped.
	sc := options.Scenario{Name: "s", Executor: options.ConstantArrivalRate, Rate: 10,
		TimeUnit: options.Duration(time.Second), Duration: options.Duration(3 * time.Second),
		PreAllocatedVUs: 1, MaxVUs: 1, GracefulStop: options.Duration(2 * time.Second)}
	env, reg := testEnv(sc, 1, sleeper(time.Second-20*time.Millisecond))
	ex := run(t, env)
	st := ex.Stats()
	if c, d := st.Completed.Load(), st.Dropped.Load(); c != 3 || d != 27 {
		t.Fatalf("completed %d dropped %d, want 3 and 27", c, d)
	}
	if got := reg.Get("dropped_iterations").Sink.(*metrics.CounterSink).Sum; got != 27 {
		t.Fatalf("dropped_iterations = %v", got)
	}
}

func TestConstantArrivalRateGrowsToMaxVUs(t *testing.T) {
	t.Parallel()
	sc := options.Scenario{Name: "s", Executor: options.ConstantArrivalRate, Rate: 20,
		TimeUnit: options.Duration(time.Second), Duration: options.Duration(2 * time.Second),
		PreAllocatedVUs: 1, MaxVUs: 10, GracefulStop: options.Duration(time.Second)}
	env, _ := testEnv(sc, 1, sleeper(200*time.Millisecond))
	var made atomic.Int64
	env.NewVU = func(context.Context) (VU, error) { return fakeVU(100 + made.Add(1)), nil }
	ex := run(t, env)
	st := ex.Stats()
	if st.Completed.Load()+st.Dropped.Load() != 40 {
		t.Fatalf("completed %d + dropped %d != 40", st.Completed.Load(), st.Dropped.Load())
	}
	if made.Load() < 3 || made.Load() > 9 {
		t.Fatalf("initialised %d extra VUs, want between 3 and 9", made.Load())
	}
	if st.Dropped.Load() > 10 {
		t.Fatalf("dropped %d; growth should stop the drops", st.Dropped.Load())
	}
}

// TestArrivalRateScheduleLagAndSegment runs 200 iterations/s for 1 s on 5
// VUs with a segment owning the odd indexes: exactly the 100 odd ones run,
// on time. It runs in a synctest bubble: on the real clock a loaded machine
// (-race, parallel tests) could delay the VUs' goroutines by more than the
// 50 ms five iterations take to come due, so the executor, catching up,
// found no idle VU and dropped an iteration (98 of 100 ran).
func TestArrivalRateScheduleLagAndSegment(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		sc := options.Scenario{Name: "s", Executor: options.ConstantArrivalRate, Rate: 200,
			TimeUnit: options.Duration(time.Second), Duration: options.Duration(time.Second),
			PreAllocatedVUs: 5, MaxVUs: 5, GracefulStop: options.Duration(time.Second)}
		var mu sync.Mutex
		seen := map[int64]bool{}
		env, reg := testEnv(sc, 5, func(_ context.Context, _ VU, it Iteration) Outcome {
			i := it.InTest
			mu.Lock()
			seen[i] = true
			mu.Unlock()
			return Completed
		})
		env.Segment = oddOnly{}
		ex := run(t, env)
		if len(seen) != 100 || ex.Stats().Dropped.Load() != 0 {
			t.Fatalf("ran %d iterations, dropped %d, want 100 (the odd half of 200) and none", len(seen), ex.Stats().Dropped.Load())
		}
		for i := range seen {
			if i%2 == 0 {
				t.Fatalf("ran even index %d outside the segment", i)
			}
		}
		lag := reg.Get("schedule_lag").Sink.(*metrics.TrendSink)
		if lag.Count() != 100 || lag.Max != 0 {
			t.Fatalf("schedule_lag count %d max %vms, want 100 samples, all 0 on the bubble's clock", lag.Count(), lag.Max)
		}
	})
}

type oddOnly struct{}

func (oddOnly) Owns(i int64) bool    { return i%2 == 1 }
func (oddOnly) Global(l int64) int64 { return 2*l + 1 }
func (oddOnly) Scale(n int64) int64  { return n / 2 }

func TestGracefulStopInterrupts(t *testing.T) {
	t.Parallel()
	sc := options.Scenario{Name: "s", Executor: options.ConstantVUs, VUs: 2,
		Duration: options.Duration(300 * time.Millisecond), GracefulStop: options.Duration(100 * time.Millisecond)}
	env, _ := testEnv(sc, 2, sleeper(time.Hour))
	start := time.Now()
	ex := run(t, env)
	// Not before duration + gracefulStop; iterations that were not
	// interrupted would run for an hour.
	if el := time.Since(start); el < 400*time.Millisecond || el > 10*time.Second {
		t.Fatalf("run took %v, want duration + gracefulStop (400 ms)", el)
	}
	if st := ex.Stats(); st.Interrupted.Load() != 2 || st.Completed.Load() != 0 {
		t.Fatalf("interrupted %d completed %d", st.Interrupted.Load(), st.Completed.Load())
	}
}

func TestIterationExecutors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		sc   options.Scenario
		vus  int
		want int64
	}{
		{"per-vu-iterations", options.Scenario{Executor: options.PerVUIterations, VUs: 3, Iterations: 4,
			MaxDuration: options.Duration(5 * time.Second)}, 3, 12},
		{"shared-iterations", options.Scenario{Executor: options.SharedIterations, VUs: 3, Iterations: 10,
			MaxDuration: options.Duration(5 * time.Second)}, 3, 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.sc.Name = "s"
			env, reg := testEnv(tc.sc, tc.vus, sleeper(time.Millisecond))
			ex := run(t, env)
			if got := ex.Stats().Completed.Load(); got != tc.want {
				t.Fatalf("completed %d, want %d", got, tc.want)
			}
			if d := ex.Stats().Dropped.Load(); d != 0 {
				t.Fatalf("dropped %d, want 0: every iteration ran", d)
			}
			if reg.Get("dropped_iterations").Sink.(*metrics.CounterSink).Sum != 0 {
				t.Fatal("dropped_iterations has samples although every iteration ran")
			}
		})
	}
}

// TestIterationsLostToMaxDuration checks that the iterations an
// iteration-based scenario could not start before maxDuration count as
// dropped, as in k6: started + dropped is the whole budget.
func TestIterationsLostToMaxDuration(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		sc     options.Scenario
		budget int64
	}{
		{"per-vu-iterations", options.Scenario{Executor: options.PerVUIterations, VUs: 2, Iterations: 50}, 100},
		{"shared-iterations", options.Scenario{Executor: options.SharedIterations, VUs: 2, Iterations: 100}, 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.sc.Name = "s"
			tc.sc.MaxDuration = options.Duration(300 * time.Millisecond)
			// 50 ms iterations: at most 2 VUs × 6 start before maxDuration,
			// however slow the machine.
			env, reg := testEnv(tc.sc, int(tc.sc.VUs), sleeper(50*time.Millisecond))
			st := run(t, env).Stats()
			started := st.Completed.Load() + st.Interrupted.Load()
			dropped := st.Dropped.Load()
			if started > 14 || dropped < tc.budget-14 {
				t.Fatalf("started %d, dropped %d: maxDuration should have cut the run", started, dropped)
			}
			if started+dropped != tc.budget {
				t.Fatalf("started %d + dropped %d != %d iterations", started, dropped, tc.budget)
			}
			if got := reg.Get("dropped_iterations").Sink.(*metrics.CounterSink).Sum; got != float64(dropped) {
				t.Fatalf("dropped_iterations = %v, want %d", got, dropped)
			}
		})
	}
}

func TestRampingVUsRun(t *testing.T) {
	t.Parallel()
	sc := options.Scenario{Name: "s", Executor: options.RampingVUs, StartVUs: 0,
		Stages:       []options.Stage{stage(200*time.Millisecond, 4), stage(200*time.Millisecond, 0)},
		GracefulStop: options.Duration(time.Second), GracefulRampDown: options.Duration(time.Second)}
	var peak, active atomic.Int64
	allIn := make(chan struct{})
	var once sync.Once
	env, _ := testEnv(sc, 4, func(ctx context.Context, _ VU, _ Iteration) Outcome {
		n := active.Add(1)
		defer active.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		if n == 4 {
			once.Do(func() { close(allIn) })
		}
		// Each iteration lasts until four run at once (or its VU stops),
		// then 1 ms: the peak is reached however late the VUs start.
		select {
		case <-allIn:
		case <-ctx.Done():
			return Interrupted
		}
		return sleeper(time.Millisecond)(ctx, nil, Iteration{})
	})
	ex := run(t, env)
	if peak.Load() != 4 || ex.Plan().MaxVUs != 4 {
		t.Fatalf("peak concurrency %d, plan %d; want 4", peak.Load(), ex.Plan().MaxVUs)
	}
}

// TestPoolReservesNothingForMaxVUs checks that a pool's memory follows the
// VUs it holds, not maxVUs: maxVUs of 1e10 (with --no-vu-limit) once
// reserved 160 GB up front and died out of memory.
func TestPoolReservesNothingForMaxVUs(t *testing.T) {
	t.Parallel()
	p := newPool(vus(2), 1e10, nil, &Stats{}, nil)
	if cap(p.idle) > 16 {
		t.Fatalf("a pool of 2 VUs with maxVUs 1e10 reserves room for %d VUs", cap(p.idle))
	}
}

func TestPoolReusesTheLastIdleVU(t *testing.T) {
	t.Parallel()
	p := newPool(vus(3), 3, nil, &Stats{}, nil)
	first := p.tryGet()
	if first.ID() != 1 {
		t.Fatalf("first VU out is %d, want 1", first.ID())
	}
	p.put(first)
	if again := p.tryGet(); again.ID() != 1 {
		t.Fatalf("got VU %d, want the VU that just finished (1)", again.ID())
	}
	if p.tryGet().ID() != 2 || p.tryGet().ID() != 3 || p.tryGet() != nil {
		t.Fatal("the pool must hand out each idle VU once, then nil")
	}
}

// TestStatsPeak checks that TakePeak sees a VU that was active between two
// samples, and that the next window starts at the VUs active now.
func TestStatsPeak(t *testing.T) {
	var s Stats
	s.activate()
	s.activate()
	s.deactivate()
	s.deactivate()
	if got := s.TakePeak(); got != 2 {
		t.Errorf("peak = %d, want 2 (two VUs were active before the sample)", got)
	}
	s.activate()
	if got := s.TakePeak(); got != 1 {
		t.Errorf("peak = %d, want 1", got)
	}
	if got := s.TakePeak(); got != 1 {
		t.Errorf("peak with one VU still active = %d, want 1", got)
	}
	s.deactivate()
	if got, again := s.TakePeak(), s.TakePeak(); got != 1 || again != 0 {
		t.Errorf("peaks after the last VU stopped = %d, %d; want 1, 0", got, again)
	}
}

// TestRampDownToZeroAtTheEnd checks that stages ending at 0 VUs take the
// last VU away by ramping down, as k6 does: its iteration in flight at the
// end of the stages gets gracefulRampDown, not gracefulStop.
func TestRampDownToZeroAtTheEnd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rampDown               time.Duration
		completed, interrupted int64
	}{{0, 2, 1}, {500 * time.Millisecond, 3, 0}} {
		synctest.Test(t, func(t *testing.T) {
			// One VU from 0 to 2 s; iterations of 700 ms start at 0, 0.7 and 1.4 s.
			sc := options.Scenario{Name: "s", Executor: options.RampingVUs, StartVUs: 1,
				Stages:           []options.Stage{{Duration: options.Duration(time.Second), Target: 1}, {Duration: options.Duration(time.Second), Target: 0}},
				GracefulRampDown: options.Duration(tc.rampDown), GracefulStop: options.Duration(30 * time.Second)}
			env, _ := testEnv(sc, 1, sleeper(700*time.Millisecond))
			st := run(t, env).Stats()
			if c, i := st.Completed.Load(), st.Interrupted.Load(); c != tc.completed || i != tc.interrupted {
				t.Errorf("gracefulRampDown %v: %d completed, %d interrupted; want %d and %d", tc.rampDown, c, i, tc.completed, tc.interrupted)
			}
		})
	}
}

// TestArrivalRateBeyondTheMachine runs 1e8 iterations/s for 2 s on 10 VUs
// whose iterations return at once: the machine cannot start them that
// fast. The scenario ends at its duration (well before 10 s; stepping
// through 2e8 due times one by one took 35 s), every due iteration is
// either started or dropped, dropped_iterations counts the drops, and one
// warning says why.
func TestArrivalRateBeyondTheMachine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		sc   options.Scenario
		seg  Segment
		due  int64
	}{
		{"constant", options.Scenario{Executor: options.ConstantArrivalRate, Rate: 1e8, Duration: options.Duration(2 * time.Second)}, nil, 2e8},
		{"constant, odd segment", options.Scenario{Executor: options.ConstantArrivalRate, Rate: 1e8, Duration: options.Duration(2 * time.Second)}, oddOnly{}, 1e8},
		{"ramping", options.Scenario{Executor: options.RampingArrivalRate, StartRate: 1e8,
			Stages: []options.Stage{stage(time.Second, 1e8), stage(time.Second, 0)}}, nil, 15e7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sc := tc.sc
			sc.Name, sc.TimeUnit, sc.PreAllocatedVUs, sc.MaxVUs = "s", options.Duration(time.Second), 10, 10
			sc.GracefulStop = options.Duration(time.Second)
			env, reg := testEnv(sc, 10, func(context.Context, VU, Iteration) Outcome { return Completed })
			env.Segment = tc.seg
			var mu sync.Mutex
			var warnings []string
			env.Warn = func(m string) {
				mu.Lock()
				defer mu.Unlock()
				warnings = append(warnings, m)
			}
			begin := time.Now()
			st := run(t, env).Stats()
			if el := time.Since(begin); el > 10*time.Second {
				t.Errorf("the 2 s scenario took %s", el)
			}
			started, dropped := st.Completed.Load()+st.Interrupted.Load(), st.Dropped.Load()
			if started+dropped != tc.due || started == 0 {
				t.Errorf("started %d + dropped %d, want %d due iterations, some started", started, dropped, tc.due)
			}
			if got := reg.Get("dropped_iterations").Sink.(*metrics.CounterSink).Sum; got != float64(dropped) {
				t.Errorf("dropped_iterations = %v, want %d", got, dropped)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(warnings) != 1 || !strings.Contains(warnings[0], "dropped") {
				t.Errorf("warnings %q, want one about the dropped iterations", warnings)
			}
		})
	}
}

// TestDueBurstStartsOnIdleVUs checks one pass of the loop: of the
// iterations due at once, as many start as VUs are idle, oldest first, and
// the others are dropped as one sample; the pool then grows by the drops,
// up to maxVUs.
func TestDueBurstStartsOnIdleVUs(t *testing.T) {
	sc := options.Scenario{Name: "s", Executor: options.ConstantArrivalRate, Rate: 1000, TimeUnit: options.Duration(time.Second),
		Duration: options.Duration(time.Second), PreAllocatedVUs: 3, MaxVUs: 5}
	release := make(chan struct{})
	var mu sync.Mutex
	var got []int64
	env, reg := testEnv(sc, 3, func(_ context.Context, _ VU, it Iteration) Outcome {
		mu.Lock()
		got = append(got, it.InTest)
		mu.Unlock()
		<-release
		return Completed
	})
	var made atomic.Int64
	env.NewVU = func(context.Context) (VU, error) { return fakeVU(100 + made.Add(1)), nil }
	a, _ := New(env)
	ar := a.(*arrivalRate)
	l := &arrivalLoop{a: ar, p: newPool(env.VUs, sc.MaxVUs, env.NewVU, &ar.stats, env.Warn), ctx: context.Background(),
		iterCtx: context.Background(), start: time.Now()}
	l.pass(10, 20)
	close(release)
	l.running.Wait()
	l.p.growing.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 3 || got[0]+got[1]+got[2] != 10+11+12 {
		t.Errorf("started %v, want the oldest three due: 10, 11, 12", got)
	}
	sink := reg.Get("dropped_iterations").Sink.(*metrics.CounterSink)
	if ar.stats.Dropped.Load() != 7 || sink.Sum != 7 || made.Load() != 2 {
		t.Errorf("dropped %d (sample sum %v), made %d VUs; want 7, 7 and 2 (up to maxVUs 5)", ar.stats.Dropped.Load(), sink.Sum, made.Load())
	}
}
