//go:build !race

package k6http

// raceEnabled reports whether the race detector is on: it allocates for
// itself, so allocations are not counted under it.
const raceEnabled = false
