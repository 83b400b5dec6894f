//go:build !unix

package cpugate

import "time"

// ProcessCPU reports nothing where getrusage is missing: Width then
// follows the scheduling latency alone.
func ProcessCPU() (cpu time.Duration, ok bool) { return 0, false }
