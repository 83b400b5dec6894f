//go:build !linux

package sockstamp

import "errors"

// OOBSize is the control-message room of a read: none without kernel
// receive stamps.
const OOBSize = 0

var errNoStamps = errors.New("kernel receive stamps need Linux")

// Read and Enable stand in for Linux's stamped reads: Enable fails, so no
// connection is read through them.
func Read(int, []byte, []byte) (int, int64, bool, error) { return 0, 0, false, errNoStamps }

// Enable fails: kernel receive stamps need Linux.
func Enable(int) error { return errNoStamps }
