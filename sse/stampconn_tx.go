package sse

import (
	"time"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// txKeep is how many transmit stamps a stamping connection keeps: the
// writes of the requests in flight on it (HTTP/2 multiplexes many).
const txKeep = 256

// txStamp is the kernel's send time of one write: the bytes before end
// (counted from the connection's first byte) were on the wire at at.
type txStamp struct {
	end uint64
	at  time.Time
}

// txState is the transmit side of a stampConn: the bytes written so far
// and the kernel's send stamps of the latest writes. Its fields are held
// under the stampConn's mutex.
type txState struct {
	on      bool
	written uint64
	stamps  []txStamp // in the order of their ends
	oob     []byte
}

// enableTX asks the kernel for the send time of every write (see
// sockstamp.EnableTX); without it, sentAt reports nothing.
func (c *stampConn) enableTX() {
	var err error
	if cerr := c.Raw().Control(func(fd uintptr) { err = sockstamp.EnableTX(int(fd)) }); cerr != nil || err != nil {
		return
	}
	c.tx.on, c.tx.oob = true, make([]byte, sockstamp.TXOOBSize)
}

// Write implements net.Conn: the write, then the kernel's stamps of the
// writes so far (on loopback and most devices a write's stamp is queued
// before the write returns).
func (c *stampConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if !c.tx.on {
		return n, err
	}
	c.mu.Lock()
	c.tx.written += uint64(n)
	c.mu.Unlock()
	c.drainTX()
	return n, err
}

// mark returns the offset of the next byte to be written: a request
// written from now on starts there.
func (c *stampConn) mark() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tx.written
}

// sentAt returns when the kernel sent the write holding byte off (counted
// from the connection's first byte): the request that starts there left
// then. ok is false without transmit stamps, or when the stamp is no
// longer kept or has not come yet.
func (c *stampConn) sentAt(off uint64) (at time.Time, ok bool) {
	if !c.tx.on {
		return time.Time{}, false
	}
	if at, ok = c.findTX(off); !ok {
		c.drainTX() // a device that stamps after the write returned
		at, ok = c.findTX(off)
	}
	return at, ok
}

// findTX looks sentAt's stamp up among those taken.
func (c *stampConn) findTX(off uint64) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.tx.stamps {
		if s.end > off {
			return s.at, true
		}
	}
	return time.Time{}, false
}

// drainTX takes the stamps off the socket's error queue (which also keeps
// the poller from reporting it again). A stamp's key is its write's last
// byte modulo 2^32; its full offset is the one nearest below the bytes
// written.
func (c *stampConn) drainTX() {
	_ = c.Raw().Control(func(fd uintptr) {
		c.mu.Lock()
		defer c.mu.Unlock()
		for {
			key, at, ok, err := sockstamp.ReadTX(int(fd), c.tx.oob)
			if err != nil || !ok {
				return
			}
			end := txEnd(c.tx.written, key)
			if len(c.tx.stamps) == txKeep {
				c.tx.stamps = append(c.tx.stamps[:0], c.tx.stamps[1:]...)
			}
			c.tx.stamps = append(c.tx.stamps, txStamp{end: end, at: sockstamp.At(time.Now(), at)})
		}
	})
}

// txEnd returns the offset after the write whose stamp has key (its last
// byte's offset modulo 2^32), the nearest such offset at or below written.
func txEnd(written uint64, key uint32) uint64 {
	return written - uint64(uint32(written)-(key+1))
}

// setupTime returns how long setting the connection up took on the
// network, for a connection handed out for the first time: the kernel's
// round trip of the TCP handshake plus, under TLS, the kernel's time from
// sending the ClientHello to receiving the server's last handshake
// flight. A busy client's delays in between (noticing the connection,
// processing the server's messages) are left out, as the reactor leaves
// them out of a plain connection's set-up.
func (c *stampConn) setupTime() time.Duration {
	var d time.Duration
	_ = c.Raw().Control(func(fd uintptr) {
		if rtt, ok := sockstamp.HandshakeRTT(int(fd)); ok {
			d = rtt
		}
	})
	if hello, ok := c.sentAt(0); ok {
		if last := c.at(); last.After(hello) {
			d += last.Sub(hello)
		}
	}
	return d
}
