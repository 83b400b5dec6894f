package k6http

import (
	"crypto/tls"
	"net"
	"sync/atomic"
)

// countingConn counts the bytes written to and read from a connection, TLS
// records and HTTP framing included: data_sent and data_received are what
// went over the wire.
type countingConn struct {
	net.Conn
	sent, received atomic.Int64
}

// Read reads from the connection and counts the bytes read.
func (c *countingConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.received.Add(int64(n))
	return n, err
}

// Write writes to the connection and counts the bytes written.
func (c *countingConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.sent.Add(int64(n))
	return n, err
}

// counts returns the bytes sent and received so far on conn, a connection
// the VU's transport handed out (possibly wrapped in TLS), or zeros for a
// connection this package did not dial.
func counts(conn net.Conn) (sent, received int64) {
	if tc, ok := conn.(*tls.Conn); ok {
		conn = tc.NetConn()
	}
	if cc, ok := conn.(*countingConn); ok {
		return cc.sent.Load(), cc.received.Load()
	}
	return 0, 0
}
