//go:build !unix

package mock

import "time"

// cpuTime is not measured on this platform.
func cpuTime() time.Duration { return 0 }

// machineBusy is not measured on this platform.
func machineBusy() time.Duration { return 0 }

// cpuSplit is not measured on this platform.
func cpuSplit() (user, sys time.Duration) { return 0, 0 }
