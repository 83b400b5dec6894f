package sse

import (
	"context"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/internal/pktcap"
	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// stampConn is a TCP connection whose every read carries the time the
// kernel received its bytes (SO_TIMESTAMPNS, read with recvmsg on the raw
// descriptor), placed on Go's monotonic clock as the reactor does
// (sockstamp.At). It sits under crypto/tls and under net/http's HTTP/1.1
// reader, so bytes decoded from its reads — TLS records, HTTP/2 frames,
// chunks — can be given the stamp of the read that completed them instead
// of the moment a busy program got around to reading them.
//
// Reads are stamped in the order they happen; at returns the stamp of the
// latest read. Whoever decodes the stream on top (tls.Conn, the HTTP/1.1
// body reader, frameTap) reads the latest stamp right after a read returns,
// on the same goroutine, so it is the stamp of the read that held the last
// byte it decoded.
type stampConn struct {
	*sockstamp.Conn // the TCP connection, read with its kernel stamps

	// With a capture: the connection's stream in it, the bytes read so
	// far, and the rest of a read split at segment boundaries, handed out
	// piece by piece with each piece's arrival (on the reading goroutine).
	cap    *pktcap.Stream
	off    uint64
	rest   []byte
	pieces []pktcap.Piece

	// rtt is the kernel's round trip of the TCP handshake, read when the
	// connection was dialed (rttOK: the kernel gave one).
	rtt   time.Duration
	rttOK bool
	// hello is the offset of the ClientHello's first byte plus one: 0
	// until a TLS handshake starts (Write).
	hello atomic.Uint64

	mu     sync.Mutex
	last   time.Time     // the stamp of the latest read
	maxLag time.Duration // the longest read lag since takeLag
	reads  int64
	tap    *frameTap // set when HTTP/2 runs over the connection
	// hsEnd is the stamp of the read that completed the server's last TLS
	// handshake flight (handshakeDone); zero before.
	hsEnd time.Time
}

// tlsHandshakeRecord is the content type of a TLS handshake record (RFC
// 8446, section 5.1), the first byte of a ClientHello on the wire.
const tlsHandshakeRecord = 0x16

// newStampConn wraps a TCP connection; ok is false where the kernel
// stamps nothing (not Linux, or the option was refused), and then c is
// returned as it is.
func newStampConn(c net.Conn) (net.Conn, bool) {
	sc, ok := sockstamp.NewConn(c)
	if !ok {
		return c, false
	}
	sc.EnableTX()
	sc.Mark() // the first write: a TLS ClientHello or a request
	stc := &stampConn{Conn: sc}
	stc.rtt, stc.rttOK = sc.ConnectRTT() // now, before later round trips update the kernel's estimate
	return stc, true
}

// Write implements net.Conn. The first write that starts with a TLS
// handshake record is the ClientHello (the first write, or the first after
// a proxy's CONNECT exchange): its transmit stamp is asked for and its
// offset kept, where handshakeTime starts. A plain connection's body may
// start with that byte too; its handshake is never asked for.
func (c *stampConn) Write(p []byte) (int, error) {
	if len(p) > 0 && p[0] == tlsHandshakeRecord && c.hello.Load() == 0 {
		c.hello.Store(c.Mark() + 1)
	}
	return c.Conn.Write(p)
}

// Read implements net.Conn: one recvmsg, stamped. With a capture, a read
// that holds bytes of several segment arrivals returns only the first
// run, stamped with its arrival; the next Reads hand out the others.
func (c *stampConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(c.rest) > 0 {
		return c.nextPiece(p), nil
	}
	n, rx, err := c.ReadStamped(p)
	if err != nil && err != io.EOF { // the end of the stream is a read too
		return n, err
	}
	now := time.Now()
	if c.cap == nil || n == 0 {
		c.stamp(now, rx)
		return n, err
	}
	pieces, ok := c.cap.Split(c.off, n, c.pieces[:0])
	if !ok {
		c.off += uint64(n)
		c.stamp(now, rx)
		return n, err
	}
	first := int(pieces[0].End - c.off)
	c.stampAt(now, pieces[0].At)
	c.off += uint64(first)
	if first < n {
		c.rest, c.pieces = append(c.rest[:0], p[first:n]...), append(c.pieces[:0], pieces[1:]...)
	}
	return first, err
}

// nextPiece hands out the next piece of a split read (or as much of it as
// p takes), stamped with its arrival.
func (c *stampConn) nextPiece(p []byte) int {
	pc := c.pieces[0]
	k := copy(p, c.rest[:pc.End-c.off])
	c.rest, c.off = c.rest[k:], c.off+uint64(k)
	if c.off == pc.End {
		c.pieces = c.pieces[1:]
	}
	c.stampAt(time.Now(), pc.At)
	return k
}

// stamp records a read done at now of bytes the kernel received at rx.
func (c *stampConn) stamp(now time.Time, rx int64) {
	c.stampAt(now, sockstamp.At(now, rx))
}

// stampAt records a read done at now of bytes that arrived at at. Stamps
// never go back: reads stamped from one kernel timestamp convert to the
// monotonic clock a few nanoseconds apart.
func (c *stampConn) stampAt(now, at time.Time) {
	c.mu.Lock()
	if at.Before(c.last) {
		at = c.last
	}
	c.last = at
	c.reads++
	if lag := now.Sub(at); lag > c.maxLag {
		c.maxLag = lag
	}
	c.mu.Unlock()
}

// Close implements net.Conn and stops following the connection in the
// capture.
func (c *stampConn) Close() error {
	if c.cap != nil {
		c.cap.Close()
	}
	return c.Conn.Close()
}

// at returns the stamp of the latest read; the zero time before any.
func (c *stampConn) at() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// takeLag returns the longest read lag (read time minus kernel stamp) since
// the last call, and starts a new period.
func (c *stampConn) takeLag() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.maxLag
	c.maxLag = 0
	return l
}

