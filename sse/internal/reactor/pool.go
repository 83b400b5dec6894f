package reactor

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"syscall"
	"time"

	"github.com/usefullatency/usefullatency/internal/pktcap"
	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// Pool is one client's kept-alive connections per host:port, read by the
// process's reactor. A connection idle for idleTimeout is closed by the
// pool's reaper, a timer armed while the pool holds connections.
type Pool struct {
	r           *reactor
	dial        func(ctx context.Context, network, addr string) (net.Conn, error)
	maxIdle     int
	idleTimeout time.Duration

	capture *pktcap.Capture // nil: reads stamped by the socket alone

	mu     sync.Mutex
	idle   map[string][]*Conn // per address, the most recently used last
	reaper *time.Timer        // nil while disarmed
}

// Track makes the pool's new connections read by segment arrival from
// capture (nil: by the socket's stamps alone). Call it before the first
// request.
func (p *Pool) Track(capture *pktcap.Capture) {
	if p != nil {
		p.capture = capture
	}
}

// NewPool returns a pool on the process's reactor, or nil where there is
// none (see Available). It dials with dial, keeps at most maxIdle idle
// connections per address, each for at most idleTimeout.
func NewPool(dial func(ctx context.Context, network, addr string) (net.Conn, error), maxIdle int, idleTimeout time.Duration) *Pool {
	r := theReactor()
	if r == nil {
		return nil
	}
	return &Pool{r: r, dial: dial, maxIdle: maxIdle, idleTimeout: idleTimeout, idle: map[string][]*Conn{}}
}

// get returns a connection to addr with x attached: the most recently used
// idle one unless fresh, else a new one.
func (p *Pool) get(ctx context.Context, addr string, fresh bool, x Exchange, hreq *http.Request) (*Conn, *call, error) {
	for !fresh {
		c := p.take(addr)
		if c == nil {
			break
		}
		if k := c.attach(x, hreq); k != nil {
			return c, k, nil
		}
	}
	c, st, err := p.connect(ctx, addr)
	if err != nil {
		return nil, nil, err
	}
	k := c.attach(x, hreq)
	if k == nil {
		return nil, nil, fmt.Errorf("connection to %s closed before use", addr)
	}
	k.setup = st.setup
	x.Connected(st.connect)
	return c, k, nil
}

// take removes the most recent idle connection to addr from the pool,
// unless it has been idle too long (the reaper closes it).
func (p *Pool) take(addr string) *Conn {
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
func (p *Pool) put(c *Conn) bool {
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
func (p *Pool) reap() {
	now := time.Now()
	var expired []*Conn
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
func (p *Pool) remove(c *Conn) {
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

// CloseIdle closes every idle connection.
func (p *Pool) CloseIdle() {
	p.mu.Lock()
	var all []*Conn
	for addr, cs := range p.idle {
		all = append(all, cs...)
		delete(p.idle, addr)
	}
	p.mu.Unlock()
	closeUnused(all)
}

// closeUnused closes the connections that serve no exchange (one taken
// from the pool meanwhile is left alone).
func closeUnused(cs []*Conn) {
	for _, c := range cs {
		c.mu.Lock()
		if c.call == nil {
			c.closeLocked()
		}
		c.mu.Unlock()
	}
}

// connect dials addr with the client's dialer (DNS, timeouts, errors as
// net/http reports them) and hands the socket to the reactor, with the
// times of its set-up (setupTimes).
func (p *Pool) connect(ctx context.Context, addr string) (c *Conn, st setupTimes, err error) {
	var ct connectTimes
	began := time.Now()
	nc, err := p.dial(httptrace.WithClientTrace(ctx, ct.trace()), "tcp", addr)
	if err != nil {
		return nil, st, err
	}
	dial := time.Since(began)
	var stream *pktcap.Stream
	if p.capture != nil {
		stream, _ = p.capture.Track(nc)
	}
	fd, err := takeFD(nc)
	if err != nil {
		if stream != nil {
			stream.Close()
		}
		return nil, st, err
	}
	rtt, rttOK := sockstamp.HandshakeRTT(fd)
	st = newSetupTimes(dial, ct.took(), rtt, rttOK)
	_ = sockstamp.Enable(fd) // without receive times, bytes are stamped when read
	c = &Conn{r: p.r, pool: p, fd: fd, addr: addr, cap: stream}
	if sockstamp.EnableTX(fd) == nil { // without, a request's times start when it is handed over
		c.txOn, c.txOOB = true, make([]byte, sockstamp.TXOOBSize)
	}
	if err := p.r.register(c); err != nil {
		closeFD(fd)
		if stream != nil {
			stream.Close()
		}
		return nil, setupTimes{}, err
	}
	return c, st, nil
}

// setupTimes are the times of a new connection's set-up.
type setupTimes struct {
	// connect is the TCP connect (Exchange.Connected).
	connect time.Duration
	// setup is the whole set-up the request's times count back over from
	// its kernel send time (Exchange.Transmitted): the dial's duration,
	// DNS included, with the TCP connect counted as connect.
	setup time.Duration
}

// newSetupTimes returns the set-up of a dial that took dial, whose TCP
// connect took took as the program saw it (0: the dialer reported none)
// and rtt as the kernel measured the handshake's round trip (rttOK). The
// connect is the kernel's figure, else the program's, else the whole dial;
// the set-up is the dial less the time the program took to notice that
// the handshake had completed (took - rtt), so a busy runner lengthens
// neither:
//
//	setup = dial - (took - connect), when 0 < took - connect < dial; else dial
func newSetupTimes(dial, took, rtt time.Duration, rttOK bool) setupTimes {
	connect := took
	switch {
	case rttOK:
		connect = rtt
	case took <= 0:
		connect = dial
	}
	setup := dial
	if late := took - connect; late > 0 && late < dial {
		setup -= late
	}
	return setupTimes{connect: connect, setup: setup}
}

// connectTimes is what the program saw of a dial's TCP connect: when the
// last attempt started and when one succeeded (a dual-stack dial races
// attempts on several goroutines).
type connectTimes struct {
	mu          sync.Mutex
	start, done time.Time
}

// trace returns the hooks package net calls around each connect.
func (ct *connectTimes) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		ConnectStart: func(string, string) {
			ct.mu.Lock()
			ct.start = time.Now()
			ct.mu.Unlock()
		},
		ConnectDone: func(_, _ string, err error) {
			if err == nil {
				ct.mu.Lock()
				ct.done = time.Now()
				ct.mu.Unlock()
			}
		},
	}
}

// took returns how long the successful connect took as the program saw
// it; 0 when the dialer reported none.
func (ct *connectTimes) took() time.Duration {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	if ct.start.IsZero() || ct.done.Before(ct.start) {
		return 0
	}
	return ct.done.Sub(ct.start)
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

// IdleStates returns the states of the connections the pool keeps idle
// (each should be Idle), for tests and diagnostics.
func (p *Pool) IdleStates() []State {
	p.mu.Lock()
	var cs []*Conn
	for _, idle := range p.idle {
		cs = append(cs, idle...)
	}
	p.mu.Unlock()
	states := make([]State, 0, len(cs))
	for _, c := range cs {
		c.mu.Lock()
		states = append(states, c.state)
		c.mu.Unlock()
	}
	return states
}

// Open returns how many of the pool's connections the reactor still
// watches, in use or idle.
func (p *Pool) Open() int {
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	n := 0
	for _, c := range p.r.conns {
		if c != nil && c.pool == p {
			n++
		}
	}
	return n
}
