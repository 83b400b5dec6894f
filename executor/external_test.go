package executor

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/usefullatency/usefullatency/options"
)

// external returns an externally-controlled scenario of vus active VUs
// out of maxVUs, for d (0: until stopped).
func external(vus, maxVUs int64, d time.Duration) options.Scenario {
	sc := options.NewScenario("ext", options.ExternallyControlled)
	sc.VUs, sc.MaxVUs, sc.Duration = vus, maxVUs, options.Duration(d)
	return sc
}

// vuLog records which VUs ran iterations.
type vuLog struct {
	mu  sync.Mutex
	ids map[int64]int
}

// since returns the VUs that ran an iteration since the last call.
func (l *vuLog) since() []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []int64
	for id := range l.ids {
		ids = append(ids, id)
	}
	l.ids = map[int64]int{}
	slices.Sort(ids)
	return ids
}

// iterate records the VU and takes d, interrupted by ctx.
func (l *vuLog) iterate(d time.Duration) IterateFunc {
	l.ids = map[int64]int{}
	return func(ctx context.Context, vu VU, _ Iteration) Outcome {
		l.mu.Lock()
		l.ids[vu.ID()]++
		l.mu.Unlock()
		select {
		case <-time.After(d):
			return Completed
		case <-ctx.Done():
			return Interrupted
		}
	}
}

// startExternal runs the executor of env in the background; the returned
// function stops it and waits for Run to return.
func startExternal(t *testing.T, env Env) (Controlled, func()) {
	t.Helper()
	ex, err := New(env)
	if err != nil {
		t.Fatal(err)
	}
	c := ex.(Controlled)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = c.Run(ctx, time.Now())
	}()
	return c, func() { cancel(); <-done }
}

func n(v int64) *int64 { return &v }

// VU k runs iterations while k < vus: scaling up starts the next VUs,
// raising maxVUs initialises new ones first, scaling down interrupts the
// iterations of the VUs taken away (as k6's hard stop does) and returns
// once they stopped; lowering maxVUs gives the VUs above it up.
func TestExternallyControlledScale(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		log := &vuLog{}
		env, _ := testEnv(external(1, 4, 0), 4, log.iterate(10*time.Millisecond))
		var made atomic.Int64
		env.NewVU = func(context.Context) (VU, error) { return fakeVU(100 + made.Add(1)), nil }
		c, stop := startExternal(t, env)
		wantVUs := func(step string, want ...int64) {
			t.Helper()
			log.since()
			time.Sleep(time.Second) // a second of synctest's fake clock: the VUs run their iterations
			if got := log.since(); !slices.Equal(got, want) {
				t.Errorf("%s: iterations ran on VUs %v, want %v", step, got, want)
			}
			if a := c.Stats().Active.Load(); a != int64(len(want)) {
				t.Errorf("%s: %d VUs active, want %d", step, a, len(want))
			}
		}
		wantVUs("start", 1)
		if err := c.Scale(n(3), nil); err != nil {
			t.Fatal(err)
		}
		wantVUs("vus 3", 1, 2, 3)
		if err := c.Scale(n(6), n(6)); err != nil {
			t.Fatal(err)
		}
		if made.Load() != 2 || c.Stats().Initialised.Load() != 6 {
			t.Errorf("raising maxVUs to 6 initialised %d VUs (%d in all), want 2 (6)", made.Load(), c.Stats().Initialised.Load())
		}
		wantVUs("vus 6 maxVUs 6", 1, 2, 3, 4, 101, 102)
		if err := c.Scale(n(2), n(4)); err != nil {
			t.Fatal(err)
		}
		wantVUs("vus 2 maxVUs 4", 1, 2)
		if st := c.Stats(); st.Initialised.Load() != 4 || st.Released.Load() != 2 {
			t.Errorf("after lowering maxVUs: %d VUs owned, %d released; want 4 and 2", st.Initialised.Load(), st.Released.Load())
		}
		if err := c.Scale(n(0), nil); err != nil {
			t.Fatal(err)
		}
		wantVUs("vus 0")
		stop()
	})
}

// Scaling down interrupts the iterations in flight on the VUs taken away,
// at once, and returns when they have stopped.
func TestExternallyControlledScaleDownInterrupts(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		log := &vuLog{}
		env, _ := testEnv(external(3, 3, 0), 3, log.iterate(time.Hour))
		c, stop := startExternal(t, env)
		defer stop()
		synctest.Wait()
		if a := c.Stats().Active.Load(); a != 3 {
			t.Fatalf("%d VUs active, want 3", a)
		}
		start := time.Now()
		if err := c.Scale(n(1), nil); err != nil {
			t.Fatal(err)
		}
		st := c.Stats()
		if el := time.Since(start); el != 0 || st.Interrupted.Load() != 2 || st.Active.Load() != 1 {
			t.Errorf("scale down took %s, interrupted %d iterations, left %d VUs active; want at once, 2, 1",
				el, st.Interrupted.Load(), st.Active.Load())
		}
	})
}

