package wsconn

import (
	"errors"
	"fmt"
	"time"

	"github.com/gorilla/websocket"
)

// Kind is the kind of an Event.
type Kind int

// The kinds of events, in the order a connection can deliver them: any
// number of messages, pings and pongs, then one Close.
const (
	Message Kind = iota + 1
	Ping
	Pong
	Close
)

// Event is what the reader hands over: a message, a ping from the server,
// a pong, or the end of the connection.
type Event struct {
	Kind Kind
	// At is when the event was read.
	At time.Time
	// Text tells a text message from a binary one; Data is the message.
	Text bool
	Data []byte
	// RTT is, for a Pong answering one of our pings, the time since the
	// ping was written; zero for an unsolicited pong.
	RTT time.Duration
	// Code and Reason are the close code and reason: the server's close
	// frame, or 1006 (abnormal closure) when the connection ended without
	// one, 1009 for a message over the limit.
	Code   int
	Reason string
	// Clean reports a completed closing handshake.
	Clean bool
	// Err is, for an unclean Close, why the connection ended.
	Err error
}

// errStopped stops the reader when deliver refuses an event.
var errStopped = errors.New("stopped")

// Run reads the connection until it ends and hands each event to
// deliver, in the order read, from Run's goroutine: deliver returns only
// once the event is handled, so a slow consumer slows the reads down.
// The last event is a Close, unless deliver returned false (the consumer
// is gone: the connection is cut and nothing more is delivered) or Abort
// was called. The connection is closed when Run returns.
func (c *Conn) Run(deliver func(Event) bool) {
	defer close(c.done)
	defer c.ws.Close()
	stopped := false
	send := func(ev Event) error {
		if stopped || !deliver(ev) {
			stopped = true
			return errStopped
		}
		return nil
	}
	c.ws.SetPingHandler(func(data string) error { return c.onPing(data, send) })
	c.ws.SetPongHandler(func(data string) error { return c.onPong(data, send) })
	c.ws.SetCloseHandler(c.onClose)
	for {
		kind, data, err := c.ws.ReadMessage()
		if err != nil {
			c.stopCloseTimer()
			if !stopped && !c.aborted() {
				deliver(c.closeEvent(err))
			}
			return
		}
		if send(Event{Kind: Message, At: time.Now(), Text: kind == websocket.TextMessage, Data: data}) != nil {
			return
		}
	}
}

// onPing answers the server's ping with a pong, then delivers it.
func (c *Conn) onPing(data string, send func(Event) error) error {
	err := c.ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(controlWait))
	if err != nil && !errors.Is(err, websocket.ErrCloseSent) {
		return err
	}
	return send(Event{Kind: Ping, At: time.Now(), Data: []byte(data)})
}

// onPong delivers a pong with the round trip of the ping it answers.
func (c *Conn) onPong(data string, send func(Event) error) error {
	now := time.Now()
	c.mu.Lock()
	sent, ok := c.pings[data]
	delete(c.pings, data)
	c.mu.Unlock()
	ev := Event{Kind: Pong, At: now, Data: []byte(data)}
	if ok {
		ev.RTT = now.Sub(sent)
	}
	return send(ev)
}

// onClose answers the server's close frame with the same code, unless a
// close frame of ours was already queued or sent.
func (c *Conn) onClose(code int, _ string) error {
	c.mu.Lock()
	answer := !c.closing
	c.closing = true
	c.mu.Unlock()
	if answer {
		_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, ""), time.Now().Add(controlWait))
	}
	return nil
}

// closeEvent is the Close event of the read error that ended the
// connection.
func (c *Conn) closeEvent(err error) Event {
	ev := Event{Kind: Close, At: time.Now(), Code: websocket.CloseAbnormalClosure}
	var ce *websocket.CloseError
	c.mu.Lock()
	cut := c.cutReason
	c.mu.Unlock()
	switch {
	case errors.As(err, &ce) && ce.Code != websocket.CloseAbnormalClosure:
		ev.Code, ev.Reason, ev.Clean = ce.Code, ce.Text, true
	case errors.Is(err, websocket.ErrReadLimit):
		ev.Code = websocket.CloseMessageTooBig
		ev.Err = fmt.Errorf("%w: the server sent a message of more than %d bytes (maxMessageSize)", ErrMessageTooLarge, c.cfg.MaxMessageSize)
	case cut != nil:
		ev.Err = cut
	default:
		ev.Err = err
	}
	return ev
}

// aborted reports whether Abort cut the connection.
func (c *Conn) aborted() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.abortedFlag
}

// stopCloseTimer stops the wait for the server's close frame.
func (c *Conn) stopCloseTimer() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closeTime != nil {
		c.closeTime.Stop()
	}
}
