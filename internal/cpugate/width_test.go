package cpugate

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// TestWidthPolicy walks the policy through light, busy, waiting and
// collecting windows. A window is judged when the next one arrives: a
// slot goes after narrowAfter light windows (on average) without a wait
// over a millisecond, comes back after two busy windows or one long wait,
// none goes during the hold after one came; a window in which the
// collector ran, the one before it and the one after it count for
// nothing.
func TestWidthPolicy(t *testing.T) {
	p := widthPolicy{widenLatency: time.Millisecond, widenBusy: 0.7, narrowBusy: 0.8, narrowAfter: 3, holdAfterWiden: 4}
	const us = time.Microsecond
	steps := []struct {
		name  string
		used  float64
		lat   time.Duration
		gc    bool
		procs int // the width after the window
	}{
		{"light", 1.0, 50 * us, false, 3},
		{"light", 1.0, 50 * us, false, 3},
		{"light, the third judged: one slot fewer (under 80 % of two)", 1.0, 50 * us, false, 2},
		{"light", 0.5, 50 * us, false, 2},
		{"a collection: this window and the one before left out", 0.5, 50 * us, true, 2},
		{"after the collection: left out too", 0.5, 50 * us, false, 2},
		{"light", 0.5, 50 * us, false, 2},
		{"light", 0.5, 50 * us, false, 2},
		{"light, the third counted: one slot fewer", 0.5, 50 * us, false, 1},
		{"busy", 0.9, 50 * us, false, 1},
		{"busy, the first judged: not yet", 0.9, 50 * us, false, 1},
		{"busy twice: one more", 0.9, 50 * us, false, 2},
		{"held", 0.1, 50 * us, false, 2},
		{"held", 0.1, 50 * us, false, 2},
		{"held", 0.1, 50 * us, false, 2},
		{"light", 0.1, 50 * us, false, 2},
		{"a wait of 2 ms", 0.1, 2 * time.Millisecond, false, 2},
		{"the wait judged: no slot more, the count starts again", 0.1, 50 * us, false, 2},
		{"light", 0.1, 50 * us, false, 2},
		{"light", 0.1, 50 * us, false, 2},
		{"light, third since the wait: one slot fewer", 0.1, 50 * us, false, 1},
		{"a long wait", 0.1, 5 * time.Millisecond, false, 1},
		{"then a collection: the wait was its start", 0.1, 50 * us, true, 1},
		{"after it", 0.1, 5 * time.Millisecond, false, 1},
		{"the catching up after it is not judged", 0.1, 50 * us, false, 1},
		{"a long wait", 0.1, 5 * time.Millisecond, false, 1},
		{"no collection after it: one more", 0.1, 50 * us, false, 2},
		{"busy and waiting", 2.5, 9 * time.Millisecond, false, 2},
		{"judged: one more", 2.5, 9 * time.Millisecond, false, 3},
		{"no wider than the widest", 2.5, 9 * time.Millisecond, false, 3},
	}
	s := widthState{procs: 3}
	for i, st := range steps {
		s = p.next(s, 3, 3, window{used: st.used, lat99: st.lat, gc: st.gc})
		if s.procs != st.procs {
			t.Fatalf("window %d (%s): width %d, want %d", i, st.name, s.procs, st.procs)
		}
	}
}

