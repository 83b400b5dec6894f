package reactor

import (
	"bufio"
	"context"
	"io"
	"iter"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/internal/pktcap"
	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// readerSize is the buffer between a connection and net/http's response
// parser, held by each exchange in progress. Longer header lines still
// parse (textproto joins the pieces); body reads larger than the buffer
// bypass it.
const readerSize = 1 << 10

var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readerSize) }}

// Conn is one kept-alive plain HTTP/1.1 connection of a Pool, read by the
// reactor. The response of the exchange in progress is parsed by a
// coroutine (iter.Pull) that the reactor resumes whenever bytes arrive:
// net/http's own response parser, and the exchange's stream reader unless
// the exchange takes its body pushed (sink.go), run in it unchanged, and
// their reads yield back to the reactor instead of blocking a goroutine.
// An exchange that parses on its own goroutine (Exchange.Handoff) reads
// stamped chunks the reactor hands off instead (handoff.go).
type Conn struct {
	r    *reactor
	pool *Pool
	fd   int
	addr string

	mu     sync.Mutex // held by the reactor while it runs the exchange
	state  State      // where the connection is in its life (state.go); under mu
	reused bool       // it served an earlier exchange
	// idleSince is when the connection last went back to the pool (under
	// the pool's mu).
	idleSince time.Time

	// The exchange in progress, if any; touched under mu or inside the
	// coroutine (or by the reader of a handoff).
	call    *call
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

	// A body pushed to the exchange's sink (sink.go) instead of read by
	// the coroutine, which has ended; its framing.
	sink  Sink
	frame *framing

	headLimit bool // the response head is being read: headLeft bounds it
	headLeft  int  // bytes the response head may still take

	// Transmit stamps (Linux): on when the kernel stamps the connection's
	// writes; written counts the bytes written since, which numbers the
	// stamps (their key is the offset of a write's last byte). txWaiting:
	// the exchange waits for the stamp of its request, whose first byte
	// is txFirst; under mu.
	txOn      bool
	txWaiting bool
	txFirst   uint32
	written   uint32
	txOOB     []byte

	// With a capture: the connection's stream in it and the bytes read
	// so far; a read is fed piece by piece, each with its own arrival.
	cap    *pktcap.Stream
	off    uint64
	pieces []pktcap.Piece
}

// call is one exchange's time on a connection, and its signals to the
// caller waiting in Pool.Do.
type call struct {
	x       Exchange
	h       *handoff
	done    chan struct{} // the exchange's outcome is known
	ended   chan struct{} // the connection is released
	settled bool          // done is closed
	retry   bool          // a reused connection was closed before any response byte
	err     error         // reading the response head failed
	setup   time.Duration // connecting took this long (0: a reused connection)
}

// settle closes done once.
func (k *call) settle() {
	if !k.settled {
		k.settled = true
		close(k.done)
	}
}

// Arrival returns when the bytes being parsed were received: the kernel's
// receive time of the read that delivered them, on the monotonic clock.
func (c *Conn) Arrival() time.Time { return c.readAt }

// Captured reports whether a packet capture follows the connection: its
// reads are split by segment arrival.
func (c *Conn) Captured() bool { return c.cap != nil }

// Interrupt wakes x's read waiting for bytes on c, if x still runs on c,
// with the cause of x's context (which the caller ended first).
func (c *Conn) Interrupt(x Exchange) { c.r.interrupt(c, x) }

// Settle tells the caller waiting in Pool.Do that the exchange's outcome
// is known while the coroutine goes on (draining what follows the stream's
// end, say). It is called from the coroutine.
func (c *Conn) Settle() {
	if k := c.call; k != nil {
		k.settle()
	}
}

// Read hands the coroutine the bytes the reactor read, yielding to the
// reactor while there are none (or hands a handoff's reader its bytes).
func (c *Conn) Read(p []byte) (int, error) {
	if c.headLimit {
		if c.headLeft <= 0 {
			return 0, headerLimit(c.call.x.HeaderLimit())
		}
		p = p[:min(len(p), c.headLeft)]
		n, err := c.read(p)
		c.headLeft -= n
		return n, err
	}
	return c.read(p)
}

// headerLimit is the error of a response head above max bytes.
func headerLimit(max int) error {
	return &httpsafe.LimitError{What: "maxHeaderSize", Limit: int64(max)}
}

