// Package reactor reads every plain-HTTP/1.1 stream of the probe on one
// goroutine: an epoll set parked in Go's network poller, one read per
// arrival, each read stamped with the kernel's receive time. A
// connection's response head is parsed by net/http's own parser in a
// coroutine the reactor resumes when bytes arrive; the exchange then reads
// the body in that coroutine, or has the reactor push it as it arrives to
// a Sink through the body's framing (sink.go, framing.go), the coroutine
// ended. A request whose stream runs JavaScript callbacks is parsed on the
// caller's goroutine instead, from stamped chunks the reactor hands it
// (handoff.go).
//
// The reactor knows an exchange only through the Exchange interface: its
// context, its header limit, whether it parses on its own goroutine, and
// where the response goes. Package sse sends plain-HTTP requests through a
// Pool's Do and every other request through net/http.
package reactor

import (
	"sync"
	"sync/atomic"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// readBufSize is the reactor's read size: one read takes everything a
// stream has pending, in practice.
const readBufSize = 64 << 10

// reactor waits on an epoll set and, for each connection with bytes to
// read, reads them once, stamps them with the kernel's receive time, and
// resumes the coroutine that parses that connection's response. No
// goroutine waits per connection, and no read returns "would block":
// net/http's per-event costs (a parked goroutine, a wake-up, two reads)
// become one read per event.
type reactor struct {
	p   *poller
	buf []byte
	oob []byte // the receive timestamp of the last read

	mu sync.Mutex
	// conns are the watched connections by descriptor: descriptors are
	// small numbers, so a slice indexed by them is the cheapest lookup of
	// the one made for every read.
	conns  []*Conn
	cancel []interruption // exchanges canceled since the last wake-up
}

// interruption is an exchange to resume with its context's cause.
type interruption struct {
	c *Conn
	x Exchange
}

var (
	sharedOnce    sync.Once
	sharedReactor *reactor
)

// theReactor returns the process's reactor, started on first use; nil
// where the platform has none or it failed to start.
func theReactor() *reactor {
	sharedOnce.Do(func() {
		p, err := newPoller()
		if err != nil {
			return
		}
		sharedReactor = &reactor{p: p, buf: make([]byte, readBufSize), oob: make([]byte, sockstamp.OOBSize)}
		go sharedReactor.p.run(sharedReactor.ready, sharedReactor.woken)
	})
	return sharedReactor
}

// Available reports whether this process has a reactor: Linux, not built
// with the noreactor tag, and its epoll set started.
func Available() bool { return theReactor() != nil }

// register starts watching a connection.
func (r *reactor) register(c *Conn) error {
	r.mu.Lock()
	if c.fd >= len(r.conns) {
		r.conns = append(r.conns, make([]*Conn, c.fd+1-len(r.conns))...)
	}
	r.conns[c.fd] = c
	r.mu.Unlock()
	if err := r.p.add(c.fd); err != nil {
		r.drop(c)
		return err
	}
	return nil
}

// drop takes c out of the watched connections.
func (r *reactor) drop(c *Conn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.fd < len(r.conns) && r.conns[c.fd] == c {
		r.conns[c.fd] = nil
	}
}

// forget stops watching a connection and closes it.
func (r *reactor) forget(c *Conn) {
	r.p.remove(c.fd)
	r.drop(c)
	closeFD(c.fd)
}

// interrupt asks the reactor to resume c's exchange x with its context's
// cause, so that a read waiting for bytes returns.
func (r *reactor) interrupt(c *Conn, x Exchange) {
	r.mu.Lock()
	r.cancel = append(r.cancel, interruption{c, x})
	r.mu.Unlock()
	r.p.wake()
}

// ready handles a readable connection, or one in an error condition,
// given its epoll events; again says it may still be readable after its
// read (poller.run).
func (r *reactor) ready(fd int, events uint32) (again bool) {
	var c *Conn
	r.mu.Lock()
	if fd < len(r.conns) {
		c = r.conns[fd]
	}
	r.mu.Unlock()
	if c == nil {
		return false
	}
	full := c.readable(r.buf, r.oob, events&pollFailed != 0)
	return full || events&(pollFailed|pollEnded) != 0
}

// woken runs the interruptions posted since the last wake-up.
func (r *reactor) woken() {
	r.mu.Lock()
	cs := r.cancel
	r.cancel = nil
	r.mu.Unlock()
	for _, in := range cs {
		in.c.interrupted(in.x)
	}
}

// Hold stops the reactor from reading any connection until release is
// called: the reactor looks connections up under its lock. It exists for
// tests that need a runner that reads late.
func Hold() (release func()) {
	r := theReactor()
	if r == nil {
		return func() {}
	}
	r.mu.Lock()
	return r.mu.Unlock
}

// handoffReads counts the reads queued to every handoff of the process.
var handoffReads atomic.Int64

// QueuedReads returns how many reads the reactor has queued to callers
// that parse their own responses, since the process started: a connection
// at its end must not be read again and again (tests watch it).
func QueuedReads() int64 { return handoffReads.Load() }
