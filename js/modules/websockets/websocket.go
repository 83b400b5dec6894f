package k6websockets

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/wsconn"
	"github.com/usefullatency/usefullatency/js/modules"
)

// errInit is the error of a WebSocket created by init code.
var errInit = errors.New("k6/websockets: a WebSocket can't be opened in the init context: open it inside an exported function")

// socket is one WebSocket. Its fields are used on the VU's goroutine,
// but pending, which belongs to the goroutine reading the connection.
type socket struct {
	m   *instance
	rt  *sobek.Runtime
	obj *sobek.Object
	url string
	// state is the readyState; protocol and extensions the server's
	// choices; binaryType "blob" or "arraybuffer".
	state                int
	protocol, extensions string
	binaryType           string
	handlers             *listeners
	// onValues are the functions set as on… handlers, as the getters
	// return them.
	onValues map[string]sobek.Value
	session  *Session
	// ctx is the context of the call that opened the socket: when it
	// ends, the connection is cut and no event is dispatched any more.
	ctx context.Context
	// closeCode and closeReason are set by close() before the socket
	// opened: it is then closed as soon as it opens.
	closeCode   int
	closeReason string
	// pending is the event-loop slot the reader holds for its next event.
	pending func(func() error)
}

// newWebSocket is the constructor new WebSocket(url, protocols, params):
// it checks its arguments, starts the handshake on another goroutine and
// returns at once, in state CONNECTING. The socket holds a slot of the
// VU's event loop until it is closed.
func (m *instance) newWebSocket(call sobek.ConstructorCall) *sobek.Object {
	rt := m.vu.Runtime()
	if m.vu.InInit() {
		panic(rt.NewGoError(errInit))
	}
	t, exception := m.target(call)
	if exception != nil {
		panic(exception)
	}
	s := &socket{m: m, rt: rt, obj: call.This, url: t.URL, binaryType: "blob", handlers: newListeners(), ctx: m.vu.Context()}
	s.define()
	s.start(t)
	return nil
}

// target reads the constructor's arguments: a bad protocols or params
// argument is a TypeError, a bad URL a SyntaxError.
func (m *instance) target(call sobek.ConstructorCall) (*Target, *sobek.Object) {
	rt := m.vu.Runtime()
	protocols, err := parseProtocols(rt, call.Argument(1))
	if err != nil {
		return nil, rt.NewTypeError(err.Error())
	}
	p, err := ParseParams(m.vu, "k6/websockets", call.Argument(2))
	if err != nil {
		return nil, rt.NewTypeError(err.Error())
	}
	t, err := m.dialer.Prepare(call.Argument(0).String(), protocols, p)
	if err != nil {
		return nil, syntaxError(rt, fmt.Sprintf("new WebSocket(url): %v", err))
	}
	return t, nil
}

// parseProtocols reads the protocols argument: a string, an array of
// strings, or none (undefined, null).
func parseProtocols(rt *sobek.Runtime, v sobek.Value) ([]string, error) {
	if isNullish(v) {
		return nil, nil
	}
	if sobek.IsString(v) {
		return []string{v.String()}, nil
	}
	var list []string
	if err := rt.ExportTo(v, &list); err != nil {
		return nil, fmt.Errorf("new WebSocket(url, protocols): protocols must be a string or an array of strings, got %s", modules.TypeName(v))
	}
	return list, nil
}

// start dials on another goroutine, then reads the connection, each event
// handed to the event loop in order.
func (s *socket) start(t *Target) {
	slot := s.m.vu.RegisterCallback()
	go func() {
		sess, hs, err := t.Dial(s.ctx)
		if err != nil {
			slot(func() error { return s.failed(err) })
			return
		}
		s.pending = s.m.vu.RegisterCallback()
		slot(func() error { return s.opened(sess, hs) })
		stop := context.AfterFunc(s.ctx, sess.Conn.Abort)
		defer stop()
		sess.Conn.Run(s.deliver)
		if s.pending != nil { // cut: no Close was dispatched
			sess.Cut()
			s.pending(func() error { return nil })
		}
	}()
}

// deliver hands ev to the event loop in the slot held for it, reserving
// the next one first unless ev is the last, and waits until it was
// dispatched: the reader reads no further meanwhile. It reports false
// when the call that opened the socket has ended.
func (s *socket) deliver(ev wsconn.Event) bool {
	cur := s.pending
	s.pending = nil
	if ev.Kind != wsconn.Close {
		s.pending = s.m.vu.RegisterCallback()
	}
	done := make(chan struct{})
	cur(func() error {
		defer close(done)
		return s.dispatch(ev)
	})
	select {
	case <-done:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// opened runs on the loop once the handshake succeeded: the socket is
// OPEN and its open event dispatched, unless close() was called before.
func (s *socket) opened(sess *Session, hs *wsconn.Handshake) error {
	s.session = sess
	s.protocol, s.extensions = hs.Protocol, hs.Extensions
	if s.state == closing {
		sess.Conn.Close(s.closeCode, s.closeReason)
		return nil
	}
	s.state = open
	return s.emit("open", sess.Conn.Started(), nil)
}

// failed runs on the loop when the handshake failed: an error event, then
// a close event with code 1006, as a browser fires them.
func (s *socket) failed(err error) error {
	if s.ctx.Err() != nil {
		return nil // the call ended: nobody listens any more
	}
	s.state = closed
	now := time.Now()
	if err := s.emit("error", now, map[string]any{"error": err.Error(), "message": err.Error()}); err != nil {
		return err
	}
	return s.emit("close", now, map[string]any{"code": 1006, "reason": "", "wasClean": false})
}

// dispatch runs on the loop: it records ev's samples and dispatches its
// events.
func (s *socket) dispatch(ev wsconn.Event) error {
	s.session.Record(ev)
	switch ev.Kind {
	case wsconn.Message:
		if s.state != open {
			return nil // a message after close(): dropped, as a browser drops it
		}
		return s.emit("message", ev.At, map[string]any{"data": s.messageData(ev)})
	case wsconn.Ping:
		return s.emit("ping", ev.At, nil)
	case wsconn.Pong:
		return s.emit("pong", ev.At, nil)
	}
	s.state = closed
	if ev.Err != nil {
		if err := s.emit("error", ev.At, map[string]any{"error": ev.Err.Error(), "message": ev.Err.Error()}); err != nil {
			return err
		}
	}
	return s.emit("close", ev.At, map[string]any{"code": ev.Code, "reason": ev.Reason, "wasClean": ev.Clean})
}

// messageData is a message's data: a string for text, a Blob or an
// ArrayBuffer (binaryType) for binary.
func (s *socket) messageData(ev wsconn.Event) any {
	switch {
	case ev.Text:
		return string(ev.Data)
	case s.binaryType == "arraybuffer":
		return s.rt.NewArrayBuffer(ev.Data)
	}
	return s.m.blobValue(ev.Data, "")
}

// emit dispatches an event of typ.
func (s *socket) emit(typ string, at time.Time, fields map[string]any) error {
	return s.handlers.dispatch(s.obj, typ, newEvent(s.rt, s.obj, typ, at, fields))
}