// TestWidthBeyondCPUs walks the policy of a one-CPU process (two slots at
// the widest): the slot beyond the CPU goes at the first window judged
// without a long wait, busy windows do not bring it back (it adds no
// CPU), nor does one long wait; two in a row do, held twice as long each
// time they came back during the trial that followed its last hold, and
// for its base hold again once a trial lasted.
func TestWidthBeyondCPUs(t *testing.T) {
	p := widthPolicy{widenLatency: time.Millisecond, widenBusy: 0.7, narrowBusy: 0.8, narrowAfter: 3,
		holdAfterWiden: 2, trialWindows: 8, maxHoldShift: 2}
	const us = time.Microsecond
	light := window{used: 0.3, lat99: 50 * us}
	busy := window{used: 0.95, lat99: 50 * us}
	wait := window{used: 0.5, lat99: 5 * time.Millisecond}
	steps := []struct {
		name  string
		w     window
		procs int
	}{
		{"the first window judged: the slot beyond the CPU goes on trial", light, 1},
		{"busy", busy, 1},
		{"busy twice: no slot beyond the CPU for that", busy, 1},
		{"a long wait during the trial", wait, 1},
		{"one long wait judged: nothing", light, 1},
		{"a long wait", wait, 1},
		{"and another", wait, 1},
		{"two in a row judged: the slot back, held for 2 × 2 windows", light, 2},
		{"held", light, 2}, {"held", light, 2}, {"held", light, 2},
		{"the hold is over: on trial again", light, 1},
		{"a long wait during that trial", wait, 1},
		{"and another", wait, 1},
		{"judged: back for 2 × 4 windows (two doublings at most)", light, 2},
		{"held", light, 2}, {"held", light, 2}, {"held", light, 2}, {"held", light, 2},
		{"held", light, 2}, {"held", light, 2}, {"held", light, 2},
		{"on trial again", light, 1},
		{"light", light, 1}, {"light", light, 1}, {"light", light, 1}, {"light", light, 1},
		{"light", light, 1}, {"light", light, 1}, {"light", light, 1},
		{"the trial lasted", light, 1},
		{"a long wait after it", wait, 1},
		{"and another", wait, 1},
		{"judged: back for the base hold of 2", light, 2},
		{"held", light, 2},
		{"on trial", light, 1},
	}
	s := widthState{procs: 2}
	for i, st := range steps {
		s = p.next(s, 2, 1, st.w)
		if s.procs != st.procs {
			t.Fatalf("window %d (%s): width %d, want %d", i, st.name, s.procs, st.procs)
		}
	}

	// On two CPUs, busy windows add the second slot but not the third.
	s = widthState{procs: 1}
	for i, want := range []int{1, 1, 2, 2, 2} {
		if s = p.next(s, 3, 2, window{used: 1.9, lat99: 50 * us}); s.procs != want {
			t.Fatalf("two CPUs, busy window %d: width %d, want %d", i, s.procs, want)
		}
	}
}

// TestCollectorSlotNeedsTwoCPUs keeps the collector's second slot to
// processes that have a second CPU for it.
func TestCollectorSlotNeedsTwoCPUs(t *testing.T) {
	for _, c := range []struct {
		max, cpus, want int
		on              bool
	}{
		{3, 2, 2, true}, {3, 2, 1, false}, {2, 1, 1, true}, {1, 1, 1, true},
	} {
		w := &Width{max: c.max, cpus: c.cpus}
		if got := w.withCollector(1, c.on); got != c.want {
			t.Errorf("widest %d on %d CPUs, slot on %v: width %d, want %d", c.max, c.cpus, c.on, got, c.want)
		}
	}
}

// TestGCPercent checks the collector's goal kept above the floor: GOGC
// rises for a small live heap so that its goal reaches the floor, and
// stays at its base for a heap whose goal is above it already.
func TestGCPercent(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 100},             // no collection yet
		{4 * mb, 700},        // 4 MB live, goal 32 MB
		{10 * mb, 220},       // goal 32 MB
		{16 * mb, 100},       // goal 32 MB at GOGC's 100
		{200 * mb, 100},      // well above
		{heapFloor - 1, 100}, // never below the base
	} {
		if got := gcPercent(c.live, heapFloor, 100); got != c.want {
			t.Errorf("live %d bytes: GOGC %d, want %d", c.live, got, c.want)
		}
		if got := gcPercent(c.live, heapFloor, 100); c.live > 0 && c.live*uint64(100+got)/100 < heapFloor {
			t.Errorf("live %d bytes at GOGC %d: goal under the floor", c.live, got)
		}
	}
}

