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
	// percentile of how long runnable goroutines waited for a slot) above
	// which, in two windows in a row or four times over in one, a slot is
	// added: goroutines, the network's among them, are waiting. (A single
	// window over it is often a garbage collection.)
	widenLatency time.Duration
	// widenBusy is the share of the slots' time the process's CPU use
	// reaches above which a slot is added at once.
	widenBusy float64
	// narrowBusy is the share of one slot fewer that the CPU use must stay
	// under on average over narrowAfter windows in a row, each with a
	// scheduling latency under widenLatency / 2, before a slot is taken
	// away.
	narrowBusy  float64
	narrowAfter int
	// holdAfterWiden is how many windows no slot is taken away after one
	// was added because goroutines waited: a load that needs the slot
	// now and then keeps it.
	holdAfterWiden int
}

// defaultWidth is the runner's policy: 100 ms windows, a slot added when
// goroutines wait over a millisecond (two windows in a row) or the slots
// are 70 % busy, taken away after half a second that used under 40 % of
// one slot fewer on average, and not for 3 s after goroutines waited.
var defaultWidth = widthPolicy{
	every: 100 * time.Millisecond, widenLatency: time.Millisecond, widenBusy: 0.7,
	narrowBusy: 0.4, narrowAfter: 5, holdAfterWiden: 30,
}

// widthState is what the policy remembers between windows.
type widthState struct {
	procs int
	calm  int     // windows in a row without goroutines waiting
	used  float64 // the cores used in those windows, summed
	hold  int     // windows left before narrowing is allowed again
	late  bool    // goroutines waited over widenLatency in the last window
}

// next judges one window in which the process used used cores and its
// goroutines waited lat99 for a slot (99th percentile), and returns the
// state with the width to run the next window at, between 1 and widest.
func (p widthPolicy) next(s widthState, widest int, used float64, lat99 time.Duration) widthState {
	s.hold = max(s.hold-1, 0)
	late := lat99 > p.widenLatency
	switch {
	case s.procs < widest && (late && s.late || lat99 > 4*p.widenLatency):
		return widthState{procs: s.procs + 1, hold: p.holdAfterWiden}
	case s.procs < widest && used > p.widenBusy*float64(s.procs):
		return widthState{procs: s.procs + 1, hold: s.hold}
	case s.procs > 1 && s.hold == 0 && lat99 < p.widenLatency/2:
		s.calm, s.used, s.late = s.calm+1, s.used+used, late
		if s.calm < p.narrowAfter {
			return s
		}
		if s.used/float64(s.calm) < p.narrowBusy*float64(s.procs-1) {
			return widthState{procs: s.procs - 1}
		}
	}
	s.calm, s.used, s.late = 0, 0, late
	return s
}

// Width adapts the process's GOMAXPROCS to its load, between 1 and the
// width it started at. Every idle scheduler slot costs CPU: each time a
// goroutine becomes runnable Go's scheduler wakes a thread to look for
// work for the idle slots, which at a thousand requests per second is
// most of a runner's CPU. A slot is added within one or two windows when
// goroutines wait for one or the slots are busy, and taken away after
// defaultWidth's half second of light load.
type Width struct {
	max    int
	policy widthPolicy
	log    io.Writer
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
	w := &Width{max: runtime.GOMAXPROCS(0), policy: p, log: log, stop: make(chan struct{}), done: make(chan struct{})}
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
		used, lat := s.sample()
		next := w.policy.next(st, w.max, used, lat)
		if w.log != nil {
			fmt.Fprintf(w.log, "width %d used %.3f lat99 %v -> %d\n", st.procs, used, lat, next.procs)
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
}

// sample returns the cores the process used since the last sample and the
// 99th percentile of its goroutines' scheduling latency meanwhile.
func (s *loadSampler) sample() (used float64, lat99 time.Duration) {
	now := time.Now()
	cpu, _ := ProcessCPU()
	if s.samples == nil {
		s.samples = []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	}
	metrics.Read(s.samples)
	h := s.samples[0].Value.Float64Histogram()
	if s.counts != nil {
		if wall := now.Sub(s.at); wall > 0 {
			used = float64(cpu-s.cpu) / float64(wall)
		}
		lat99 = percentile(h, s.counts, 0.99)
	}
	s.at, s.cpu = now, cpu
	s.counts = append(s.counts[:0], h.Counts...)
	return used, lat99
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
