//go:build race

package mock

// raceEnabled reports whether the race detector (which slows everything
// down several times) is on.
const raceEnabled = true
