//go:build !unix

package runner

import "time"

// processCPU reports nothing where getrusage is missing.
func processCPU() (time.Duration, bool) { return 0, false }
