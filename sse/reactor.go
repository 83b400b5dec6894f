package sse

import (
	"sync"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// readBufSize is the reactor's read size: one read takes everything a
// stream has pending, in practice.
const readBufSize = 64 << 10

// reactor reads every plain-HTTP/1.1 stream of the process on one
// goroutine. It waits on an epoll set (parked in Go's network poller) and,
// for each connection with bytes to read, reads them once, stamps them
// with the kernel's receive time, and resumes the coroutine that parses
// that connection's response. No goroutine waits per connection, and no
// read returns "would block": net/http's per-event costs (a parked
// goroutine, a wake-up, two reads) become one read per event.
type reactor struct {
	p   *poller
	buf []byte
	oob []byte // the receive timestamp of the last read

	mu     sync.Mutex
	conns  map[int]*wireConn
	cancel []interruption // exchanges canceled since the last wake-up
}

// interruption is an exchange to resume with its context's cause.
type interruption struct {
	c *wireConn
	x *exchange
}

var (
	sharedOnce    sync.Once
	sharedReactor *reactor
)

// theReactor returns the process's reactor, started on first use; nil
// where the platform has none or it failed to start (the client then uses
// net/http for every request).
func theReactor() *reactor {
	sharedOnce.Do(func() {
		p, err := newPoller()
		if err != nil {
			return
		}
		sharedReactor = &reactor{p: p, buf: make([]byte, readBufSize), oob: make([]byte, sockstamp.OOBSize), conns: map[int]*wireConn{}}
		go sharedReactor.p.run(sharedReactor.ready, sharedReactor.woken)
	})
	return sharedReactor
}

// register starts watching a connection.
func (r *reactor) register(c *wireConn) error {
	r.mu.Lock()
	r.conns[c.fd] = c
	r.mu.Unlock()
	if err := r.p.add(c.fd); err != nil {
		r.mu.Lock()
		delete(r.conns, c.fd)
		r.mu.Unlock()
		return err
	}
	return nil
}

// forget stops watching a connection and closes it.
func (r *reactor) forget(c *wireConn) {
	r.p.remove(c.fd)
	r.mu.Lock()
	delete(r.conns, c.fd)
	r.mu.Unlock()
	closeFD(c.fd)
}

// interrupt asks the reactor to resume c's exchange with its context's
// cause, so that a read waiting for bytes returns.
func (r *reactor) interrupt(c *wireConn, x *exchange) {
	r.mu.Lock()
	r.cancel = append(r.cancel, interruption{c, x})
	r.mu.Unlock()
	r.p.wake()
}

// ready handles a readable connection.
func (r *reactor) ready(fd int) {
	r.mu.Lock()
	c := r.conns[fd]
	r.mu.Unlock()
	if c != nil {
		c.readable(r.buf, r.oob)
	}
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
