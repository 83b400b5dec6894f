package k6http

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http/httptrace"
	"time"
)

// directConn is a connection of the direct transport: what the dialer
// returned (a wireConn), the reader of its responses, and its place in
// the idle pool.
type directConn struct {
	conn net.Conn
	br   *bufio.Reader
	// addr is the host:port it was dialed for, its pool's key.
	addr string
	// limit is how many more bytes reads may take: the header limit
	// while a response's head is read.
	limit int64
	// sawEOF is set once a read met the end of the stream.
	sawEOF bool
	// reused is set once the connection went back to the pool.
	reused bool
	// live checks an idle connection before its reuse.
	live liveness
	// interrupt makes blocked reads and writes fail at once (bound once,
	// so that arming it allocates no method value).
	interrupt func()
	// deadline is the deadline last set on the connection (setDeadline);
	// zero for none.
	deadline time.Time

	// idleAt, inPool, timer and armed are guarded by the pool's lock:
	// when the connection was last kept, whether it is kept now, and its
	// idle timer, armed while it runs.
	idleAt        time.Time
	inPool, armed bool
	timer         *time.Timer
}

// newDirectConn wraps a connection just dialed for addr.
func newDirectConn(conn net.Conn, addr string) *directConn {
	c := &directConn{conn: conn, addr: addr, limit: math.MaxInt64}
	c.br = bufio.NewReaderSize(c, readBufferSize)
	c.live = newLiveness(conn)
	c.interrupt = func() { _ = conn.SetDeadline(time.Unix(1, 0)) }
	return c
}

// Read reads from the connection within the read limit, noting its end.
func (c *directConn) Read(p []byte) (int, error) {
	if c.limit <= 0 {
		return 0, errHeaderLimit
	}
	if int64(len(p)) > c.limit {
		p = p[:c.limit]
	}
	n, err := c.conn.Read(p)
	c.limit -= int64(n)
	if errors.Is(err, io.EOF) {
		c.sawEOF = true
	}
	return n, err
}

// setDeadline sets the connection's deadline to ctx's, that of the
// exchange it is to carry (none when ctx has none), before the idle
// check, which a past deadline would fail.
func (c *directConn) setDeadline(ctx context.Context) {
	d, _ := ctx.Deadline()
	if !d.Equal(c.deadline) {
		_ = c.conn.SetDeadline(d)
		c.deadline = d
	}
}

// checkIdleAfter is how long a connection stays idle before its reuse
// by a replayable request checks that it is still open. Servers close
// idle connections after seconds (5 s for Node.js, 75 s for nginx); a
// replayable request on one closed sooner is sent again on another (see
// failure.retryable), and at thousands of requests a second the check,
// a system call, would cost more than the rare retry.
const checkIdleAfter = time.Second

// reusable reports whether the connection, idle for idle, may carry a
// request: it checks that the connection is still open (see liveness)
// unless the request is replayable and the connection was idle only
// briefly.
func (c *directConn) reusable(idle time.Duration, replayable bool) bool {
	if replayable && idle < checkIdleAfter {
		return true
	}
	return c.live.check()
}

// errHeaderLimit fails a read past the header limit; the exchange reports
// net/http's message instead.
var errHeaderLimit = errors.New("k6/http: response header limit reached")

// send writes msg, the whole request, in one write and fires the
// WroteRequest hook.
func (c *directConn) send(ctx context.Context, trace *httptrace.ClientTrace, msg []byte) *failure {
	n, err := c.conn.Write(msg)
	if trace != nil && trace.WroteRequest != nil {
		trace.WroteRequest(httptrace.WroteRequestInfo{Err: err})
	}
	switch {
	case err == nil:
		return nil
	case n == 0:
		return newFailure(ctx, err, stageUnwritten)
	}
	return newFailure(ctx, fmt.Errorf("net/http: HTTP/1.x transport connection broken: %w", err), stageBroken)
}

// close closes the connection and stops its idle timer, which would keep
// it in memory until it fires. The connection is not in the pool.
func (c *directConn) close() {
	if c.timer != nil {
		c.timer.Stop()
	}
	_ = c.conn.Close()
}
