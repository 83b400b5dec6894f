//go:build !linux

package sse

import "time"

// monoNow stands in for CLOCK_MONOTONIC where the stamp tests do not run.
func monoNow() int64 { return time.Now().UnixNano() }
