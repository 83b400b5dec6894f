package k6http

import (
	"net"
	"syscall"
	"unsafe"
)

// liveness checks whether an idle connection is still open. net/http
// finds out as it happens, its reading goroutine blocked on every idle
// connection; the direct transport, which has none, asks the kernel just
// before a reuse: one non-blocking peek.
type liveness struct {
	raw syscall.RawConn
	// peek is the check bound to this value, so that a check allocates
	// no closure; alive is its result.
	peek  func(fd uintptr) bool
	alive bool
	buf   [1]byte
}

// newLiveness returns the check of conn (a wireConn, possibly stamped),
// one that always passes when the descriptor is out of reach.
func newLiveness(conn net.Conn) liveness {
	var l liveness
	if w := wireOf(conn); w != nil {
		conn = w.Conn
		if w.st != nil {
			l.raw = w.st.Raw()
			return l
		}
	}
	if sc, ok := conn.(syscall.Conn); ok {
		l.raw, _ = sc.SyscallConn()
	}
	return l
}

// check reports whether nothing arrived on the idle connection: neither
// the server's close or reset nor unsolicited bytes (an idle server's 408,
// say), after which it is not reused.
func (l *liveness) check() bool {
	if l.raw == nil {
		return true
	}
	if l.peek == nil {
		l.peek = l.peekFd
	}
	if err := l.raw.Read(l.peek); err != nil {
		return false
	}
	return l.alive
}

// peekFd is one non-blocking peek at the descriptor: alive while it would
// block. It is a raw system call: one that returns at once needs no
// scheduler hand-off, and the hand-off wakes the runtime's monitor thread
// when the process was idle (see internal/sockstamp).
func (l *liveness) peekFd(fd uintptr) bool {
	_, _, errno := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&l.buf[0])), uintptr(len(l.buf)),
		syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
	l.alive = errno == syscall.EAGAIN
	return true
}
