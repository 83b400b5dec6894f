package k6http

import (
	"crypto/tls"
	"net"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// wireConn is a TCP connection k6/http dialed. It counts the bytes written
// to and read from it, TLS records and HTTP framing included, so that
// data_sent and data_received are what went over the wire. Where the
// kernel stamps the socket (Linux), every read is one recvmsg carrying the
// kernel's receive time of its bytes and every write asks for the kernel's
// send time: the exchange's timings are taken from those stamps (see
// stamps.go), not from the moment a busy runner got around to a read.
type wireConn struct {
	net.Conn       // the TCP connection: a *sockstamp.Conn when stamped
	sent, received atomic.Int64

	// st is the stamping connection, nil where the kernel stamps nothing.
	st *sockstamp.Conn
	// lastRead is the kernel's receive time of the latest read that
	// delivered bytes, in nanoseconds since clockBase; 0 before any.
	lastRead atomic.Int64
	// rtt is the kernel's round trip of the TCP handshake, read right
	// after the dial; 0 when unknown.
	rtt time.Duration
	// remoteIP and remotePort are the address of the other end, as the
	// exchanges on the connection record it ("" and 0 for an address
	// that is not TCP's).
	remoteIP   string
	remotePort int
}

// newWireConn wraps a connection just dialed, stamping it when the kernel
// can.
func newWireConn(c net.Conn) *wireConn {
	w := &wireConn{Conn: c}
	if addr, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		w.remoteIP, w.remotePort = addr.IP.String(), addr.Port
	}
	st, ok := sockstamp.NewConn(c)
	if !ok {
		return w
	}
	st.EnableTX()
	w.Conn, w.st = st, st
	w.rtt, _ = st.ConnectRTT()
	return w
}

// Read reads from the connection, counts the bytes read and, on a stamped
// connection, keeps the kernel's receive time of the read.
func (c *wireConn) Read(b []byte) (int, error) {
	if c.st == nil {
		n, err := c.Conn.Read(b)
		c.received.Add(int64(n))
		return n, err
	}
	n, rx, err := c.st.ReadStamped(b)
	if n > 0 {
		c.received.Add(int64(n))
		c.lastRead.Store(int64(sockstamp.At(time.Now(), rx).Sub(clockBase)))
	}
	return n, err
}

// Write writes to the connection and counts the bytes written. On a
// stamped connection every write asks for its kernel send time (Mark):
// the one that ends a request ends its sending.
func (c *wireConn) Write(b []byte) (int, error) {
	if c.st != nil {
		c.st.Mark()
	}
	n, err := c.Conn.Write(b)
	c.sent.Add(int64(n))
	return n, err
}

// wireOf returns the wireConn under conn, a connection the VU's transport
// handed out (possibly wrapped in TLS); nil for a connection this package
// did not dial.
func wireOf(conn net.Conn) *wireConn {
	if tc, ok := conn.(*tls.Conn); ok {
		conn = tc.NetConn()
	}
	w, _ := conn.(*wireConn)
	return w
}

// counts returns the bytes sent and received so far on conn (see wireOf),
// or zeros for a connection this package did not dial.
func counts(conn net.Conn) (sent, received int64) {
	if w := wireOf(conn); w != nil {
		return w.sent.Load(), w.received.Load()
	}
	return 0, 0
}