// TestWidthFollowsLoad runs the governor on this process: idle, it
// narrows to one slot, and raises GOGC so that the test's small heap has
// a goal of heapFloor; with goroutines spinning it widens back to its
// widest; stopped, it gives the widest and GOGC's 100 back.
func TestWidthFollowsLoad(t *testing.T) {
	t.Setenv("GOGC", "") // the floor acts unless the user set GOGC
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	p := defaultWidth
	p.every, p.narrowAfter, p.holdAfterWiden = 5*time.Millisecond, 3, 3
	runtime.GC() // a live heap to size the goal by
	debug.SetGCPercent(100)
	w := governWidth(p, 3, nil)
	if g := gogc(); g <= 100 {
		t.Errorf("as the governor starts: GOGC %d, want the small heap's goal raised to the floor at once", g)
	}
	eventually.True(t, "an idle process runs on one slot", func() bool { return runtime.GOMAXPROCS(0) == 1 })
	var stop atomic.Bool
	defer stop.Store(true)
	for range 3 {
		go func() {
			for !stop.Load() {
				spinAWhile()
			}
		}()
	}
	eventually.True(t, "three spinning goroutines get three slots", func() bool { return runtime.GOMAXPROCS(0) == 3 })
	stop.Store(true)
	eventually.True(t, "the slots narrow again once the spinning stopped", func() bool { return runtime.GOMAXPROCS(0) < 3 })
	w.Stop()
	if n := runtime.GOMAXPROCS(0); n != 3 {
		t.Errorf("after Stop: GOMAXPROCS %d, want the widest, 3", n)
	}
	if g := gogc(); g != 100 {
		t.Errorf("after Stop: GOGC %d, want 100", g)
	}
}

// gogc returns the collector's GOGC.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// spinAWhile burns a little CPU.
func spinAWhile() {
	x := 0
	for i := range 100_000 {
		x += i
	}
	sink.Add(int64(x))
}

var sink atomic.Int64

// TestCollectorDue predicts a collection from the heap's share of its
// runway and the allocation rate: due when one and a half windows of
// allocation take the heap to the trigger (70 % of the runway, or where
// the last cycle started), not before.
func TestCollectorDue(t *testing.T) {
	const mb = 1 << 20
	every := 100 * time.Millisecond
	cases := []struct {
		name string
		w    window
		want bool
	}{
		{"just collected", window{live: 10 * mb, heap: 11 * mb, goal: 30 * mb, allocRate: 50 * mb}, false},
		{"due within the next window", window{live: 10 * mb, heap: 17 * mb, goal: 30 * mb, allocRate: 50 * mb}, true},      // 7 + 7.5 ≥ 14
		{"a slow allocator is not due yet", window{live: 10 * mb, heap: 16 * mb, goal: 30 * mb, allocRate: 5 * mb}, false}, // 6 + 0.75 < 14
		{"at the earliest trigger", window{live: 10 * mb, heap: 24 * mb, goal: 30 * mb}, true},                             // 14 ≥ 14
		{"no runway", window{live: 30 * mb, heap: 31 * mb, goal: 30 * mb, allocRate: 50 * mb}, false},
		{"heap below the live heap (swept while read)", window{live: 10 * mb, heap: 9 * mb, goal: 30 * mb, allocRate: 500 * mb}, false},
	}
	for _, c := range cases {
		if got := collectorDue(c.w, every, earliestTrigger); got != c.want {
			t.Errorf("%s: collectorDue = %v, want %v", c.name, got, c.want)
		}
	}
	late := window{live: 10 * mb, heap: 24 * mb, goal: 30 * mb} // 70 % of the runway
	if collectorDue(late, every, 0.85) {
		t.Error("due at 70 % of the runway with the trigger at 85 %")
	}
	late.heap = 27 * mb
	if !collectorDue(late, every, 0.85) {
		t.Error("not due at 85 % of the runway with the trigger there")
	}
}

