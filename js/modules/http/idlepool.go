package k6http

import (
	"sync"
	"time"
)

// idlePool keeps the idle connections of a direct transport, per host:port,
// the most recently used last, which is the one reused first. A
// connection idle for longer than the idle timeout is closed. It is safe
// for concurrent use (http.batch sends from several goroutines).
type idlePool struct {
	mu    sync.Mutex
	conns map[string][]*directConn
	n     int
	// max bounds the idle connections, maxPerHost those to one address;
	// 0 is no bound.
	max, maxPerHost int
	// timeout is how long a connection stays idle before it is closed;
	// 0 is for ever.
	timeout time.Duration
}

// newIdlePool returns a pool of the given bounds and idle timeout.
func newIdlePool(maxIdle, maxPerHost int, timeout time.Duration) *idlePool {
	return &idlePool{conns: map[string][]*directConn{}, max: maxIdle, maxPerHost: maxPerHost, timeout: timeout}
}

// get takes the most recently used idle connection to addr; nil when
// there is none.
func (p *idlePool) get(addr string) *directConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	stack := p.conns[addr]
	if len(stack) == 0 {
		return nil
	}
	c := stack[len(stack)-1]
	stack[len(stack)-1] = nil
	p.conns[addr] = stack[:len(stack)-1]
	p.n--
	c.inPool = false
	return c
}

// put keeps c as idle; false when the pool is full for its address, and
// the caller closes c. When the whole pool is full, its oldest connection
// is closed to make room.
func (p *idlePool) put(c *directConn) bool {
	p.mu.Lock()
	if p.maxPerHost > 0 && len(p.conns[c.addr]) >= p.maxPerHost {
		p.mu.Unlock()
		return false
	}
	var evicted *directConn
	if p.max > 0 && p.n >= p.max {
		evicted = p.oldest()
		p.remove(evicted)
	}
	c.reused, c.inPool, c.idleAt = true, true, time.Now()
	p.conns[c.addr] = append(p.conns[c.addr], c)
	p.n++
	p.arm(c)
	p.mu.Unlock()
	if evicted != nil {
		evicted.close()
	}
	return true
}

// arm makes sure c's idle timer runs: it fires at most once per idle
// timeout, not once per exchange, and expire re-arms it for a connection
// that was reused in between.
func (p *idlePool) arm(c *directConn) {
	switch {
	case p.timeout <= 0 || c.armed:
	case c.timer == nil:
		c.armed, c.timer = true, time.AfterFunc(p.timeout, func() { p.expire(c) })
	default:
		c.armed = true
		c.timer.Reset(p.timeout)
	}
}

// expire closes c when it has been idle for the idle timeout (its timer
// fired), re-arms the timer for when it will be when it is idle since
// less, and leaves it unarmed when it is in use.
func (p *idlePool) expire(c *directConn) {
	p.mu.Lock()
	if !c.inPool {
		c.armed = false
		p.mu.Unlock()
		return
	}
	if left := p.timeout - time.Since(c.idleAt); left > 0 {
		c.timer.Reset(left)
		p.mu.Unlock()
		return
	}
	p.remove(c)
	p.mu.Unlock()
	c.close()
}

// oldest returns the connection idle for the longest; the pool is not
// empty.
func (p *idlePool) oldest() *directConn {
	var o *directConn
	for _, stack := range p.conns {
		if len(stack) > 0 && (o == nil || stack[0].idleAt.Before(o.idleAt)) {
			o = stack[0]
		}
	}
	return o
}

// remove takes c, an idle connection, out of the pool.
func (p *idlePool) remove(c *directConn) {
	stack := p.conns[c.addr]
	for i, x := range stack {
		if x == c {
			copy(stack[i:], stack[i+1:])
			stack[len(stack)-1] = nil
			p.conns[c.addr] = stack[:len(stack)-1]
			break
		}
	}
	if len(p.conns[c.addr]) == 0 {
		delete(p.conns, c.addr)
	}
	p.n--
	c.inPool = false
}

// drain takes every idle connection out of the pool and returns them.
func (p *idlePool) drain() []*directConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	var all []*directConn
	for addr, stack := range p.conns {
		for _, c := range stack {
			c.inPool = false
			all = append(all, c)
		}
		delete(p.conns, addr)
	}
	p.n = 0
	return all
}
