package sockstamp

import (
	"sync"
	"time"
)

// txKeep is how many transmit stamps a connection keeps: those of the
// requests in flight on it (HTTP/2 multiplexes many).
const txKeep = 256

// txStamp is the kernel's send time of one write: the bytes before end
// (counted from the connection's first byte) were on the wire at at.
type txStamp struct {
	end uint64
	at  time.Time
}

// txLog is the transmit side of a Conn: the bytes written so far and the
// kernel's send stamps of the latest stamped writes.
type txLog struct {
	mu      sync.Mutex
	on      bool
	next    bool   // stamp the next write: a request starts with it
	written uint64 // bytes written so far
	stamps  []txStamp
	oob     []byte // the error queue's control messages, under mu
}

// EnableTX prepares the connection for the transmit stamps of the writes
// that follow Mark (see SendStamped); it reports whether the kernel takes
// them. Without it, SentAt reports nothing.
func (c *Conn) EnableTX() bool {
	var err error
	if cerr := c.raw.Control(func(fd uintptr) { err = EnableTXOnDemand(int(fd)) }); cerr != nil || err != nil {
		return false
	}
	c.tx.mu.Lock()
	c.tx.on, c.tx.oob = true, make([]byte, TXOOBSize)
	c.tx.mu.Unlock()
	return true
}

// Write implements net.Conn. The first write after Mark asks the kernel
// for its send time, when the socket can take it without filling up, and
// takes the stamp (queued before the write returns on loopback and most
// devices) off the error queue at once.
func (c *Conn) Write(p []byte) (int, error) {
	c.tx.mu.Lock()
	stamp, on := c.tx.next, c.tx.on
	c.tx.next = false
	c.tx.mu.Unlock()
	n := 0
	if stamp && len(p) > 0 {
		var err error
		if n, stamp, err = c.sendStamped(p); err != nil {
			c.count(on, n)
			return n, err
		}
	}
	m, err := c.Conn.Write(p[n:])
	c.count(on, n+m)
	if stamp {
		c.drainTX()
	}
	return n + m, err
}

// sendStamped sends the start of p asking for its transmit stamp; stamped
// is false when the socket could not take the stamp (nothing was sent).
func (c *Conn) sendStamped(p []byte) (n int, stamped bool, err error) {
	var serr error
	err = c.raw.Write(func(fd uintptr) bool {
		var wouldBlock bool
		n, stamped, wouldBlock, serr = SendStamped(int(fd), p)
		return !wouldBlock
	})
	if err == nil {
		err = serr
	}
	return n, stamped, err
}

// count adds n bytes written, when transmit stamps are on.
func (c *Conn) count(on bool, n int) {
	if !on {
		return
	}
	c.tx.mu.Lock()
	c.tx.written += uint64(n)
	c.tx.mu.Unlock()
}

// Mark returns the offset of the next byte to be written and asks for the
// transmit stamp of the write that starts there: a request written from
// now on starts with it.
func (c *Conn) Mark() uint64 {
	c.tx.mu.Lock()
	defer c.tx.mu.Unlock()
	c.tx.next = c.tx.on
	return c.tx.written
}

// SentAt returns when the kernel sent the write holding byte off (counted
// from the connection's first byte): the request that starts there left
// then. ok is false without transmit stamps, or when the write was not
// stamped, its stamp is no longer kept or has not come yet.
func (c *Conn) SentAt(off uint64) (at time.Time, ok bool) {
	if at, ok = c.findTX(off); !ok {
		c.drainTX() // a device that stamps after the write returned
		at, ok = c.findTX(off)
	}
	return at, ok
}

// findTX looks SentAt's stamp up among those taken: the first stamped
// write that ends after off, if it also starts at or before it.
func (c *Conn) findTX(off uint64) (time.Time, bool) {
	c.tx.mu.Lock()
	defer c.tx.mu.Unlock()
	for _, s := range c.tx.stamps {
		if s.end > off {
			return s.at, true
		}
	}
	return time.Time{}, false
}

// drainTX takes the stamps off the socket's error queue (which also keeps
// the poller from reporting it again).
func (c *Conn) drainTX() {
	c.tx.mu.Lock()
	defer c.tx.mu.Unlock()
	if !c.tx.on {
		return
	}
	_ = c.raw.Control(func(fd uintptr) {
		for {
			key, at, ok, err := ReadTX(int(fd), c.tx.oob)
			if err != nil || !ok {
				return
			}
			if len(c.tx.stamps) == txKeep {
				c.tx.stamps = append(c.tx.stamps[:0], c.tx.stamps[1:]...)
			}
			c.tx.stamps = append(c.tx.stamps, txStamp{end: txEnd(c.tx.written, key), at: At(time.Now(), at)})
		}
	})
}

// txEnd returns the offset after the write whose stamp has key (its last
// byte's offset modulo 2^32), the nearest such offset at or below written.
func txEnd(written uint64, key uint32) uint64 {
	return written - uint64(uint32(written)-(key+1))
}

// ConnectRTT returns the round trip of the connection's TCP handshake as
// the kernel measured it (HandshakeRTT).
func (c *Conn) ConnectRTT() (rtt time.Duration, ok bool) {
	_ = c.raw.Control(func(fd uintptr) { rtt, ok = HandshakeRTT(int(fd)) })
	return rtt, ok
}
