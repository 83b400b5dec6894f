package sse

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"syscall"
)

// wirePool is a Client's kept-alive connections per host:port.
type wirePool struct {
	r       *reactor
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	maxIdle int

	mu   sync.Mutex
	idle map[string][]*wireConn
}

// newWirePool returns a pool on the process's reactor, or nil where there is
// none.
func newWirePool(dial func(ctx context.Context, network, addr string) (net.Conn, error), maxIdle int) *wirePool {
	r := theReactor()
	if r == nil {
		return nil
	}
	return &wirePool{r: r, dial: dial, maxIdle: maxIdle, idle: map[string][]*wireConn{}}
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

// take removes the most recent idle connection to addr from the pool.
func (p *wirePool) take(addr string) *wireConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	cs := p.idle[addr]
	if len(cs) == 0 {
		return nil
	}
	c := cs[len(cs)-1]
	p.idle[addr] = cs[:len(cs)-1]
	return c
}

// put returns a connection to the pool; false if the pool is full.
func (p *wirePool) put(c *wireConn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle[c.addr]) >= p.maxIdle {
		return false
	}
	p.idle[c.addr] = append(p.idle[c.addr], c)
	return true
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
	for _, c := range all {
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
	_ = stampFD(fd) // without receive times, bytes are stamped when read
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
