//go:build unix

package mock

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) this process used so far.
func cpuTime() time.Duration {
	u, s := cpuSplit()
	return u + s
}

// cpuSplit returns the user and the system CPU time this process used so
// far.
func cpuSplit() (user, sys time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// machineBusy returns the CPU time all processes of the machine spent not
// idle so far (Linux /proc/stat, assuming 100 ticks per second), 0 when
// unknown.
func machineBusy() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 8 || string(f[0]) != "cpu" {
		return 0
	}
	var ticks int64
	for i, v := range f[1:] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		n, _ := strconv.ParseInt(string(v), 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
