//go:build !linux

package sockstamp

import "errors"

// TXOOBSize is the control-message room of ReadTX: none without kernel
// transmit stamps.
const TXOOBSize = 0

// ErrTXTruncated reports an oob smaller than TXOOBSize; only Linux's
// ReadTX returns it.
var ErrTXTruncated = errors.New("sockstamp: transmit stamp's control messages truncated (oob < TXOOBSize)")

var errNoTXStamps = errors.New("sockstamp: kernel transmit stamps need Linux")

// EnableTX fails: kernel transmit stamps need Linux.
func EnableTX(int) error { return errNoTXStamps }

// DisableTX fails: kernel transmit stamps need Linux.
func DisableTX(int) error { return errNoTXStamps }

// ReadTX fails: kernel transmit stamps need Linux.
func ReadTX(int, []byte) (key uint32, at int64, ok bool, err error) {
	return 0, 0, false, errNoTXStamps
}

// EnableTXOnDemand fails: kernel transmit stamps need Linux.
func EnableTXOnDemand(int) error { return errNoTXStamps }

// SendStamped sends nothing: kernel transmit stamps need Linux.
func SendStamped(int, []byte) (n int, stamped, wouldBlock bool, err error) {
	return 0, false, false, nil
}
