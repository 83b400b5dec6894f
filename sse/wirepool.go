package sse

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// wirePool is a Client's kept-alive connections per host:port. A
// connection idle for idleTimeout is closed by the pool's reaper, a timer
// armed while the pool holds connections.
type wirePool struct {
	r           *reactor
	dial        func(ctx context.Context, network, addr string) (net.Conn, error)
	maxIdle     int
	idleTimeout time.Duration

	mu     sync.Mutex
	idle   map[string][]*wireConn // per address, the most recently used last
	reaper *time.Timer            // nil while disarmed
}

// newWirePool returns a pool on the process's reactor, or nil where there is
// none.
func newWirePool(dial func(ctx context.Context, network, addr string) (net.Conn, error), maxIdle int, idleTimeout time.Duration) *wirePool {
	r := theReactor()
	if r == nil {
		return nil
	}
	return &wirePool{r: r, dial: dial, maxIdle: maxIdle, idleTimeout: idleTimeout, idle: map[string][]*wireConn{}}
}

// get returns a connection to addr with x attached: the most recently used
// idle one unless fresh, else a new one.
func (p *wirePool) get(ctx context.Context, addr string, fresh bool, x *exchange, hreq *http.Request) (*wireConn, error) {
	for !fresh {
		c := p.take(addr)
		if c == nil {
			break
		}
		if c.attach(x, hreq) {
			return c, nil
		}
	}
	c, err := p.connect(ctx, addr)
	if err != nil {
		return nil, err
	}
	if !c.attach(x, hreq) {
		return nil, fmt.Errorf("connection to %s closed before use", addr)
	}
	return c, nil
}

// take removes the most recent idle connection to addr from the pool,
// unless it has been idle too long (the reaper closes it).
func (p *wirePool) take(addr string) *wireConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	cs := p.idle[addr]
	if len(cs) == 0 {
		return nil
	}
	c := cs[len(cs)-1]
	if time.Since(c.idleSince) >= p.idleTimeout {
		return nil // the others are older still
	}
	p.idle[addr] = cs[:len(cs)-1]
	return c
}

// put returns a connection to the pool; false if the pool is full. The
// caller holds c.mu.
func (p *wirePool) put(c *wireConn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle[c.addr]) >= p.maxIdle {
		return false
	}
	c.idleSince = time.Now()
	p.idle[c.addr] = append(p.idle[c.addr], c)
	if p.reaper == nil {
		p.reaper = time.AfterFunc(p.idleTimeout, p.reap)
	}
	return true
}

// reap closes the connections idle for idleTimeout or more, and re-arms
// itself for the next one to expire while any is left.
func (p *wirePool) reap() {
	now := time.Now()
	var expired []*wireConn
	next := time.Duration(-1)
	p.mu.Lock()
	for addr, cs := range p.idle {
		keep := cs[:0]
		for _, c := range cs {
			if left := p.idleTimeout - now.Sub(c.idleSince); left > 0 {
				keep = append(keep, c)
				if next < 0 || left < next {
					next = left
				}
			} else {
				expired = append(expired, c)
			}
		}
		if p.idle[addr] = keep; len(keep) == 0 {
			delete(p.idle, addr)
		}
	}
	p.reaper = nil
	if next >= 0 {
		p.reaper = time.AfterFunc(next, p.reap)
	}
	p.mu.Unlock()
	closeUnused(expired)
}

// remove drops a connection from the pool.
func (p *wirePool) remove(c *wireConn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cs := p.idle[c.addr]
	for i, o := range cs {
		if o == c {
			p.idle[c.addr] = append(cs[:i], cs[i+1:]...)
			return
		}
	}
}

// closeIdle closes every idle connection.
func (p *wirePool) closeIdle() {
	p.mu.Lock()
	var all []*wireConn
	for addr, cs := range p.idle {
		all = append(all, cs...)
		delete(p.idle, addr)
	}
	p.mu.Unlock()
	closeUnused(all)
}

// closeUnused closes the connections that serve no exchange (one taken
// from the pool meanwhile is left alone).
func closeUnused(cs []*wireConn) {
	for _, c := range cs {
		c.mu.Lock()
		if c.x == nil {
			c.closeLocked()
		}
		c.mu.Unlock()
	}
}

// connect dials addr with the client's dialer (DNS, timeouts, errors as
// net/http reports them) and hands the socket to the reactor.
func (p *wirePool) connect(ctx context.Context, addr string) (*wireConn, error) {
	nc, err := p.dial(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	fd, err := takeFD(nc)
	if err != nil {
		return nil, err
	}
	_ = sockstamp.Enable(fd) // without receive times, bytes are stamped when read
	c := &wireConn{r: p.r, pool: p, fd: fd, addr: addr}
	if err := p.r.register(c); err != nil {
		closeFD(fd)
		return nil, err
	}
	return c, nil
}

// takeFD moves a dialed connection's socket out of Go's network poller: it
// duplicates the descriptor and closes the original.
func takeFD(nc net.Conn) (int, error) {
	defer nc.Close()
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return -1, fmt.Errorf("%T has no file descriptor", nc)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var dupErr error
	if err := raw.Control(func(s uintptr) { fd, dupErr = dupFD(int(s)) }); err != nil {
		return -1, err
	}
	return fd, dupErr
}