// k6's rules for a change, with its messages; a refused change changes
// nothing.
func TestExternallyControlledRefusals(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		log := &vuLog{}
		env, _ := testEnv(external(1, 4, 0), 4, log.iterate(10*time.Millisecond))
		c, stop := startExternal(t, env)
		defer stop()
		for _, tc := range []struct {
			name        string
			vus, maxVUs *int64
			want        string
		}{
			{"vus above maxVUs", n(5), nil, "invalid configuration supplied: the number of active VUs (5) must be less than or equal to the number of maxVUs (4)"},
			{"negative vus", n(-1), nil, "invalid configuration supplied: the number of VUs can't be negative"},
			{"maxVUs below the start's", n(1), n(3), "the new number of max VUs cannot be lower than the starting number of max VUs (4)"},
			{"maxVUs below vus", nil, n(0), "invalid configuration supplied: the number of active VUs (1) must be less than or equal to the number of maxVUs (0)"},
		} {
			if err := c.Scale(tc.vus, tc.maxVUs); err == nil || err.Error() != tc.want {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
			}
		}
		time.Sleep(time.Second) // a second of synctest's fake clock
		if got := log.since(); !slices.Equal(got, []int64{1}) || c.Stats().Initialised.Load() != 4 {
			t.Errorf("after refused changes VUs %v ran, %d owned; want only VU 1, 4 owned", got, c.Stats().Initialised.Load())
		}
	})
}

// Counts set before the start apply at it; a pause is refused until then,
// and every change once the scenario has ended.
func TestExternallyControlledBeforeAndAfter(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		log := &vuLog{}
		env, _ := testEnv(external(0, 2, time.Second), 2, log.iterate(10*time.Millisecond))
		ex, err := New(env)
		if err != nil {
			t.Fatal(err)
		}
		c := ex.(Controlled)
		if err := c.SetPaused(true); err == nil || !strings.Contains(err.Error(), "before it has started") {
			t.Errorf("pause before the start: %v", err)
		}
		if err := c.Scale(n(2), nil); err != nil {
			t.Fatal(err)
		}
		if err := c.Run(context.Background(), time.Now()); err != nil {
			t.Fatal(err)
		}
		if got := log.since(); !slices.Equal(got, []int64{1, 2}) {
			t.Errorf("VUs %v ran, want the 2 set before the start", got)
		}
		if err := c.Scale(n(1), nil); err == nil || !strings.Contains(err.Error(), `"ext" has ended`) {
			t.Errorf("scale after the end: %v", err)
		}
		if err := c.SetPaused(true); err == nil {
			t.Error("a pause after the end succeeded")
		}
	})
}

// A pause lets the iterations in flight finish and returns once they
// have; the scenario's duration does not count the paused time; at its end
// the iterations in flight are interrupted, with no graceful stop.
func TestExternallyControlledPause(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		log := &vuLog{}
		env, _ := testEnv(external(2, 2, time.Second), 2, log.iterate(100*time.Millisecond))
		ex, err := New(env)
		if err != nil {
			t.Fatal(err)
		}
		c := ex.(Controlled)
		start := time.Now()
		ended := make(chan time.Duration)
		go func() {
			_ = c.Run(context.Background(), start)
			ended <- time.Since(start)
		}()
		time.Sleep(550 * time.Millisecond) // synctest's fake clock: mid-way through the 6th iteration
		if err := c.SetPaused(true); err != nil {
			t.Fatal(err)
		}
		st := c.Stats()
		if el := time.Since(start); el != 600*time.Millisecond || st.Interrupted.Load() != 0 || st.Active.Load() != 0 {
			t.Errorf("pause returned at %s with %d interrupted, %d active; want 600ms (the iterations' end), 0, 0",
				el, st.Interrupted.Load(), st.Active.Load())
		}
		log.since()
		time.Sleep(2 * time.Second) // two seconds of synctest's fake clock, paused
		if got := log.since(); len(got) != 0 {
			t.Errorf("VUs %v ran while paused", got)
		}
		if err := c.SetPaused(false); err != nil {
			t.Fatal(err)
		}
		// 1s of running plus the pause, from the request at 550ms to the
		// resume at 2600ms.
		if el := <-ended; el != 3050*time.Millisecond {
			t.Errorf("the scenario ended at %s, want 3.05s", el)
		}
		// The iterations started at 3s were interrupted at 3.05s.
		if i := st.Interrupted.Load(); i != 2 {
			t.Errorf("%d iterations interrupted at the end, want 2", i)
		}
	})
}

// Its plan reserves maxVUs, this instance's share of them, with no
// graceful stop, and says so in the banner.
func TestExternallyControlledPlan(t *testing.T) {
	t.Parallel()
	p := PlanOf(external(1, 4, 0))
	if p.PreVUs != 4 || p.MaxVUs != 4 || p.Duration != 0 || p.GracefulStop != 0 ||
		p.Description != "Externally controlled execution with 1 VUs, 4 max VUs, infinite duration (scaled over the REST API)" {
		t.Errorf("plan = %+v", p)
	}
	env, _ := testEnv(external(2, 4, time.Minute), 2, nil)
	env.Segment = oddOnly{}
	ex, err := New(env)
	if err != nil {
		t.Fatal(err)
	}
	if p := ex.Plan(); p.PreVUs != 2 || !strings.Contains(p.Description, "1 VUs, 2 max VUs, 1m0s duration") {
		t.Errorf("segment's plan = %+v, want half of the VUs", p)
	}
}
