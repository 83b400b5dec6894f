//go:build !linux

package sockstamp

import "time"

// HandshakeRTT reports nothing where the kernel's TCP_INFO is not read.
func HandshakeRTT(int) (time.Duration, bool) { return 0, false }
