package k6ws

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/wsconn"
	"github.com/usefullatency/usefullatency/js/modules"
	k6websockets "github.com/usefullatency/usefullatency/js/modules/websockets"
)

// socket is the Socket handed to connect's callback. It is used on the
// VU's goroutine only; the connection's reader and the timers reach it
// through channels that run drains.
type socket struct {
	vu       modules.VU
	rt       *sobek.Runtime
	sess     *k6websockets.Session
	ctx      context.Context
	handlers map[string][]sobek.Callable
	// closeCalled is set by close(): the close that follows is ours.
	closeCalled bool
	// events carries the reader's events; fired the ids of due timers.
	events chan wsconn.Event
	fired  chan int
	// stop is closed when run returns: timers and the reader give up.
	stop   chan struct{}
	timers map[int]*timer
	nextID int
}

// timer is one setTimeout or setInterval of a socket.
type timer struct {
	fn    sobek.Callable
	every time.Duration // 0 for a timeout
	clock *time.Timer
}

func newSocket(vu modules.VU, sess *k6websockets.Session) *socket {
	return &socket{
		vu: vu, rt: vu.Runtime(), sess: sess, ctx: vu.Context(), handlers: map[string][]sobek.Callable{},
		events: make(chan wsconn.Event), fired: make(chan int), stop: make(chan struct{}), timers: map[int]*timer{},
	}
}

// value is the JS Socket: on, send, sendBinary, ping, close, setTimeout,
// setInterval.
func (s *socket) value() *sobek.Object {
	obj := s.rt.NewObject()
	_ = obj.Set("on", func(event string, fn sobek.Value) {
		if f, ok := sobek.AssertFunction(fn); ok {
			s.handlers[event] = append(s.handlers[event], f)
		}
	})
	_ = obj.Set("send", func(data sobek.Value) {
		if s.sess.Conn.Send(true, []byte(data.String())) {
			s.sess.Sent()
		}
	})
	_ = obj.Set("sendBinary", s.sendBinary)
	_ = obj.Set("ping", func() { s.sess.Conn.Ping() })
	_ = obj.Set("close", s.close)
	_ = obj.Set("setTimeout", func(fn sobek.Value, ms float64) error { return s.setTimer(fn, ms, false) })
	_ = obj.Set("setInterval", func(fn sobek.Value, ms float64) error { return s.setTimer(fn, ms, true) })
	return obj
}

// sendBinary is socket.sendBinary(data): an ArrayBuffer or a view of one,
// sent as a binary message.
func (s *socket) sendBinary(data sobek.Value) error {
	b, ok := modules.Bytes(s.rt, data)
	if !ok || sobek.IsString(data) {
		return fmt.Errorf("k6/ws: sendBinary: want an ArrayBuffer or a typed array, got %s", modules.TypeName(data))
	}
	if s.sess.Conn.Send(false, b) {
		s.sess.Sent()
	}
	return nil
}

// close is socket.close([code]): the closing handshake with code (1000 by
// default); the close handlers run once the server answered.
func (s *socket) close(code sobek.Value) {
	c := 1000
	if code != nil && !sobek.IsUndefined(code) && !sobek.IsNull(code) {
		c = int(code.ToInteger())
	}
	s.closeCalled = true
	s.sess.Conn.Close(c, "")
}

// setTimer arms a timeout or an interval of ms milliseconds; it fires
// only while the connection is open.
func (s *socket) setTimer(fn sobek.Value, ms float64, repeat bool) error {
	f, ok := sobek.AssertFunction(fn)
	if !ok {
		return errors.New("k6/ws: setTimeout/setInterval: the callback must be a function")
	}
	if math.IsNaN(ms) || ms < 0 {
		ms = 0
	}
	d := time.Duration(ms * float64(time.Millisecond))
	if repeat && d <= 0 {
		return errors.New("k6/ws: setInterval: the interval must be more than 0 ms")
	}
	s.nextID++
	id := s.nextID
	t := &timer{fn: f}
	if repeat {
		t.every = d
	}
	s.timers[id] = t
	t.clock = time.AfterFunc(d, func() {
		select {
		case s.fired <- id:
		case <-s.stop:
		}
	})
	return nil
}

