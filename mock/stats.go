package mock

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// Stats is a snapshot of a server's counters, for load tests of the mock
// itself: lateness is how long after its scheduled time an event was
// written, so a high LateP99 means the mock, not the system it simulates,
// is slow. Events and lateness are counted per stream and added to the
// server's counters when the stream ends.
type Stats struct {
	// Requests counts the chat requests received, streamed or whole (bad
	// ones included).
	Requests int64
	// Active is the number of streams in progress, queued ones included.
	Active int64
	// Queued is the number of requests waiting for a tenant or model slot.
	Queued int64
	// Events counts the events written (heartbeats included).
	Events int64
	// LateP50, LateP99 and LateMax are the median, 99th percentile and
	// maximum of the events' send lateness (resolution 12.5 %).
	LateP50, LateP99, LateMax time.Duration
}

// lateBuckets is the number of buckets of the lateness histogram: 8 linear
// buckets below 8 µs, then 8 per power of two up to 2^40 µs.
const lateBuckets = 8 + 37*8

// stats are a server's live counters.
type stats struct {
	requests, active, queued, events atomic.Int64
	late                             [lateBuckets]atomic.Uint32
	lateMax                          atomic.Int64
}

// lateBucket returns the bucket of a lateness of us microseconds:
// us < 8 → us; else with e = bitlen(us) − 4, 8 + 8e + (us>>e − 8).
func lateBucket(us uint64) int {
	if us < 8 {
		return int(us)
	}
	e := bits.Len64(us) - 4
	i := 8 + 8*e + int(us>>e) - 8
	return min(i, lateBuckets-1)
}

// lateUpper returns the upper bound of bucket i, in microseconds.
func lateUpper(i int) uint64 {
	if i < 8 {
		return uint64(i) + 1
	}
	e := (i - 8) / 8
	return uint64((i-8)%8+9) << e
}

// streamStats are one stream's own counters, merged into the server's once
// the stream ends, so that sending an event writes no shared memory.
type streamStats struct {
	events  int64
	lateMax time.Duration
	lo, hi  int // range of late buckets in use
	late    [lateBuckets]uint32
}

// sent records one written event and its lateness.
func (l *streamStats) sent(late time.Duration) {
	late = max(late, 0)
	i := lateBucket(uint64(late / time.Microsecond))
	if l.events == 0 || i < l.lo {
		l.lo = i
	}
	l.hi = max(l.hi, i)
	l.late[i]++
	l.events++
	l.lateMax = max(l.lateMax, late)
}

// merge adds a stream's counters to the server's.
func (s *stats) merge(l *streamStats) {
	if l.events == 0 {
		return
	}
	s.events.Add(l.events)
	for i := l.lo; i <= l.hi; i++ {
		if n := l.late[i]; n > 0 {
			s.late[i].Add(n)
		}
	}
	for {
		m := s.lateMax.Load()
		if int64(l.lateMax) <= m || s.lateMax.CompareAndSwap(m, int64(l.lateMax)) {
			return
		}
	}
}

// snapshot returns the current Stats.
func (s *stats) snapshot() Stats {
	out := Stats{
		Requests: s.requests.Load(), Active: s.active.Load(), Queued: s.queued.Load(),
		Events: s.events.Load(), LateMax: time.Duration(s.lateMax.Load()),
	}
	var counts [lateBuckets]uint64
	var total uint64
	for i := range s.late {
		counts[i] = uint64(s.late[i].Load())
		total += counts[i]
	}
	quantile := func(q float64) time.Duration {
		want, seen := uint64(q*float64(total)+0.999999), uint64(0)
		for i, n := range counts {
			if seen += n; n > 0 && seen >= want {
				return min(time.Duration(lateUpper(i))*time.Microsecond, out.LateMax)
			}
		}
		return 0
	}
	out.LateP50, out.LateP99 = quantile(0.5), quantile(0.99)
	return out
}
