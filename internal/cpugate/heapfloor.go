package cpugate

import (
	"os"
	"runtime/debug"
)

// heapFloor is the smallest heap goal the runner lets the collector aim
// at: with GOGC's 100 a load test whose live heap is a few megabytes (a
// hundred VUs of k6/http) collects several times a second, each cycle
// stopping goroutines and borrowing idle slots, for a few megabytes saved.
// Heaps whose goal is above it are left as GOGC has them.
const heapFloor = 32 << 20

// gcPercent returns the GOGC that gives a live heap of live bytes a goal
// of at least floor bytes, and never below base.
func gcPercent(live uint64, floor uint64, base int) int {
	if live == 0 || live*uint64(100+base)/100 >= floor {
		return base
	}
	return max(base, int(((floor-live)*100+live-1)/live)) // rounded up
}

// gcFloor keeps the collector's goal at or above heapFloor while it
// governs, unless the user set GOGC.
type gcFloor struct {
	on      bool
	percent int // the GOGC set last
}

// newGCFloor returns a floor that acts unless the environment sets GOGC.
func newGCFloor() *gcFloor {
	return &gcFloor{on: os.Getenv("GOGC") == "", percent: 100}
}

// follow sets GOGC for the live heap, when it moved by more than a tenth.
func (f *gcFloor) follow(live uint64) {
	if !f.on {
		return
	}
	p := gcPercent(live, heapFloor, 100)
	if p != f.percent && (p < f.percent*9/10 || p > f.percent*11/10 || p == 100) {
		debug.SetGCPercent(p)
		f.percent = p
	}
}

// restore gives GOGC its default back.
func (f *gcFloor) restore() {
	if f.on && f.percent != 100 {
		debug.SetGCPercent(100)
		f.percent = 100
	}
}
