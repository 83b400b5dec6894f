package netstack

import (
	"context"
	"sync"
	"time"
)

// RateLimit is k6's rps option: requests start at most rate times a
// second across every VU that shares it, each one 1/rate after the
// previous one at the earliest (a token bucket of one token, as k6's).
// It is safe for concurrent use.
type RateLimit struct {
	interval time.Duration

	mu   sync.Mutex
	next time.Time // the earliest start of the next request
}

// NewRateLimit returns a limit of rps requests a second; nil (no limit)
// when rps <= 0.
func NewRateLimit(rps float64) *RateLimit {
	if rps <= 0 {
		return nil
	}
	return &RateLimit{interval: time.Duration(float64(time.Second) / rps)}
}

// Wait blocks until the caller may start a request, or ctx is done (its
// error then). A nil RateLimit never waits.
func (l *RateLimit) Wait(ctx context.Context) error {
	if l == nil {
		return nil
	}
	now := time.Now()
	l.mu.Lock()
	var slot time.Time
	slot, l.next = reserve(now, l.next, l.interval)
	l.mu.Unlock()
	wait := slot.Sub(now)
	if wait <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reserve returns the start of a request asked for at now, when the next
// free start is next, and the next free start after it: max(now, next)
// and that plus interval. Unused time does not accumulate: after a pause
// only one request starts at once.
func reserve(now, next time.Time, interval time.Duration) (slot, after time.Time) {
	slot = next
	if now.After(next) {
		slot = now
	}
	return slot, slot.Add(interval)
}
