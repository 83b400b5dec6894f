//go:build linux

package main

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// stampListener hands out plain-HTTP connections that know the kernel's
// receive time of their latest read and, around a response's headers, the
// kernel's send time of their last write: the server's own ground truth of
// when a request arrived and when its headers left, free of the server's
// scheduling delays.
type stampListener struct{ net.Listener }

// listenStamped wraps ln; connections whose socket refuses the stamps are
// handed out as they are. It keeps the kernel's receive stamping on for
// the server's life (sockstamp.KeepOn), so the first request of a
// connection is stamped too.
func listenStamped(ln net.Listener) net.Listener {
	sockstamp.KeepOn()
	return stampListener{ln}
}

// Accept implements net.Listener.
func (l stampListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	sc, ok := sockstamp.NewConn(c)
	if !ok {
		return c, nil
	}
	return &stampConn{conn: sc, Conn: c, txoob: make([]byte, sockstamp.TXOOBSize)}, nil
}

// stampConn is an accepted TCP connection that reads with the kernel's
// receive stamps and counts the bytes it writes. It embeds net.Conn, not
// *net.TCPConn, so that no ReadFrom (sendfile) writes behind its count.
type stampConn struct {
	net.Conn
	conn  *sockstamp.Conn
	txoob []byte // endTX's control messages (the handler's goroutine)
	rx    atomic.Int64
	sent  atomic.Int64 // bytes written since beginTX
}

// Read implements net.Conn: one recvmsg, whose kernel receive time becomes
// requestRX when it returned bytes.
func (c *stampConn) Read(p []byte) (int, error) {
	n, rx, err := c.conn.ReadStamped(p)
	if n > 0 {
		c.rx.Store(rx)
	}
	return n, err
}

// Write implements net.Conn and counts the bytes written.
func (c *stampConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.sent.Add(int64(n))
	return n, err
}

// requestRX is the kernel's receive time (Unix ns) of the latest read that
// returned bytes; at the start of a handler, the read that completed the
// request head. 0 when the kernel gave none.
func (c *stampConn) requestRX() int64 { return c.rx.Load() }

// beginTX turns the socket's transmit stamps on and counts the bytes
// written from now; false when the kernel refused.
func (c *stampConn) beginTX() bool {
	var err error
	if cerr := c.conn.Raw().Control(func(fd uintptr) { err = sockstamp.EnableTX(int(fd)) }); cerr != nil || err != nil {
		return false
	}
	c.sent.Store(0)
	return true
}

// endTX returns the kernel's send time (Unix ns) of the last byte written
// since beginTX, 0 when the kernel gave none within a second; then it
// turns the transmit stamps off and empties the error queue, so the
// events that follow are not stamped and the socket reports no POLLERR.
// Nothing may write between beginTX and endTX but the caller.
func (c *stampConn) endTX() int64 {
	last := uint32(c.sent.Load() - 1) // the stamp's key: bytes since EnableTX − 1
	var at int64
	_ = c.conn.Raw().Control(func(fd uintptr) {
		at = awaitSendStamp(int(fd), last, c.txoob, time.Second)
		_ = sockstamp.DisableTX(int(fd))
		for {
			if _, _, ok, err := sockstamp.ReadTX(int(fd), c.txoob); !ok || err != nil {
				return
			}
		}
	})
	return at
}

// awaitSendStamp reads fd's transmit stamps until the one whose key
// reaches last (earlier keys are earlier writes of the same response) and
// returns its time; it waits in poll for POLLERR, at most timeout. 0 when
// none came. Loopback transmits inside the write call, so the stamp is
// almost always there already; TCP autocorking can hold a write back
// until the packet before it has left.
func awaitSendStamp(fd int, last uint32, oob []byte, timeout time.Duration) int64 {
	deadline := time.Now().Add(timeout)
	for {
		key, at, ok, err := sockstamp.ReadTX(fd, oob)
		switch {
		case err != nil:
			return 0
		case ok && int32(key-last) >= 0:
			return at
		case ok:
			continue
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return 0
		}
		pfd := [1]unix.PollFd{{Fd: int32(fd)}} // POLLERR needs no request
		if _, err := unix.Poll(pfd[:], int(wait/time.Millisecond)+1); err != nil && !errors.Is(err, unix.EINTR) {
			return 0
		}
	}
}

// connKey is the request-context key of a request's stampConn.
type connKey struct{}

// connContext puts a stamping connection into its requests' contexts
// (http.Server.ConnContext).
func connContext(ctx context.Context, c net.Conn) context.Context {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	if sc, ok := c.(*stampConn); ok {
		return context.WithValue(ctx, connKey{}, sc)
	}
	return ctx
}

// requestConn returns the stamping connection of a request; nil on TLS
// and where the kernel stamps nothing.
func requestConn(ctx context.Context) *stampConn {
	sc, _ := ctx.Value(connKey{}).(*stampConn)
	return sc
}
