package wsconn

import (
	"net"
	"sync/atomic"
)

// countingConn counts the bytes written to and read from a connection,
// TLS records and WebSocket framing included: what went over the wire.
// While head is not nil and open, reads stop at its budget.
type countingConn struct {
	net.Conn
	sent, received *atomic.Int64
	head           *headBudget
}

// Read reads from the connection and counts the bytes read.
func (c *countingConn) Read(b []byte) (int, error) {
	if c.head != nil {
		var err error
		if b, err = c.head.take(b, c.received.Load()); err != nil {
			return 0, err
		}
	}
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
