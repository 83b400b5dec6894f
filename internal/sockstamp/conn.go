package sockstamp

import (
	"io"
	"net"
	"syscall"
)

// Conn is a TCP connection whose every read is one recvmsg(2) carrying
// the kernel's receive time of its bytes, and whose writes can carry the
// kernel's send time (EnableTX, Mark, SentAt). Deadlines and Close are
// the connection's own. One goroutine reads at a time (its control
// message buffer and its read's state are the connection's, so that a
// read allocates nothing).
type Conn struct {
	net.Conn // the TCP connection
	raw      syscall.RawConn
	oob      []byte
	rd       readOp
	tx       txLog
}

// readOp is the state of the connection's current read, passed to and
// from the raw descriptor's read function, which is bound once (fn), so
// that a read allocates no closure.
type readOp struct {
	p   []byte
	n   int
	rx  int64
	err error
	fn  func(fd uintptr) bool
}

// NewConn asks the kernel to stamp c's reads; ok is false where it stamps
// nothing (not Linux, not TCP, or the option was refused).
func NewConn(c net.Conn) (_ *Conn, ok bool) {
	tc, isTCP := c.(*net.TCPConn)
	if !isTCP {
		return nil, false
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return nil, false
	}
	var serr error
	if err := raw.Control(func(fd uintptr) { serr = Enable(int(fd)) }); err != nil || serr != nil {
		return nil, false
	}
	sc := &Conn{Conn: c, raw: raw, oob: make([]byte, OOBSize)}
	sc.rd.fn = sc.readFd
	return sc, true
}

// Raw returns the connection's raw descriptor access (for transmit
// stamps).
func (c *Conn) Raw() syscall.RawConn { return c.raw }

// ReadStamped reads into p, waiting in Go's network poller; rx is the
// kernel's receive time of the bytes in Unix nanoseconds, 0 if it gave
// none. The end of the stream is io.EOF, as Read reports it.
func (c *Conn) ReadStamped(p []byte) (n int, rx int64, err error) {
	if len(p) == 0 {
		return 0, 0, nil
	}
	c.rd.p = p
	err = c.raw.Read(c.rd.fn)
	n, rx, rerr := c.rd.n, c.rd.rx, c.rd.err
	c.rd = readOp{fn: c.rd.fn} // keeps no reference to p
	switch {
	case err != nil:
		// A deadline or a closed connection, from the network poller.
		if op, ok := err.(*net.OpError); ok {
			op.Op = "read"
		}
		return 0, 0, err
	case rerr != nil:
		return 0, 0, &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: rerr}
	case n == 0:
		return 0, rx, io.EOF
	}
	return n, rx, nil
}

// readFd is one read attempt of ReadStamped on the raw descriptor: false
// while it would block.
func (c *Conn) readFd(fd uintptr) bool {
	var wouldBlock bool
	c.rd.n, c.rd.rx, wouldBlock, c.rd.err = Read(int(fd), c.rd.p, c.oob)
	return !wouldBlock
}

// Read implements net.Conn: ReadStamped without the stamp.
func (c *Conn) Read(p []byte) (int, error) {
	n, _, err := c.ReadStamped(p)
	return n, err
}
