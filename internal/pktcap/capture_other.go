//go:build !linux

package pktcap

// openSocket fails: packet sockets are Linux's.
func openSocket() (int, *ring, error) { return -1, nil, ErrNotPermitted }

// ring is a receive ring, never set up here.
type ring struct{}

// next finds no packet.
func (*ring) next() (pkt []byte, rx int64, losing, ok bool) { return nil, 0, false, false }

// release has nothing to release.
func (*ring) release() {}

// close has nothing to unmap.
func (*ring) close() error { return nil }

// dropped reports nothing.
func dropped(int) uint64 { return 0 }

// closeFD has nothing to close.
func closeFD(int) error { return nil }
