//go:build !linux

package sse

import "errors"

// oobSize is the control-message room of a read: none without kernel
// receive stamps.
const oobSize = 0

var errNoStamps = errors.New("kernel receive stamps need Linux")

// readFD and stampFD stand in for Linux's stamped reads: stampFD fails, so
// no connection is read through them.
func readFD(int, []byte, []byte) (int, int64, bool, error) { return 0, 0, false, errNoStamps }
func stampFD(int) error                                    { return errNoStamps }
