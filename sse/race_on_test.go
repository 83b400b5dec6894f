//go:build race

package sse

// raceEnabled reports whether the race detector is on: it multiplies
// memory several times, so memory bounds are not measured under it.
const raceEnabled = true
