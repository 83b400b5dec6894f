package reactor

import (
	"fmt"
	"io"
)

// A pushed body: once the coroutine has parsed the response head and the
// exchange answered with a Sink, the coroutine ends (its stack, the
// connection's read buffer and net/http's body readers go with it) and
// the reactor hands every read to the sink through the body's framing,
// on its own goroutine, under the connection's lock.

// startPush begins pushing the body after the coroutine ended: first the
// bytes the head's parser read ahead, then the rest of the current read.
func (c *Conn) startPush() {
	c.next, c.stop, c.yield = nil, nil, nil
	ahead := c.pending
	c.pending = c.pending[:0:0] // the reactor's buffer is reused
	var held []byte
	if n := c.br.Buffered(); n > 0 {
		held, _ = c.br.Peek(n)
	}
	if c.push(held, len(ahead) > 0) {
		return
	}
	c.putReader()
	c.push(ahead, false)
}

// pushRead hands one read to the sink: its bytes, or the end of the
// connection (an empty read) or its error.
func (c *Conn) pushRead(b []byte, err error) {
	if err == nil && len(b) == 0 {
		err = io.EOF
	}
	if err != nil {
		c.keep = false
		c.endPush(c.frame.atEnd(err))
		return
	}
	c.got += int64(len(b))
	c.push(b, false)
}

// push hands b to the sink through the body's framing and reports whether
// the body ended; more says other bytes follow b. A panic of the sink ends
// the exchange with ErrInternal instead of the reactor.
func (c *Conn) push(b []byte, more bool) (ended bool) {
	defer func() {
		if r := recover(); r != nil {
			c.endPush(fmt.Errorf("%w: %v", ErrInternal, r))
			ended = true
		}
	}()
	for len(b) > 0 && !c.frame.ended() {
		data, rest, err := c.frame.next(b)
		if err == nil && len(data) > 0 {
			err = c.sink.Body(data)
		}
		if err != nil {
			c.endPush(err)
			return true
		}
		b = rest
	}
	if !c.frame.ended() {
		return false
	}
	if len(b) > 0 || more {
		c.keep = false // bytes after the body that nobody asked for
	}
	c.endPush(nil)
	return true
}

// endPush ends the pushed body with err (nil: its clean end), tells the
// caller waiting in Pool.Do, and releases the connection. It runs once: a
// sink that panics in End is not told twice.
func (c *Conn) endPush(err error) {
	sink := c.sink
	if sink == nil {
		return
	}
	c.sink = nil
	if err != nil {
		c.keep = false
	}
	c.putReader()
	k := c.call
	defer c.finish()
	defer k.settle()
	defer func() {
		if r := recover(); r != nil {
			k.err = fmt.Errorf("%w: %v", ErrInternal, r) // Do reports it
		}
	}()
	sink.End(err)
}
