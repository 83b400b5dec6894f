package sse

import "golang.org/x/sys/unix"

// monoNow reads CLOCK_MONOTONIC in nanoseconds: one clock for every
// process of the machine that, unlike the wall clock, is never stepped.
// A freshly started virtual machine may step its wall clock every second
// to follow its host's, so times that cross processes are compared on it.
func monoNow() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		panic(err)
	}
	return ts.Nano()
}
