package executor

import "sync/atomic"

// Stats are a scenario's live counters, read by progress and k6/execution.
type Stats struct {
	Completed   atomic.Int64
	Interrupted atomic.Int64
	Dropped     atomic.Int64
	// Active is the number of VUs running an iteration or looping.
	Active atomic.Int64
	// Initialised is the number of VUs the scenario owns.
	Initialised atomic.Int64
	// StartedAt is the unix nanosecond start time; 0 before the start.
	StartedAt atomic.Int64
	// Done is set when the scenario finished.
	Done atomic.Bool
}

// count records an outcome.
func (s *Stats) count(o Outcome) {
	if o == Completed {
		s.Completed.Add(1)
	} else {
		s.Interrupted.Add(1)
	}
}
