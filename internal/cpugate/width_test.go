package cpugate

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// TestWidthPolicy walks the policy through light, busy and waiting
// windows: a slot goes after narrowAfter light windows (on average), comes
// back at once when the slots are busy, after two windows of waiting
// goroutines or one of long waits, and none goes during the hold after
// goroutines waited.
func TestWidthPolicy(t *testing.T) {
	p := widthPolicy{widenLatency: time.Millisecond, widenBusy: 0.7, narrowBusy: 0.4, narrowAfter: 3, holdAfterWiden: 4}
	const us = time.Microsecond
	steps := []struct {
		name  string
		used  float64
		lat   time.Duration
		procs int // the width after the window
	}{
		{"light", 0.1, 50 * us, 3},
		{"light", 0.2, 50 * us, 3},
		{"light, third in a row: one slot fewer", 0.3, 50 * us, 2},
		{"a GC's wait alone", 0.1, 1500 * us, 2},
		{"light", 0.5, 50 * us, 2},
		{"light", 0.5, 50 * us, 2},
		{"light", 0.4, 50 * us, 2},
		{"light again, but on average over 40 % of one slot", 0.3, 50 * us, 2},
		{"busy slots: one more at once", 1.5, 50 * us, 3},
		{"light", 0.1, 50 * us, 3},
		{"light", 0.1, 50 * us, 3},
		{"light", 0.1, 50 * us, 2},
		{"light", 0.1, 50 * us, 2},
		{"light", 0.1, 50 * us, 2},
		{"light", 0.1, 50 * us, 1},
		{"waiting", 0.2, 1200 * us, 1},
		{"waiting again: one more", 0.2, 1200 * us, 2},
		{"held", 0.1, 50 * us, 2},
		{"held", 0.1, 50 * us, 2},
		{"held", 0.1, 50 * us, 2},
		{"hold over", 0.1, 50 * us, 2},
		{"light", 0.1, 50 * us, 2},
		{"light, third since the hold", 0.1, 50 * us, 1},
		{"a long wait: one more at once", 0.1, 5 * time.Millisecond, 2},
		{"busy at the widest", 0.1, 5 * time.Millisecond, 3},
		{"no wider than the widest", 2.5, 9 * time.Millisecond, 3},
	}
	s := widthState{procs: 3}
	for i, st := range steps {
		s = p.next(s, 3, st.used, st.lat)
		if s.procs != st.procs {
			t.Fatalf("window %d (%s): width %d, want %d", i, st.name, s.procs, st.procs)
		}
	}
}

// TestWidthFollowsLoad runs the governor on this process: idle, it
// narrows to one slot; with goroutines spinning it widens back to its
// widest; stopped, it gives the widest back.
func TestWidthFollowsLoad(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	p := defaultWidth
	p.every, p.narrowAfter, p.holdAfterWiden = 5*time.Millisecond, 3, 3
	w := governWidth(p, nil)
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
