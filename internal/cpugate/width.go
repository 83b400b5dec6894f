package cpugate

import (
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"time"
)

// widthPolicy is when Width adds and takes away scheduler slots.
type widthPolicy struct {
	// every is the window over which the load is judged.
	every time.Duration
	// widenLatency is the scheduling latency (the window's 99th
	// percentile of how long runnable goroutines waited for a slot) that,
	// four times over in a window, adds a slot, and that no window may
	// exceed for a slot to be taken away. Shorter waits come and go
	// whatever the width (the operating system's scheduling, timers): a
	// wider runner measured no better send and read lags for them.
	widenLatency time.Duration
	// widenBusy is the share of the slots' time the process's CPU use
	// reaches, two windows in a row, above which a slot is added.
	widenBusy float64
	// narrowBusy is the share of one slot fewer that the CPU use must stay
	// under on average over narrowAfter windows in a row, each with a
	// scheduling latency at most widenLatency, before a slot is taken
	// away. The same work takes less CPU on fewer slots (an idle slot
	// costs a thread's wake-up per runnable goroutine): what one slot
	// fewer would use is less than what the slots use now.
	narrowBusy  float64
	narrowAfter int
	// holdAfterWiden is how many windows no slot is taken away after one
	// was added: a load that needs the slot now and then keeps it.
	holdAfterWiden int
	// A slot beyond the process's CPUs adds no CPU: it only lets the
	// operating system interleave a goroutine that holds its slot long
	// (JavaScript computing) with the ones waiting, at the price of the
	// threads' switches and the idle slot's searches — the same work took
	// a quarter more CPU on two slots than on one on a single CPU. It is
	// added on long waits alone, two windows in a row (a goroutine holding
	// its slot holds it window after window; a single one is the machine's
	// hiccup, which no slot helps), and given up on trial once its hold is
	// over; long waits within trialWindows after the trial add it back for
	// twice the hold as last time (up to maxHoldShift doublings), and a
	// trial that lasted resets the hold.
	trialWindows int
	maxHoldShift int
}

// defaultWidth is the runner's policy: 100 ms windows; a slot added when
// the slots are 70 % busy two windows in a row or goroutines waited over
// 4 ms in one, taken away after a second without a wait over 1 ms that
// used under 80 % of one slot fewer on average, and not for 3 s after one
// was added. The slot beyond the CPUs comes on waits alone, two windows
// in a row, and goes on trial after its hold; back within 2 s, it stays
// twice as long, up to 3 s × 2⁴. Windows in which the collector ran are
// left out: it borrows idle slots and stops goroutines, whatever the
// width.
var defaultWidth = widthPolicy{
	every: 100 * time.Millisecond, widenLatency: time.Millisecond, widenBusy: 0.7,
	narrowBusy: 0.8, narrowAfter: 10, holdAfterWiden: 30,
	trialWindows: 20, maxHoldShift: 4,
}

// window is what the policy saw of one window.
type window struct {
	used  float64       // cores the process used
	lat99 time.Duration // the 99th percentile of goroutines' scheduling latency
	// gc says the collector worked in the window: a cycle started, ran or
	// ended in it (its stop-the-world pauses, one at each end, say so at
	// once; its CPU is counted only when the cycle ends).
	gc bool
	// started says a cycle started in the window; startShare is then the
	// heap's share of its runway at the window's start, just below the
	// trigger Go's pacer chose.
	started    bool
	startShare float64
	// live is the heap the last collection found live, in bytes.
	live uint64
	// heap is what the next collection's trigger compares: the bytes of
	// the objects not swept yet, live or not. goal is the heap size the
	// collector aims the next cycle at; allocRate the bytes allocated per
	// second over the window; cycles the collections completed so far.
	heap, goal uint64
	allocRate  float64
	cycles     uint64
}

// earliestTrigger is the share of its runway (the bytes between the live
// heap and the goal) the heap may grow by before Go's collector starts a
// cycle, at the earliest: its pacer triggers between 70 % and 95 % of
// the runway. Where in between depends on the load (a process whose
// goroutines allocate slowly gets a late trigger), so the slot learns it
// from the cycles it saw start (collectorSlot.trigger).
const earliestTrigger = 0.7

// triggerMargin is how far below the share at which the last cycle
// started a collection is already due: the pacer moves its trigger from
// cycle to cycle.
const triggerMargin = 0.05