// stampDialer dials TCP connections, with the client's dial function, that
// stamp their reads, by segment where a capture is given.
type stampDialer struct {
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	capture *pktcap.Capture
}

// DialContext dials addr and wraps the connection in a stampConn when the
// kernel can stamp it; the request's dialTrace notes it.
func (s stampDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := s.dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	nc, ok := newStampConn(c)
	if !ok {
		return nc, nil
	}
	stamped := nc.(*stampConn)
	if s.capture != nil {
		stamped.cap, _ = s.capture.Track(c)
	}
	if d := dialTraceOf(ctx); d != nil {
		d.dialed(stamped)
	}
	return nc, nil
}

// stampOf finds the stampConn under a connection net/http handed out: the
// connection itself, or the one under a TLS client; nil if none.
func stampOf(c net.Conn) *stampConn {
	for c != nil {
		switch v := c.(type) {
		case *stampConn:
			return v
		case interface{ NetConn() net.Conn }:
			c = v.NetConn()
		default:
			return nil
		}
	}
	return nil
}

// connectTime returns the kernel's round trip of the connection's TCP
// handshake (SYN sent to SYN-ACK received), read right after the dial:
// how long connecting took on the network, without the time the program
// took to notice.
func (c *stampConn) connectTime() (time.Duration, bool) { return c.rtt, c.rttOK }

// handshakeDone notes that the TLS handshake over the connection ended:
// the latest read completed the server's last handshake flight. It is
// called when crypto/tls returns (httptrace's TLSHandshakeDone), before
// net/http starts reading the connection for responses.
func (c *stampConn) handshakeDone() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hsEnd.IsZero() {
		c.hsEnd = c.last
	}
}

// handshakeTime returns the kernel's time of the connection's TLS
// handshake: from the transmit stamp of the ClientHello to the receive
// stamp of the server's last handshake flight. A busy client's delays in
// between (processing the server's messages, a TLS 1.3 client's
// certificate checks) are left out: in TLS 1.3's one round trip the whole
// wait is the network's and the server's. ok is false without both
// stamps.
func (c *stampConn) handshakeTime() (time.Duration, bool) {
	c.mu.Lock()
	end := c.hsEnd
	c.mu.Unlock()
	hello := c.hello.Load()
	if hello == 0 || end.IsZero() {
		return 0, false
	}
	sent, ok := c.SentAt(hello - 1)
	if !ok || !end.After(sent) {
		return 0, false
	}
	return end.Sub(sent), true
}
