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
}

// defaultWidth is the runner's policy: 100 ms windows; a slot added when
// the slots are 70 % busy two windows in a row or goroutines waited over
// 4 ms in one, taken away after a second without a wait over 1 ms that
// used under 80 % of one slot fewer on average, and not for 3 s after one
// was added. Windows in which the collector ran are left out: it borrows
// idle slots and stops goroutines, whatever the width.
var defaultWidth = widthPolicy{
	every: 100 * time.Millisecond, widenLatency: time.Millisecond, widenBusy: 0.7,
	narrowBusy: 0.8, narrowAfter: 10, holdAfterWiden: 30,
}

// window is what the policy saw of one window.
type window struct {
	used  float64       // cores the process used
	lat99 time.Duration // the 99th percentile of goroutines' scheduling latency
	// gc says the collector did work: its CPU is counted when its cycle
	// ends, so the window before may hold the cycle's start.
	gc bool
	// live is the heap the last collection found live, in bytes.
	live uint64
}

// widthState is what the policy remembers between windows.
type widthState struct {
	procs int
	calm  int     // windows in a row without goroutines waiting
	used  float64 // the cores used in those windows, summed
	hold  int     // windows left before narrowing is allowed again
	// The two windows before the latest: a window is judged once the one
	// after it showed no collection (a cycle's CPU is counted at its end,
	// so the window before may hold its start).
	prev, prev2 window
}

// next takes the latest window and judges the one before it, and returns
// the state with the width to run the next window at, between 1 and
// widest. A slot is added on a signal that held two windows in a row, or
// on a long wait in one; windows in which the collector ran are left out.
func (p widthPolicy) next(s widthState, widest int, w window) widthState {
	s.hold = max(s.hold-1, 0)
	cur, before := s.prev, s.prev2
	s.prev2, s.prev = cur, w
	if w.gc || cur.gc {
		return s // left out, with the light windows counted so far
	}
	slots := float64(s.procs)
	busy := func(x window) bool { return x.used > p.widenBusy*slots }
	twice := func(f func(window) bool) bool { return !before.gc && f(before) && f(cur) }
	switch {
	case s.procs < widest && (cur.lat99 > 4*p.widenLatency || twice(busy)):
		return widthState{procs: s.procs + 1, hold: p.holdAfterWiden, prev: w}
	case s.procs > 1 && s.hold == 0 && cur.lat99 <= p.widenLatency:
		s.calm, s.used = s.calm+1, s.used+cur.used
		if s.calm < p.narrowAfter {
			return s
		}
		if s.used/float64(s.calm) < p.narrowBusy*(slots-1) {
			return widthState{procs: s.procs - 1, prev: w}
		}
	}
	s.calm, s.used = 0, 0
	return s
}

// Width adapts the process's GOMAXPROCS to its load, between 1 and the
// width it started at. Every idle scheduler slot costs CPU: each time a
// goroutine becomes runnable Go's scheduler wakes a thread to look for
// work for the idle slots, which at a thousand requests per second is
// most of a runner's CPU. A slot is added when the slots are busy two
// windows in a row or goroutines waited long in one, and taken away after
// defaultWidth's second of light load. Meanwhile it keeps the collector's
// goal at or above heapFloor (gcFloor): a small heap collected many times
// a second leaves few windows to judge the slots by, and costs CPU.
type Width struct {
	max    int
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
	return governWidth(defaultWidth, log)
}

// governWidth is GovernWidth with a policy.
func governWidth(p widthPolicy, log io.Writer) *Width {
	w := &Width{max: runtime.GOMAXPROCS(0), policy: p, log: log, floor: newGCFloor(), stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
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

// run judges each window and sets the width.
func (w *Width) run() {
	defer close(w.done)
	tick := time.NewTicker(w.policy.every)
	defer tick.Stop()
	st := widthState{procs: w.max}
	var s loadSampler
	s.sample()
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
		}
		win := s.sample()
		w.floor.follow(win.live)
		next := w.policy.next(st, w.max, win)
		if w.log != nil {
			fmt.Fprintf(w.log, "width %d used %.3f lat99 %v gc %v -> %d\n", st.procs, win.used, win.lat99, win.gc, next.procs)
		}
		if next.procs != st.procs {
			runtime.GOMAXPROCS(next.procs)
		}
		st = next
	}
}

// loadSampler reads the process's CPU time and the runtime's scheduling
// latencies, and returns what changed since the last sample.
type loadSampler struct {
	at      time.Time
	cpu     time.Duration
	samples []metrics.Sample
	counts  []uint64
	gcCPU   float64 // the collector's CPU seconds so far
}

// sample returns the window since the last sample: the cores the process
// used, the 99th percentile of its goroutines' scheduling latency, and
// whether the collector took more than 5 ms of CPU.
func (s *loadSampler) sample() (w window) {
	now := time.Now()
	cpu, _ := ProcessCPU()
	if s.samples == nil {
		s.samples = []metrics.Sample{{Name: "/sched/latencies:seconds"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/gc/heap/live:bytes"}}
	}
	metrics.Read(s.samples)
	h := s.samples[0].Value.Float64Histogram()
	gcCPU := s.samples[1].Value.Float64()
	w.live = s.samples[2].Value.Uint64()
	if s.counts != nil {
		if wall := now.Sub(s.at); wall > 0 {
			w.used = float64(cpu-s.cpu) / float64(wall)
		}
		w.lat99 = percentile(h, s.counts, 0.99)
		w.gc = gcCPU-s.gcCPU > 0.005
	}
	s.at, s.cpu, s.gcCPU = now, cpu, gcCPU
	s.counts = append(s.counts[:0], h.Counts...)
	return w
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