// collectorDue reports whether the next collection may start before the
// window after next begins: the heap, growing at the window's rate for
// one and a half windows of every, reaches trigger, the share of its
// runway at which a cycle is expected to start.
func collectorDue(w window, every time.Duration, trigger float64) bool {
	if w.goal <= w.live || w.heap < w.live {
		return false
	}
	runway := float64(w.goal - w.live)
	grown := float64(w.heap-w.live) + w.allocRate*1.5*every.Seconds()
	return grown >= trigger*runway
}

// widthState is what the policy remembers between windows.
type widthState struct {
	procs int
	calm  int     // windows in a row without goroutines waiting
	used  float64 // the cores used in those windows, summed
	hold  int     // windows left before narrowing is allowed again
	// trial counts the windows since the slot beyond the CPUs was given
	// up on trial (0: no trial under way); shift is how many times its
	// hold doubled.
	trial, shift int
	// The two windows before the latest: a window is judged once the one
	// after it showed no collection (a cycle's CPU is counted at its end,
	// so the window before may hold its start).
	prev, prev2 window
}

// next takes the latest window and judges the one before it, and returns
// the state with the width to run the next window at, between 1 and
// widest, on a process of cpus CPUs. A slot is added on a signal that held
// two windows in a row, or on a long wait in one (the slot beyond the
// CPUs on long waits in two); windows in which the collector ran are left
// out, and so is the one after each, in which the goroutines that waited
// for the cycle's mark catch up.
func (p widthPolicy) next(s widthState, widest, cpus int, w window) widthState {
	s.hold = max(s.hold-1, 0)
	if s.trial > 0 {
		if s.trial++; s.trial > p.trialWindows {
			s.trial, s.shift = 0, 0 // the trial lasted
		}
	}
	cur, before := s.prev, s.prev2
	s.prev2, s.prev = cur, w
	if w.gc || cur.gc || before.gc {
		return s // left out, with the light windows counted so far
	}
	slots := float64(s.procs)
	busy := func(x window) bool { return x.used > p.widenBusy*slots }
	twice := func(f func(window) bool) bool { return f(before) && f(cur) }
	long := func(x window) bool { return x.lat99 > 4*p.widenLatency }
	waited := long(cur)
	switch {
	case s.procs < widest && s.procs >= cpus && twice(long):
		return p.oversubscribe(s, w)
	case s.procs < widest && s.procs < cpus && (waited || twice(busy)):
		return widthState{procs: s.procs + 1, hold: p.holdAfterWiden, prev: w}
	case s.procs > cpus && s.hold == 0 && !waited:
		return widthState{procs: s.procs - 1, trial: 1, shift: s.shift, prev: w}
	case s.procs > 1 && s.hold == 0 && cur.lat99 <= p.widenLatency:
		s.calm, s.used = s.calm+1, s.used+cur.used
		if s.calm < p.narrowAfter {
			return s
		}
		if s.used/float64(s.calm) < p.narrowBusy*(slots-1) {
			return widthState{procs: s.procs - 1, trial: s.trial, shift: s.shift, prev: w}
		}
	}
	s.calm, s.used = 0, 0
	return s
}

// oversubscribe adds the slot beyond the CPUs after long waits: held for
// holdAfterWiden windows, twice as long as last time when the waits came
// back during a trial.
func (p widthPolicy) oversubscribe(s widthState, w window) widthState {
	shift := 0
	if s.trial > 0 {
		shift = min(s.shift+1, p.maxHoldShift)
	}
	return widthState{procs: s.procs + 1, hold: p.holdAfterWiden << shift, shift: shift, prev: w}
}

// Width adapts the process's GOMAXPROCS to its load, between 1 and the
// width it started at. Every idle scheduler slot costs CPU: each time a
// goroutine becomes runnable Go's scheduler wakes a thread to look for
// work for the idle slots, which at a thousand requests per second is
// most of a runner's CPU. A slot is added when the slots are busy two
// windows in a row or goroutines waited long in one, and taken away after
// defaultWidth's second of light load; a slot beyond the CPUs comes on
// long waits alone and goes on trial after its hold (widthPolicy).
// Meanwhile it keeps the collector's goal at or above heapFloor (gcFloor):
// a small heap collected many times a second leaves few windows to judge
// the slots by, and costs CPU.
type Width struct {
	max    int
	cpus   int // the CPUs the process may use: slots beyond them oversubscribe
	policy widthPolicy
	log    io.Writer
	floor  *gcFloor
	stop   chan struct{}
	done   chan struct{}
}