// read is Read without the header limit.
func (c *Conn) read(p []byte) (int, error) {
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
func (c *Conn) received() int64 {
	if c.h != nil {
		return c.h.took
	}
	return c.got
}

// attach starts an exchange on c; nil if c was closed meanwhile.
func (c *Conn) attach(x Exchange, hreq *http.Request) *call {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != Idle {
		return nil // closed meanwhile
	}
	k := &call{x: x, done: make(chan struct{}), ended: make(chan struct{})}
	c.call = k
	x.Attach(c)
	if x.Context().Err() != nil {
		// The exchange's timer may have interrupted it before it knew the
		// connection: it interrupts itself.
		c.r.interrupt(c, x)
	}
	c.to(Sending)
	c.err, c.got, c.keep = nil, 0, false
	c.lastAt = time.Time{}
	c.br = readers.Get().(*bufio.Reader)
	c.br.Reset(c)
	if x.Handoff() {
		c.h = newHandoff(x.Context())
		k.h = c.h
		return k
	}
	c.next, c.stop = iter.Pull(func(yield func(struct{}) bool) {
		c.yield = yield
		c.receive(k, hreq)
	})
	return k
}

// send writes the request. On failure an exchange that never started is
// abandoned and the connection closed; written says how much went out.
func (c *Conn) send(msg []byte, timeout time.Duration) (written int, err error) {
	c.mu.Lock()
	// The request's transmit stamp may be queued before the write returns,
	// and the reactor may take it first: it knows what to wait for.
	c.txFirst, c.txWaiting = c.written, c.txOn
	c.mu.Unlock()
	written, err = writeFD(c.fd, msg, int(timeout/time.Millisecond)+1)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.written += uint32(written)
	switch {
	case err != nil && c.state == Sending:
		// Nothing of the response was parsed (or a handoff's caller will
		// parse nothing): the exchange is abandoned.
		if c.h == nil {
			c.stop()
		}
		c.call.x.Attach(nil)
		c.detach()
		c.closeLocked()
		return written, err
	case c.state == Parked:
		c.release()
	default:
		if c.state == Sending { // the parser has not run: no time was taken yet
			c.takeTransmits()
		}
		c.to(Reading)
	}
	return written, nil // a response is arriving: the exchange goes on
}

// takeTransmits takes the transmit stamps off the connection's error
// queue. While the exchange waits for the stamp of its request — the
// first whose key is at or after its first byte; older ones belong to an
// earlier request — it reports it and stops there: the queue is then
// almost always empty, and a read to find it so would cost a system call
// per request. Stamps left behind keep epoll's error condition up (the
// set is level-triggered), and the reactor takes them at its next look
// (poller.run looks again after an error). The sender looks right after
// its write; a stamp the kernel queues later (a write held back behind
// the connection's earlier packets) is taken when epoll reports it,
// unless the response has begun by then. c.mu is held.
func (c *Conn) takeTransmits() {
	if !c.txOn {
		return
	}
	now := time.Now()
	for {
		key, at, ok, err := sockstamp.ReadTX(c.fd, c.txOOB)
		if err != nil || !ok {
			return
		}
		if c.txWaiting && int32(key-c.txFirst) >= 0 {
			c.txWaiting = false
			c.call.x.Transmitted(sockstamp.At(now, at), c.call.setup)
			return
		}
	}
}

// readable reads what the connection has and resumes its exchange;
// failed says epoll reported an error condition, which a queued transmit
// stamp also raises. full says the read filled buf: more may be waiting.
func (c *Conn) readable(buf, oob []byte, failed bool) (full bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == Closed || (c.h != nil && c.h.paused) {
		return false // paused: an event of the batch that took it out of the set
	}
	if failed {
		c.takeTransmits()
	}
	n, rx, wouldBlock, err := sockstamp.Read(c.fd, buf, oob)
	if wouldBlock {
		return false
	}
	if c.state == Idle {
		// Idle: the server closed the connection, or sent bytes nobody
		// asked for.
		c.closeLocked()
		return false
	}
	full = n == len(buf)
	c.txWaiting = false // the response began: its times are being taken
	// Reads stamped from one kernel timestamp convert to the monotonic
	// clock a few ns apart: stamps never go back.
	now := time.Now()
	at := sockstamp.At(now, rx)
	if at.Before(c.lastAt) {
		at = c.lastAt
	}
	if err == nil && n > 0 && c.cap != nil && c.splitFeed(buf[:n], now) {
		return full
	}
	if rx != 0 {
		c.call.x.NoteLag(now.Sub(at))
	}
	c.lastAt = at
	c.deliver(buf[:n], at, err)
	return full
}

// deliver hands one read (or one piece of it) to the exchange: to its
// handoff reader, or to its coroutine.
func (c *Conn) deliver(b []byte, at time.Time, err error) {
	if c.h != nil {
		if err == nil && len(b) == 0 {
			err = io.EOF
		}
		c.h.push(c, b, at, err)
		return
	}
	if c.state != Parked { // else the response ended already
		c.feed(b, at, err)
	}
}

// splitFeed delivers the read b piece by piece, each run of bytes that
// arrived together with its own arrival from the capture; false when the
// capture has not seen all of b (then nothing was delivered).
func (c *Conn) splitFeed(b []byte, now time.Time) bool {
	pieces, ok := c.cap.Split(c.off, len(b), c.pieces[:0])
	c.pieces = pieces[:0]
	base := c.off
	c.off += uint64(len(b))
	if !ok {
		return false
	}
	start := 0
	for _, pc := range pieces {
		if c.call == nil || c.state == Closed || c.state == Idle {
			return true // the exchange ended on an earlier piece
		}
		at := pc.At
		if at.Before(c.lastAt) {
			at = c.lastAt // never back in time
		}
		c.lastAt = at
		c.call.x.NoteLag(now.Sub(at))
		end := int(pc.End - base)
		c.deliver(b[start:end], at, nil)
		start = end
	}
	return true
}

// feed resumes the coroutine with one read: its bytes, or its error (an
// empty read is the end of the connection).
func (c *Conn) feed(b []byte, at time.Time, err error) {
	c.readAt = at
	if c.sink != nil {
		c.pushRead(b, err)
		return
	}
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
func (c *Conn) interrupted(x Exchange) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.call == nil || c.call.x != x || c.state == Parked {
		return // ended
	}
	if c.sink != nil {
		c.endPush(context.Cause(x.Context()))
		return
	}
	if c.next == nil {
		return // a handoff: its reader wakes with the context
	}
	if c.err == nil {
		c.err = context.Cause(x.Context())
	}
	c.resume()
}

// resume runs the exchange's coroutine until it waits for bytes again or
// ends.
func (c *Conn) resume() {
	if c.state == Sending {
		c.to(SendingReading)
	}
	if _, more := c.next(); more {
		return
	}
	if c.sink != nil {
		c.startPush()
		return
	}
	c.pending = c.pending[:0:0] // the reactor's buffer is reused
	c.finish()
}

// finish ends the exchange once its response was read: the connection is
// released, or parked while its request is still being written.
func (c *Conn) finish() {
	if c.state == SendingReading {
		c.to(Parked) // the sender releases it after its write
		return
	}
	c.release()
}

// release ends the exchange: the connection goes back to the pool if it
// can serve another one, else it is closed.
func (c *Conn) release() {
	k, keep := c.call, c.keep && c.err == nil
	if h := c.h; h != nil {
		keep = keep && h.err == nil && len(h.queue) == 0
		if keep && h.paused {
			c.r.p.watch(c.fd, true)
		}
	}
	c.detach()
	if keep && c.pool.put(c) {
		c.to(Idle) // c.mu is held: nobody attaches before this
	} else {
		c.closeLocked()
	}
	c.reused = true
	close(k.ended)
}

// releaseNow releases the connection from the goroutine that read a
// handoff.
func (c *Conn) releaseNow() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.release()
}

// detach forgets the exchange.
func (c *Conn) detach() {
	c.call, c.h, c.next, c.stop, c.yield = nil, nil, nil, nil, nil
	c.sink, c.frame = nil, nil
	c.txWaiting = false
	c.putReader()
}

// putReader gives the connection's read buffer back to the pool, if it
// holds one.
func (c *Conn) putReader() {
	if c.br != nil {
		c.br.Reset(nil)
		readers.Put(c.br)
		c.br = nil
	}
}

// closeLocked closes the connection; c.mu is held.
func (c *Conn) closeLocked() {
	if c.state == Closed {
		return
	}
	c.to(Closed)
	c.pool.remove(c)
	c.r.forget(c)
	if c.cap != nil {
		c.cap.Close()
	}
}