// TestCollectorSlotLearnsTrigger takes the slot near where the last cycle
// started, not at the earliest trigger, and never below it.
func TestCollectorSlotLearnsTrigger(t *testing.T) {
	const mb = 1 << 20
	every := 100 * time.Millisecond
	at := func(heap uint64, cycles uint64) window {
		return window{used: 0.5, live: 10 * mb, heap: heap, goal: 30 * mb, cycles: cycles}
	}
	var c collectorSlot
	start := at(11*mb, 8)
	start.started, start.startShare = true, 0.9
	if c.keep(start, every) {
		t.Fatal("slot taken just after a cycle")
	}
	if got := c.trigger(); got < 0.849 || got > 0.851 {
		t.Fatalf("trigger %.3f after a cycle started at 90 %%, want 85 %%", got)
	}
	if c.keep(at(25*mb, 8), every) { // 75 %
		t.Fatal("slot taken at 75 % of the runway, the last cycle started at 90 %")
	}
	if !c.keep(at(27*mb, 8), every) { // 85 %
		t.Fatal("slot not taken at 85 % of the runway")
	}
	if c.keep(at(11*mb, 9), every) {
		t.Fatal("slot kept after the cycle completed")
	}
	early := at(11*mb, 9)
	early.started, early.startShare = true, 0.3 // a forced collection
	c.keep(early, every)
	if got := c.trigger(); got != earliestTrigger {
		t.Fatalf("trigger %.2f after a cycle started at 30 %%, want the earliest, %.2f", got, earliestTrigger)
	}
}

// TestCycleWatch follows cycles by their pauses: one at the start, one
// at the end, a cycle running while the pauses are odd in number.
func TestCycleWatch(t *testing.T) {
	c := cycleWatch{pauses: 10}
	steps := []struct {
		name            string
		pauses, cycles  uint64
		worked, started bool
	}{
		{"quiet", 10, 5, false, false},
		{"a cycle starts", 11, 5, true, true},
		{"it runs through the window", 11, 5, true, false},
		{"it ends", 12, 6, true, false},
		{"quiet", 12, 6, false, false},
		{"one starts and ends in a window", 14, 7, true, true},
		{"one starts", 15, 7, true, true},
		{"it ends and the next starts", 17, 8, true, true},
		{"that one ends", 18, 9, true, false},
		{"quiet", 18, 9, false, false},
	}
	for _, st := range steps {
		worked, started := c.observe(st.pauses, st.cycles)
		if worked != st.worked || started != st.started {
			t.Fatalf("%s: worked %v started %v, want %v %v", st.name, worked, started, st.worked, st.started)
		}
	}
}

// TestSampleSeesCollection sees a collection in the window it ran in,
// with its start.
func TestSampleSeesCollection(t *testing.T) {
	var s loadSampler
	s.sample()
	runtime.GC()
	if w := s.sample(); !w.gc || !w.started {
		t.Errorf("window with a collection: gc %v started %v, want both", w.gc, w.started)
	}
}

// TestCollectorSlot takes the slot when a collection is due and the
// goroutines are busy enough, keeps it until one more cycle completed,
// and never takes it for an idle process.
func TestCollectorSlot(t *testing.T) {
	const mb = 1 << 20
	every := 100 * time.Millisecond
	due := window{used: 0.5, live: 10 * mb, heap: 25 * mb, goal: 30 * mb, cycles: 7}
	var c collectorSlot
	if c.keep(window{used: 0.5, live: 10 * mb, heap: 12 * mb, goal: 30 * mb, cycles: 7}, every) {
		t.Fatal("slot taken with no collection due")
	}
	idle := due
	idle.used = collectorSlotBusy / 2
	if c.keep(idle, every) {
		t.Fatal("slot taken for goroutines using a sixth of a slot")
	}
	if !c.keep(due, every) {
		t.Fatal("slot not taken for a due collection of a busy process")
	}
	running := due
	running.used = 0.1 // a quiet window while the cycle runs keeps the slot
	if !c.keep(running, every) {
		t.Fatal("slot given back before the cycle completed")
	}
	done := window{used: 0.5, live: 10 * mb, heap: 11 * mb, goal: 30 * mb, cycles: 8}
	if c.keep(done, every) {
		t.Fatal("slot kept after the cycle completed")
	}
}