// GovernWidth starts adapting GOMAXPROCS, from its current value as the
// widest, to the load; log, when not nil, gets one line per window (a
// diagnostic). Stop ends it.
func GovernWidth(log io.Writer) *Width {
	return governWidth(defaultWidth, startProcs, log)
}

// governWidth is GovernWidth with a policy, on a process of cpus CPUs.
func governWidth(p widthPolicy, cpus int, log io.Writer) *Width {
	w := &Width{max: runtime.GOMAXPROCS(0), cpus: cpus, policy: p, log: log, floor: newGCFloor(), stop: make(chan struct{}), done: make(chan struct{})}
	// The heap floor holds before the first iteration starts: the VUs'
	// first iterations (a connection each, modules built on first use)
	// come together, when a collection every few megabytes would take the
	// slots they need.
	var s loadSampler
	w.floor.follow(s.sample().live)
	go w.run(&s)
	return w
}

// Stop ends the adaptation and gives the process its widest GOMAXPROCS
// back. A nil Width does nothing.
func (w *Width) Stop() {
	if w == nil {
		return
	}
	close(w.stop)
	<-w.done
	runtime.GOMAXPROCS(w.max)
	w.floor.restore()
}

// run judges each window, from the first sample s took, and sets the
// width: the policy's, and at least two slots while a collection is due
// or running (collectorSlot) on a process of two CPUs or more — on one,
// the second slot would only double the cycle's CPU (its mark workers
// taking turns on the one CPU) and leave the goroutines less of it.
func (w *Width) run(s *loadSampler) {
	defer close(w.done)
	tick := time.NewTicker(w.policy.every)
	defer tick.Stop()
	st := widthState{procs: w.max}
	procs := w.max
	var slot collectorSlot
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
		}
		win := s.sample()
		w.floor.follow(win.live)
		next := w.policy.next(st, w.max, w.cpus, win)
		want := w.withCollector(next.procs, slot.keep(win, w.policy.every))
		if w.log != nil {
			fmt.Fprintf(w.log, "%.3f width %d used %.3f lat99 %v gc %v heap %.2f trigger %.2f -> %d\n", float64(time.Now().UnixMilli())/1e3, procs, win.used, win.lat99, win.gc, runwayShare(win), slot.trigger(), want)
		}
		if want != procs {
			runtime.GOMAXPROCS(want)
			procs = want
		}
		st = next
	}
}

// withCollector returns the width want, raised to two slots while the
// collector's slot is on, where the process has two CPUs or more (and
// may run two slots).
func (w *Width) withCollector(want int, on bool) int {
	if on && w.max >= 2 && w.cpus >= 2 {
		return max(want, 2)
	}
	return want
}

// loadSampler reads the process's CPU time and the runtime's scheduling
// latencies, and returns what changed since the last sample.
type loadSampler struct {
	at      time.Time
	cpu     time.Duration
	samples []metrics.Sample
	counts  []uint64
	gcCPU   float64 // the collector's CPU seconds so far
	allocs  uint64  // the bytes allocated so far
	cycles  cycleWatch
	share   float64 // the heap's share of its runway at the last sample
}

