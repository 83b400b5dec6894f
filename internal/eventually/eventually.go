// Package eventually lets tests wait on a condition instead of sleeping: a
// loaded machine only slows such a test down, while a condition that never
// holds still fails it.
package eventually

import (
	"testing"
	"time"
)

// Deadline is how long True waits for a condition before it fails the test.
const Deadline = 10 * time.Second

// True polls cond every 2 ms until it holds, and fails the test (naming
// what it waited for) if it does not within Deadline.
func True(t testing.TB, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(Deadline)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}
