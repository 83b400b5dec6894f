package sse

import (
	"bufio"
	"context"
	"io"
	"iter"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// wireReaderSize is the buffer between a connection and net/http's
// response parser, held by each exchange in progress. Longer header lines
// still parse (textproto joins the pieces); body reads larger than the
// buffer bypass it.
const wireReaderSize = 1 << 10

var wireReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, wireReaderSize) }}

// wireConn is one kept-alive plain HTTP/1.1 connection of a Client, read by
// the reactor. The response of the exchange in progress is parsed by a
// coroutine (iter.Pull) that the reactor resumes whenever bytes arrive:
// net/http's own response parser and the stream reader run in it
// unchanged, and their reads yield back to the reactor instead of blocking
// a goroutine. An exchange that runs JavaScript callbacks is parsed by its
// caller instead, from stamped chunks the reactor hands off (handoff.go).
type wireConn struct {
	r    *reactor
	pool *wirePool
	fd   int
	addr string

	mu     sync.Mutex // held by the reactor while it runs the exchange
	state  wireState  // where the connection is in its life (wirestate.go); under mu
	reused bool       // it served an earlier exchange
	// idleSince is when the connection last went back to the pool (under
	// the pool's mu).
	idleSince time.Time

	// The exchange in progress, if any; touched under mu or inside the
	// coroutine (or by the reader of a handoff).
	x       *exchange
	h       *handoff // non-nil when the caller parses the response
	next    func() (struct{}, bool)
	stop    func()
	yield   func(struct{}) bool
	br      *bufio.Reader
	pending []byte // bytes read and not yet consumed, in the reactor's buffer
	err     error  // the read error or interruption to return once pending is empty
	readAt  time.Time
	lastAt  time.Time // the latest stamp of the exchange's reads
	got     int64     // bytes read during this exchange
	keep    bool      // the connection may serve another exchange after this one

	headLimit bool // the response head is being read: headLeft bounds it
	headLeft  int  // bytes the response head may still take
}

// arrival returns when the bytes being parsed were read.
func (c *wireConn) arrival() time.Time { return c.readAt }

// Read hands the coroutine the bytes the reactor read, yielding to the
// reactor while there are none (or hands a handoff's reader its bytes).
func (c *wireConn) Read(p []byte) (int, error) {
	if c.headLimit {
		if c.headLeft <= 0 {
			return 0, headerLimit(c.x.req.MaxHeaderSize)
		}
		p = p[:min(len(p), c.headLeft)]
		n, err := c.read(p)
		c.headLeft -= n
		return n, err
	}
	return c.read(p)
}

// read is Read without the header limit.
func (c *wireConn) read(p []byte) (int, error) {
	if c.h != nil {
		return c.h.read(c, p)
	}
	for len(c.pending) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		if !c.yield(struct{}{}) {
			return 0, net.ErrClosed
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// received returns how many response bytes the exchange has seen.
func (c *wireConn) received() int64 {
	if c.h != nil {
		return c.h.took
	}
	return c.got
}

// attach starts an exchange on c; false if c was closed meanwhile.
func (c *wireConn) attach(x *exchange, hreq *http.Request) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != wireIdle {
		return false // closed meanwhile
	}
	x.done, x.ended = make(chan struct{}), make(chan struct{})
	x.settled, x.retry, x.redirect = false, false, nil
	x.now = c.arrival
	x.wc.Store(c)
	if x.ctx.Err() != nil {
		// The timer's abort may have run before the store: it found no
		// connection to interrupt, so the exchange interrupts itself.
		c.r.interrupt(c, x)
	}
	c.to(wireSending)
	c.x, c.err, c.got, c.keep = x, nil, 0, false
	c.lastAt = time.Time{}
	c.br = wireReaders.Get().(*bufio.Reader)
	c.br.Reset(c)
	x.handoff = nil
	if x.req.OnOpen != nil || x.req.runsCallbacks() {
		c.h = newHandoff(x.ctx)
		x.handoff = c.h
		return true
	}
	c.next, c.stop = iter.Pull(func(yield func(struct{}) bool) {
		c.yield = yield
		x.receiveWire(c, hreq)
	})
	return true
}

// send writes the request. On failure an exchange that never started is
// abandoned and the connection closed; written says how much went out.
func (c *wireConn) send(msg []byte, timeout time.Duration) (written int, err error) {
	written, err = writeFD(c.fd, msg, int(timeout/time.Millisecond)+1)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case err != nil && c.state == wireSending:
		// Nothing of the response was parsed (or a handoff's caller will
		// parse nothing): the exchange is abandoned.
		if c.h == nil {
			c.stop()
		}
		c.x.wc.Store(nil)
		c.detach()
		c.closeLocked()
		return written, err
	case c.state == wireParked:
		c.release()
	default:
		c.to(wireReading)
	}
	return written, nil // a response is arriving: the exchange goes on
}