// sample returns the window since the last sample: the cores the process
// used, the 99th percentile of its goroutines' scheduling latency, and
// whether the collector worked: a cycle started, ran or ended (cycleWatch),
// or it took more than 5 ms of CPU.
func (s *loadSampler) sample() (w window) {
	now := time.Now()
	cpu, _ := ProcessCPU()
	if s.samples == nil {
		s.samples = []metrics.Sample{{Name: "/sched/latencies:seconds"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/gc/heap/live:bytes"},
			{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/goal:bytes"}, {Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/cycles/total:gc-cycles"},
			{Name: "/sched/pauses/total/gc:seconds"}}
	}
	metrics.Read(s.samples)
	h := s.samples[0].Value.Float64Histogram()
	gcCPU := s.samples[1].Value.Float64()
	w.live, w.heap, w.goal = s.samples[2].Value.Uint64(), s.samples[3].Value.Uint64(), s.samples[4].Value.Uint64()
	allocs := s.samples[5].Value.Uint64()
	w.cycles = s.samples[6].Value.Uint64()
	worked, started := s.cycles.observe(histogramCount(s.samples[7].Value.Float64Histogram()), w.cycles)
	if s.counts != nil {
		if wall := now.Sub(s.at); wall > 0 {
			w.used = float64(cpu-s.cpu) / float64(wall)
			w.allocRate = float64(allocs-s.allocs) / wall.Seconds()
		}
		w.lat99 = percentile(h, s.counts, 0.99)
		w.gc = gcCPU-s.gcCPU > 0.005 || worked
		if w.started = started; started {
			w.startShare = s.share
		}
	}
	s.at, s.cpu, s.gcCPU, s.allocs, s.share = now, cpu, gcCPU, allocs, runwayShare(w)
	s.counts = append(s.counts[:0], h.Counts...)
	return w
}

// cycleWatch follows the collector's cycles by its stop-the-world
// pauses: a cycle stops the world once as it starts and once as its mark
// ends, so while one runs the pauses number one more than twice the
// cycles completed. The pause at a cycle's start is counted at once; its
// CPU only when it ends.
type cycleWatch struct {
	pauses  uint64 // the pauses at the last observation
	running bool   // a cycle was running then
}

// observe takes the collector's pauses and completed cycles so far and
// reports whether a cycle started, ran or ended since the last
// observation (worked), and whether one started (started).
func (c *cycleWatch) observe(pauses, cycles uint64) (worked, started bool) {
	ends := uint64(0)
	if c.running {
		ends = 1 // the pause that ends the cycle that was running
	}
	worked = pauses != c.pauses || c.running
	started = pauses > c.pauses+ends
	c.pauses, c.running = pauses, pauses > 2*cycles
	return worked, started
}

// histogramCount returns how many observations h holds.
func histogramCount(h *metrics.Float64Histogram) uint64 {
	var n uint64
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// percentile returns the upper bound of the bucket holding quantile q of
// the observations h counted since prev (at most a second: the last
// bucket is unbounded).
func percentile(h *metrics.Float64Histogram, prev []uint64, q float64) time.Duration {
	var total uint64
	for i, c := range h.Counts {
		total += c - prev[i]
	}
	if total == 0 {
		return 0
	}
	want := uint64(q*float64(total)) + 1
	var seen uint64
	for i, c := range h.Counts {
		if seen += c - prev[i]; seen >= want {
			return time.Duration(min(h.Buckets[i+1], 1) * float64(time.Second))
		}
	}
	return 0
}

// collectorSlot keeps a second scheduler slot from shortly before a
// collection starts until it ended. On one slot a cycle's mark (a fourth of
// the slot for its background worker, plus the assists the allocating
// goroutines owe) leaves the goroutines too little of it for tens of
// milliseconds, and the requests in flight wait: at 4,000 requests/s the
// marks that came late drained the VUs and dropped iterations. Go starts a
// cycle when the heap crossed a trigger between 70 % and 95 % of its
// runway, which the window's allocation rate predicts a window ahead.
//
// The trigger is learnt: a slot taken at 70 % while the pacer waits until
// 87 % (a probe reading 1,000 streams a second allocates slowly) ran two
// slots for seconds before each cycle, and a second slot costs CPU
// (Width). Each cycle seen starting sets the trigger to the share the heap
// had reached just before, less triggerMargin, and never below 70 %.
type collectorSlot struct {
	on    bool
	until uint64 // the cycle count that ends it: one more than when it began
	// started is the share of its runway the heap had reached when the
	// last cycle seen started; 0 before the first.
	started float64
}

// trigger is the share of its runway at which the next cycle is
// expected to start.
func (c *collectorSlot) trigger() float64 {
	return max(earliestTrigger, c.started-triggerMargin)
}

// collectorSlotBusy is the share of one slot the goroutines must use for
// a collection to get a slot of its own: below it, the quarter of the
// slot the collector takes leaves them enough.
const collectorSlotBusy = 0.3

// keep reports whether the slot is kept after the window w: taken when a
// collection is due and the goroutines used at least collectorSlotBusy of
// a slot, given back once a cycle more completed.
func (c *collectorSlot) keep(w window, every time.Duration) bool {
	if w.started {
		c.started = w.startShare
	}
	switch {
	case c.on && w.cycles >= c.until:
		c.on = false
	case !c.on && w.used >= collectorSlotBusy && collectorDue(w, every, c.trigger()):
		c.on, c.until = true, w.cycles+1
	}
	return c.on
}

// runwayShare is how much of its runway the heap has grown by, for the
// diagnostic log.
func runwayShare(w window) float64 {
	if w.goal <= w.live || w.heap < w.live {
		return 0
	}
	return float64(w.heap-w.live) / float64(w.goal-w.live)
}
