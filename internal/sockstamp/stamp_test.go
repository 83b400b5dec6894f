package sockstamp

import (
	"testing"
	"time"
)

// TestAt places a kernel stamp on the monotonic clock and refuses
// implausible ones.
func TestAt(t *testing.T) {
	now := time.Now()
	if got := At(now, 0); !got.Equal(now) {
		t.Errorf("no stamp: got %v, want the read time", got)
	}
	rx := now.Add(-3 * time.Millisecond).UnixNano()
	if got := now.Sub(At(now, rx)); got != 3*time.Millisecond {
		t.Errorf("stamp 3 ms before the read: placed %v before it", got)
	}
	if got := At(now, now.Add(time.Second).UnixNano()); !got.Equal(now) {
		t.Errorf("stamp after the read (wall-clock step): got %v, want the read time", got)
	}
	if got := At(now, now.Add(-2*time.Minute).UnixNano()); !got.Equal(now) {
		t.Errorf("stamp two minutes old: got %v, want the read time", got)
	}
	if a := At(now, rx); a.Round(0) == a {
		t.Error("the stamp lost its monotonic reading")
	}
}