// readable reads what the connection has and resumes its exchange.
func (c *wireConn) readable(buf, oob []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == wireClosed || (c.h != nil && c.h.paused) {
		return // paused: an event of the batch that took it out of the set
	}
	n, rx, wouldBlock, err := sockstamp.Read(c.fd, buf, oob)
	if wouldBlock {
		return
	}
	if c.state == wireIdle {
		// Idle: the server closed the connection, or sent bytes nobody
		// asked for.
		c.closeLocked()
		return
	}
	// Reads stamped from one kernel timestamp convert to the monotonic
	// clock a few ns apart: stamps never go back.
	now := time.Now()
	at := sockstamp.At(now, rx)
	if at.Before(c.lastAt) {
		at = c.lastAt
	}
	if rx != 0 {
		c.x.noteLag(now.Sub(at))
	}
	c.lastAt = at
	if c.h != nil {
		if err == nil && n == 0 {
			err = io.EOF
		}
		c.h.push(c, buf[:n], at, err)
		return
	}
	if c.state != wireParked { // else the response ended already
		c.feed(buf[:n], at, err)
	}
}

// feed resumes the coroutine with one read: its bytes, or its error (an
// empty read is the end of the connection).
func (c *wireConn) feed(b []byte, at time.Time, err error) {
	c.readAt = at
	switch {
	case err != nil:
		c.err = err
	case len(b) == 0:
		c.err = io.EOF
	default:
		c.pending, c.got = b, c.got+int64(len(b))
	}
	c.resume()
}

// interrupted resumes x, if it still runs on c, with its context's cause.
func (c *wireConn) interrupted(x *exchange) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.x != x || c.next == nil || c.state == wireParked {
		return // ended, or a handoff: its reader wakes with the context
	}
	if c.err == nil {
		c.err = context.Cause(x.ctx)
	}
	c.resume()
}

// resume runs the exchange's coroutine until it waits for bytes again or
// ends.
func (c *wireConn) resume() {
	if c.state == wireSending {
		c.to(wireSendingReading)
	}
	if _, more := c.next(); more {
		return
	}
	c.pending = c.pending[:0:0] // the reactor's buffer is reused
	if c.state == wireSendingReading {
		c.to(wireParked) // the sender releases it after its write
		return
	}
	c.release()
}

// release ends the exchange: the connection goes back to the pool if it
// can serve another one, else it is closed.
func (c *wireConn) release() {
	x, keep := c.x, c.keep && c.err == nil
	if h := c.h; h != nil {
		keep = keep && h.err == nil && len(h.queue) == 0
		if keep && h.paused {
			c.r.p.watch(c.fd, true)
		}
	}
	c.detach()
	if keep && c.pool.put(c) {
		c.to(wireIdle) // c.mu is held: nobody attaches before this
	} else {
		c.closeLocked()
	}
	c.reused = true
	close(x.ended)
}

// releaseNow releases the connection from the goroutine that read a
// handoff.
func (c *wireConn) releaseNow() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.release()
}

// detach forgets the exchange.
func (c *wireConn) detach() {
	c.x, c.h, c.next, c.stop, c.yield = nil, nil, nil, nil, nil
	if c.br != nil {
		c.br.Reset(nil)
		wireReaders.Put(c.br)
		c.br = nil
	}
}

// closeLocked closes the connection; c.mu is held.
func (c *wireConn) closeLocked() {
	if c.state == wireClosed {
		return
	}
	c.to(wireClosed)
	c.pool.remove(c)
	c.r.forget(c)
}

// wireBody is a response body read on the reactor. Closing it does not
// drain it: a body closed before its end makes the connection unusable.
// A handoff's body, whose reader may be a draining goroutine, releases the
// connection when closed.
type wireBody struct {
	io.ReadCloser
	c      *wireConn
	h      *handoff // set when the caller parses the response
	eof    bool
	closed bool
}

// Read implements io.Reader.
func (b *wireBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

// Close implements io.Closer. A handoff's body releases the connection.
func (b *wireBody) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if !b.eof {
		b.c.keep = false
	}
	if b.h != nil {
		b.c.releaseNow()
	}
	return nil
}
