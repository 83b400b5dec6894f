package executor

import "sync/atomic"

// Stats are a scenario's live counters, read by progress and k6/execution.
type Stats struct {
	Completed   atomic.Int64
	Interrupted atomic.Int64
	Dropped     atomic.Int64
	// Active is the number of VUs running an iteration or looping; it
	// changes through activate and deactivate.
	Active atomic.Int64
	// peak is the highest Active since the last TakePeak.
	peak atomic.Int64
	// Initialised is the number of VUs the scenario owns.
	Initialised atomic.Int64
	// Released is the number of VUs the scenario initialised and gave up
	// (externally-controlled, when its maxVUs is lowered and at its end).
	Released atomic.Int64
	// StartedAt is the unix nanosecond start time; 0 before the start.
	StartedAt atomic.Int64
	// Done is set when the scenario finished.
	Done atomic.Bool
}

// count records an outcome. As in k6, an iteration that threw is a
// complete one: only a stop or an abort interrupts an iteration.
func (s *Stats) count(o Outcome) {
	if o == Completed || o == Failed {
		s.Completed.Add(1)
	} else {
		s.Interrupted.Add(1)
	}
}

// activate counts one more active VU and raises the peak.
func (s *Stats) activate() {
	n := s.Active.Add(1)
	for {
		p := s.peak.Load()
		if n <= p || s.peak.CompareAndSwap(p, n) {
			return
		}
	}
}

// deactivate counts one active VU less.
func (s *Stats) deactivate() { s.Active.Add(-1) }

// TakePeak returns the highest number of active VUs since the last call
// (or the start) and starts the next window at the current number. A
// sampled vus gauge so sees a VU that was active between two samples.
func (s *Stats) TakePeak() int64 {
	return s.peak.Swap(s.Active.Load())
}
