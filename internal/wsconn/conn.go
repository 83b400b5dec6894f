package wsconn

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Conn is an open WebSocket connection. Its methods are safe for
// concurrent use; Run is called once, and reads until the connection
// ends.
type Conn struct {
	counters
	cfg Config
	ws  *websocket.Conn
	// started is when the dial began; connected when the handshake ended.
	started, connected time.Time
	// head bounds the bytes the handshake reads.
	head *headBudget

	mu sync.Mutex
	// queue holds the frames waiting for the writer, in order; wake
	// signals it.
	queue []frame
	wake  chan struct{}
	// buffered is the bytes of queued messages not yet written.
	buffered int64
	// closing is set once a close frame was queued or sent (by Close, or
	// in answer to the server's); cutReason explains a cut connection.
	closing   bool
	cutReason error
	closeTime *time.Timer
	// abortedFlag is set by Abort: Run then delivers nothing more.
	abortedFlag bool
	// pings are the send times of pings awaiting their pong, by payload.
	pings  map[string]time.Time
	pingID uint64
	// done is closed when Run has returned; cutDone when the connection
	// was cut (cutOnce guards it). The writer stops at either.
	done, cutDone chan struct{}
	cutOnce       sync.Once
}

// frame is one queued write.
type frame struct {
	kind int // websocket.TextMessage, BinaryMessage, PingMessage or CloseMessage
	data []byte
}

// start starts the writer and sets the reader's limit and handlers.
func (c *Conn) start() {
	c.wake = make(chan struct{}, 1)
	c.done = make(chan struct{})
	c.cutDone = make(chan struct{})
	c.ws.SetReadLimit(c.cfg.MaxMessageSize)
	go c.write()
}

// Started returns when the dial began.
func (c *Conn) Started() time.Time { return c.started }

// Connecting returns the duration of the opening handshake: dial, TLS and
// the HTTP upgrade.
func (c *Conn) Connecting() time.Duration { return c.connected.Sub(c.started) }

// Bytes returns the bytes sent and received on the wire so far.
func (c *Conn) Bytes() (sent, received int64) { return c.sent.Load(), c.received.Load() }

// Buffered returns the bytes of the messages queued by Send and not yet
// written to the connection.
func (c *Conn) Buffered() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buffered
}

// Send queues a text or binary message; data is copied. It reports false
// once the connection is closing: the message is then dropped.
func (c *Conn) Send(text bool, data []byte) bool {
	kind := websocket.BinaryMessage
	if text {
		kind = websocket.TextMessage
	}
	return c.enqueue(frame{kind: kind, data: append([]byte(nil), data...)})
}

// Ping queues a ping; its pong's round trip comes back as a Pong event.
func (c *Conn) Ping() bool {
	c.mu.Lock()
	c.pingID++
	id := strconv.FormatUint(c.pingID, 10)
	c.mu.Unlock()
	return c.enqueue(frame{kind: websocket.PingMessage, data: []byte(id)})
}

// Close starts the closing handshake: a close frame with code and reason
// is queued after the messages already queued, and the server has
// CloseTimeout from now to answer with its own before the connection is
// cut. Later calls do nothing.
func (c *Conn) Close(code int, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return
	}
	c.closing = true
	c.queue = append(c.queue, frame{kind: websocket.CloseMessage, data: websocket.FormatCloseMessage(code, reason)})
	c.closeTime = time.AfterFunc(c.cfg.CloseTimeout, func() {
		c.cut(fmt.Errorf("the server did not answer the close frame within %s", c.cfg.CloseTimeout))
	})
	c.signal()
}

// Abort cuts the connection at once, without a closing handshake (the
// iteration ended). Run then returns without delivering anything more;
// a connection whose Run never started is released too.
func (c *Conn) Abort() {
	c.mu.Lock()
	c.abortedFlag, c.closing = true, true
	c.mu.Unlock()
	c.cut(nil)
}

// cut closes the TCP connection; reason, when not nil, is the error of
// the Close event Run delivers.
func (c *Conn) cut(reason error) {
	c.mu.Lock()
	if c.cutReason == nil {
		c.cutReason = reason
	}
	c.mu.Unlock()
	c.cutOnce.Do(func() { close(c.cutDone) })
	_ = c.ws.NetConn().Close()
}

// enqueue appends f to the writer's queue unless the connection is
// closing.
func (c *Conn) enqueue(f frame) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return false
	}
	c.queue = append(c.queue, f)
	if f.kind == websocket.TextMessage || f.kind == websocket.BinaryMessage {
		c.buffered += int64(len(f.data))
	}
	c.signal()
	return true
}

// signal wakes the writer; c.mu is held.
func (c *Conn) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// write sends the queued frames in order until the close frame is sent,
// a write fails or Run returns.
func (c *Conn) write() {
	for {
		select {
		case <-c.wake:
		case <-c.done:
			return
		case <-c.cutDone:
			return
		}
		for {
			f, ok := c.next()
			if !ok {
				break
			}
			if err := c.writeFrame(f); err != nil || f.kind == websocket.CloseMessage {
				if err != nil && !errors.Is(err, websocket.ErrCloseSent) {
					c.cut(fmt.Errorf("write: %w", err))
				}
				return
			}
		}
	}
}

// next pops the first queued frame.
func (c *Conn) next() (frame, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		return frame{}, false
	}
	f := c.queue[0]
	c.queue = c.queue[1:]
	return f, true
}

// writeFrame writes one frame; control frames with a deadline.
func (c *Conn) writeFrame(f frame) error {
	switch f.kind {
	case websocket.PingMessage:
		c.mu.Lock()
		c.pings[string(f.data)] = time.Now()
		c.mu.Unlock()
		return c.ws.WriteControl(f.kind, f.data, time.Now().Add(controlWait))
	case websocket.CloseMessage:
		return c.ws.WriteControl(f.kind, f.data, time.Now().Add(controlWait))
	}
	err := c.ws.WriteMessage(f.kind, f.data)
	c.mu.Lock()
	c.buffered -= int64(len(f.data))
	c.mu.Unlock()
	return err
}
