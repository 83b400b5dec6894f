package reactor

import (
	"context"
	"time"
)

// handoffLimit is how many bytes a connection may have waiting for a slow
// reader before the reactor stops reading it (TCP then slows the server).
const handoffLimit = 1 << 20

// handoff carries a connection's bytes from the reactor to a goroutine that
// parses them itself: a request whose stream runs JavaScript callbacks is
// read on the goroutine that may run them (the VU's), not in a coroutine on
// the reactor, which serves every stream and must never wait for a script.
// The reactor still reads and stamps every chunk as it arrives, so a slow
// callback delays no stamp.
type handoff struct {
	ctx    context.Context // the exchange's: its end wakes the reader
	signal chan struct{}   // a chunk was queued

	// Under the connection's mu: filled by the reactor.
	queue  []arrived
	queued int
	paused bool // the reactor stopped reading the connection

	// The reader's own.
	cur     []byte
	err     error
	took    int64 // bytes handed to the reader
	bodyOut bool  // the response body was handed out: closing it releases the connection
}

// arrived is one read of the reactor with its stamp, or the read's error.
type arrived struct {
	b   []byte
	at  time.Time
	err error
}

// newHandoff returns a handoff for an exchange under ctx.
func newHandoff(ctx context.Context) *handoff {
	return &handoff{ctx: ctx, signal: make(chan struct{}, 1)}
}

// push queues a read; on the reactor, c.mu held. The bytes are copied: the
// reactor's buffer is reused.
func (h *handoff) push(c *Conn, b []byte, at time.Time, err error) {
	a := arrived{at: at, err: err}
	if len(b) > 0 {
		a.b = append([]byte(nil), b...)
	}
	h.queue = append(h.queue, a)
	handoffReads.Add(1)
	h.queued += len(b)
	if !h.paused && (err != nil || h.queued > handoffLimit) {
		h.paused = true // at the end, or too far ahead of the reader
		c.r.p.watch(c.fd, false)
	}
	select {
	case h.signal <- struct{}{}:
	default:
	}
}

// read hands the reader the queued bytes, waiting for more while there are
// none; the stamp of the bytes handed out becomes the connection's readAt.
func (h *handoff) read(c *Conn, p []byte) (int, error) {
	for len(h.cur) == 0 {
		if h.err != nil {
			return 0, h.err
		}
		a, ok := h.pop(c)
		if !ok {
			select {
			case <-h.signal:
			case <-h.ctx.Done():
				return 0, context.Cause(h.ctx)
			}
			continue
		}
		c.readAt, h.cur, h.err = a.at, a.b, a.err
		h.took += int64(len(a.b))
	}
	n := copy(p, h.cur)
	h.cur = h.cur[n:]
	return n, nil
}

// pop takes the oldest queued read, and lets the reactor read again once
// the reader caught up.
func (h *handoff) pop(c *Conn) (arrived, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(h.queue) == 0 {
		return arrived{}, false
	}
	a := h.queue[0]
	h.queue[0] = arrived{}
	h.queue = h.queue[1:]
	h.queued -= len(a.b)
	if h.paused && a.err == nil && h.queued < handoffLimit/2 && !h.ending() {
		h.paused = false
		c.r.p.watch(c.fd, true)
	}
	return a, true
}

// ending reports whether the queue holds the connection's last read (an
// error or the end); c.mu held.
func (h *handoff) ending() bool {
	return len(h.queue) > 0 && h.queue[len(h.queue)-1].err != nil
}
