package sockstamp

import "time"

// At places the kernel's receive time rx (Unix nanoseconds, on the wall
// clock) on now's monotonic clock: the bytes are stamped when they reached
// the socket, not when the program got to read them, so a busy machine
// delays no stamp. Without it (0) or when it is implausible (a wall-clock
// step), the read time now.
func At(now time.Time, rx int64) time.Time {
	if rx == 0 {
		return now
	}
	d := now.UnixNano() - rx
	if d < 0 || d > int64(time.Minute) {
		return now
	}
	return now.Add(-time.Duration(d))
}
