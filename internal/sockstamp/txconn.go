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
	// stamps holds the latest txKeep stamps, oldest first from head once
	// it is full (a ring), in the order of their writes.
	stamps []txStamp
	head   int
	oob    []byte           // the error queue's control messages, under mu
	drain  func(fd uintptr) // c.drainFd, bound once
	send   sendOp           // the stamped send in progress, under sendMu
	sendMu sync.Mutex       // one stamped send at a time
}

// sendOp is the state of a stamped send, passed to and from the raw
// descriptor's write function, which is bound once (fn), so that a
// stamped write allocates no closure.
type sendOp struct {
	p       []byte
	n       int
	stamped bool
	err     error
	fn      func(fd uintptr) bool
}

// EnableTX prepares the connection for the transmit stamps of the writes
// that follow Mark (see SendStamped); it reports whether the kernel takes
// them. Without it, SentAt reports nothing.
func (c *Conn) EnableTX() bool {
	var err error
	if cerr := c.raw.Control(func(fd uintptr) { err = EnableTXOnDemand(int(fd)) }); cerr != nil || err != nil {
		return false
	}
	c.tx.sendMu.Lock()
	c.tx.send.fn = c.sendFd
	c.tx.sendMu.Unlock()
	c.tx.mu.Lock()
	c.tx.on, c.tx.oob, c.tx.drain = true, make([]byte, TXOOBSize), c.drainFd
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
	var m int
	var err error
	if n < len(p) || len(p) == 0 { // no empty write when the stamped send took all of p
		m, err = c.Conn.Write(p[n:])
	}
	c.count(on, n+m)
	if stamp {
		c.drainTX()
	}
	return n + m, err
}

// sendStamped sends the start of p asking for its transmit stamp; stamped
// is false when the socket could not take the stamp (nothing was sent).
func (c *Conn) sendStamped(p []byte) (n int, stamped bool, err error) {
	c.tx.sendMu.Lock()
	defer c.tx.sendMu.Unlock()
	op := &c.tx.send
	op.p = p
	err = c.raw.Write(op.fn)
	n, stamped = op.n, op.stamped
	if err == nil {
		err = op.err
	}
	*op = sendOp{fn: op.fn} // keeps no reference to p
	return n, stamped, err
}

// sendFd is one attempt of sendStamped on the raw descriptor: false while
// it would block.
func (c *Conn) sendFd(fd uintptr) bool {
	op := &c.tx.send
	var wouldBlock bool
	op.n, op.stamped, wouldBlock, op.err = SendStamped(int(fd), op.p)
	return !wouldBlock
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
// write that ends after off. The stamps end in the order of their writes,
// so it searches from the latest, which is the one a request just written
// asks for.
func (c *Conn) findTX(off uint64) (at time.Time, ok bool) {
	c.tx.mu.Lock()
	defer c.tx.mu.Unlock()
	l := len(c.tx.stamps)
	for i := range l {
		s := c.tx.stamps[(c.tx.head+l-1-i)%l]
		if s.end <= off {
			break
		}
		at, ok = s.at, true
	}
	return at, ok
}

// addTX keeps a stamp, in place of the oldest once txKeep are kept.
func (c *Conn) addTX(s txStamp) {
	if len(c.tx.stamps) < txKeep {
		c.tx.stamps = append(c.tx.stamps, s)
		return
	}
	c.tx.stamps[c.tx.head] = s
	c.tx.head = (c.tx.head + 1) % txKeep
}

// drainTX takes the stamps off the socket's error queue (which also keeps
// the poller from reporting it again).
func (c *Conn) drainTX() {
	c.tx.mu.Lock()
	defer c.tx.mu.Unlock()
	if !c.tx.on {
		return
	}
	_ = c.raw.Control(c.tx.drain)
}

// drainFd is drainTX on the raw descriptor, under the log's lock.
func (c *Conn) drainFd(fd uintptr) {
	for {
		key, at, ok, err := ReadTX(int(fd), c.tx.oob)
		if err != nil || !ok {
			return
		}
		c.addTX(txStamp{end: txEnd(c.tx.written, key), at: At(time.Now(), at)})
	}
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
