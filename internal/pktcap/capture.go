package pktcap

import (
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// ErrNotPermitted reports that the process may not open a packet socket:
// it needs CAP_NET_RAW (root, or a container's or pod's capability), and
// Linux.
var ErrNotPermitted = errors.New("pktcap: opening a packet socket needs CAP_NET_RAW on Linux")

// Bounds of a Capture.
const (
	// keepSYNs is how many servers' SYNs a capture remembers for
	// connections not tracked yet (a connection is tracked once its
	// handshake completed, after its SYN passed).
	keepSYNs = 4096
	// drainEvery is how often a background goroutine empties the packet
	// socket, so that segments of untracked traffic don't fill it while no
	// reader drains it.
	drainEvery = 10 * time.Millisecond
)

// Capture is a packet socket that stamps the data segments of the
// connections tracked with it. Its methods are safe for concurrent use.
type Capture struct {
	fd   int
	stop chan struct{}
	done chan struct{}

	closeOnce sync.Once
	closeErr  error

	drainMu sync.Mutex // one drain at a time: the ring is read in order
	ring    *ring      // nil once closed: streams still read drain nothing

	mu sync.Mutex
	// streams are the tracked connections by their ports (portKey), each
	// a chain of the flows with those ports: the lookup made for every
	// segment is one of a 32-bit key, and a second flow on the same
	// ports (another address) is rare.
	streams map[uint32]*Stream
	syns    map[flow]uint32 // ISNs of servers whose connection is not tracked yet
	synList []flow          // syns' keys, oldest first

	segments atomic.Uint64 // data segments of tracked connections
	drops    atomic.Uint64 // packets the kernel dropped, buffer full
}

// Open opens the packet socket (ErrNotPermitted without CAP_NET_RAW) and
// starts its background drain.
func Open() (*Capture, error) {
	fd, r, err := openSocket()
	if err != nil {
		return nil, err
	}
	c := &Capture{
		fd: fd, stop: make(chan struct{}), done: make(chan struct{}), ring: r,
		streams: map[uint32]*Stream{}, syns: map[flow]uint32{},
	}
	go c.drainLoop()
	return c, nil
}

// Close stops the capture and closes its socket; closing again does
// nothing.
func (c *Capture) Close() error {
	c.closeOnce.Do(func() {
		close(c.stop)
		<-c.done
		c.drainMu.Lock()
		defer c.drainMu.Unlock()
		c.countDrops()
		r := c.ring
		c.ring = nil
		c.closeErr = errors.Join(closeFD(c.fd), r.close())
	})
	return c.closeErr
}

// Stats returns the data segments of tracked connections seen so far and
// the packets the kernel dropped because the socket's buffer was full.
func (c *Capture) Stats() (segments, drops uint64) {
	return c.segments.Load(), c.drops.Load()
}

// Track starts following the bytes conn receives; ok is false for a
// connection that is not TCP over IP. Track a connection right after it
// connected, before it sends: the server's SYN is then known.
func (c *Capture) Track(conn net.Conn) (s *Stream, ok bool) {
	local, lok := addrPort(conn.LocalAddr())
	remote, rok := addrPort(conn.RemoteAddr())
	if !lok || !rok {
		return nil, false
	}
	c.drain()
	k := flow{remote: remote, local: local}
	s = &Stream{c: c, key: k}
	c.mu.Lock()
	defer c.mu.Unlock()
	if isn, seen := c.syns[k]; seen {
		s.start(isn)
		delete(c.syns, k)
	}
	c.trackLocked(s)
	return s, true
}

// trackLocked files s under its flow, in place of an earlier stream of
// the same flow; c.mu is held.
func (c *Capture) trackLocked(s *Stream) {
	c.untrackLocked(s.key)
	pk := s.key.portKey()
	s.next, c.streams[pk] = c.streams[pk], s
}

// streamLocked returns the stream tracking k, or nil; c.mu is held.
func (c *Capture) streamLocked(k flow) *Stream {
	for s := c.streams[k.portKey()]; s != nil; s = s.next {
		if s.key == k {
			return s
		}
	}
	return nil
}

// untrackLocked stops tracking k's stream, if any; c.mu is held.
func (c *Capture) untrackLocked(k flow) {
	pk := k.portKey()
	head := c.streams[pk]
	switch {
	case head == nil:
	case head.key == k && head.next == nil:
		delete(c.streams, pk)
	case head.key == k:
		c.streams[pk] = head.next
	default:
		for s := head; s.next != nil; s = s.next {
			if s.next.key == k {
				s.next = s.next.next
				return
			}
		}
	}
}

// addrPort returns a TCP address as an unmapped netip.AddrPort.
func addrPort(a net.Addr) (netip.AddrPort, bool) {
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.AddrPort{}, false
	}
	ap := ta.AddrPort()
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), true
}

// drainLoop empties the ring every drainEvery until Close, and counts the
// packets the kernel dropped meanwhile.
func (c *Capture) drainLoop() {
	defer close(c.done)
	t := time.NewTicker(drainEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.drain()
			c.drainMu.Lock()
			c.countDrops()
			c.drainMu.Unlock()
		}
	}
}

// drain takes every packet waiting in the ring and gives the segments of
// tracked connections to their streams: no system call unless the kernel
// reports it dropped packets.
func (c *Capture) drain() {
	c.drainMu.Lock()
	defer c.drainMu.Unlock()
	if c.ring == nil {
		return
	}
	pkt, rx, losing, ok := c.ring.next()
	if !ok {
		return
	}
	now := time.Now() // places the kernel's wall-clock stamps on the program's clock
	c.mu.Lock()
	for ; ok; pkt, rx, losing, ok = c.ring.next() {
		if rx > now.UnixNano() { // came during the drain
			now = time.Now()
		}
		if seg, parsed := parse(pkt); parsed {
			c.takeLocked(seg, sockstamp.At(now, rx))
		}
		c.ring.release()
		if losing {
			c.countDrops()
		}
	}
	c.mu.Unlock()
}

// countDrops adds the packets the kernel dropped since the last count
// (PACKET_STATISTICS); drainMu is held.
func (c *Capture) countDrops() {
	if d := dropped(c.fd); d > 0 {
		c.drops.Add(d)
	}
}

// takeLocked files one segment that passed at at; c.mu is held.
func (c *Capture) takeLocked(seg segment, at time.Time) {
	k := flow{remote: seg.src, local: seg.dst}
	s := c.streamLocked(k)
	switch {
	case seg.synAck && s != nil:
		s.start(seg.seq)
	case seg.synAck:
		c.rememberSYN(k, seg.seq)
	case s != nil:
		c.segments.Add(1)
		s.add(seg.seq, seg.payload, at)
	}
}

// rememberSYN keeps a server's SYN for a connection not tracked yet,
// forgetting the oldest beyond keepSYNs.
func (c *Capture) rememberSYN(k flow, isn uint32) {
	if _, ok := c.syns[k]; !ok {
		c.synList = append(c.synList, k)
	}
	c.syns[k] = isn
	for len(c.synList) > keepSYNs {
		delete(c.syns, c.synList[0])
		c.synList = c.synList[1:]
	}
}