// run dispatches open, then the connection's events and the timers until
// the connection ends; a session cut before its close (the iteration
// ended, a handler threw) is recorded as ended then. It returns the error of an abnormal close ("" for
// a clean one), or the exception of a handler (the connection is then
// cut).
func (s *socket) run() (string, error) {
	closed := false
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		s.sess.Conn.Run(func(ev wsconn.Event) bool {
			select {
			case s.events <- ev:
				return true
			case <-s.stop:
				return false
			}
		})
	}()
	defer func() {
		close(s.stop)
		for _, t := range s.timers {
			t.clock.Stop()
		}
		s.sess.Conn.Abort()
		<-readerDone
		if !closed {
			s.sess.Cut()
		}
	}()
	if err := s.emit("open"); err != nil {
		return "", err
	}
	for {
		var (
			ev    wsconn.Event
			id    int
			which int
		)
		// The VU's JavaScript turn is given up while it waits.
		modules.Blocking(s.vu, func() {
			select {
			case ev = <-s.events:
				which = 1
			case id = <-s.fired:
				which = 2
			case <-s.ctx.Done():
			}
		})
		switch which {
		case 1:
			s.sess.Record(ev)
			if ev.Kind == wsconn.Close {
				closed = true
				return s.closed(ev)
			}
			if err := s.event(ev); err != nil {
				return "", err
			}
		case 2:
			if err := s.fire(id); err != nil {
				return "", err
			}
		default:
			return "", nil // the iteration ended: no more handlers
		}
	}
}

// event dispatches a message, ping or pong to its handlers.
func (s *socket) event(ev wsconn.Event) error {
	switch {
	case ev.Kind == wsconn.Ping:
		return s.emit("ping")
	case ev.Kind == wsconn.Pong:
		return s.emit("pong")
	case ev.Text:
		return s.emit("message", s.rt.ToValue(string(ev.Data)))
	}
	return s.emit("binaryMessage", s.rt.ToValue(s.rt.NewArrayBuffer(ev.Data)))
}

// closed dispatches the end of the connection: an error first when it was
// not normal (an abnormal end, or a close code other than 1000 from the
// server), then close with the code. It returns the error's message.
func (s *socket) closed(ev wsconn.Event) (string, error) {
	msg := ""
	switch {
	case ev.Err != nil:
		msg = ev.Err.Error()
	case !s.closeCalled && ev.Code != 1000:
		msg = fmt.Sprintf("websocket: close %d: %s", ev.Code, ev.Reason)
	}
	if msg != "" {
		if err := s.emit("error", s.errorValue(msg)); err != nil {
			return msg, err
		}
	}
	return msg, s.emit("close", s.rt.ToValue(ev.Code))
}

// errorValue is the argument of error handlers: e.error() returns the
// message.
func (s *socket) errorValue(msg string) sobek.Value {
	obj := s.rt.NewObject()
	_ = obj.Set("error", func() string { return msg })
	return obj
}

// fire runs timer id, if still pending, and re-arms an interval. Once
// close() was called the connection is no longer open: no timer fires
// while the closing handshake completes.
func (s *socket) fire(id int) error {
	t, ok := s.timers[id]
	if !ok || s.closeCalled {
		return nil
	}
	if t.every > 0 {
		t.clock.Reset(t.every)
	} else {
		delete(s.timers, id)
	}
	_, err := t.fn(sobek.Undefined())
	return err
}

// emit calls the handlers of event with args.
func (s *socket) emit(event string, args ...sobek.Value) error {
	for _, h := range s.handlers[event] {
		if _, err := h(sobek.Undefined(), args...); err != nil {
			return err
		}
	}
	return nil
}
