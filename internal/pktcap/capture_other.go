//go:build !linux

package pktcap

// openSocket fails: packet sockets are Linux's.
func openSocket() (int, error) { return -1, ErrNotPermitted }

// dropped reports nothing.
func dropped(int) uint64 { return 0 }

// closeFD has nothing to close.
func closeFD(int) error { return nil }
