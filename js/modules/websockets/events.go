package k6websockets

import (
	"time"

	"github.com/grafana/sobek"
)

// eventTypes are the events a WebSocket dispatches, each with its on…
// handler property.
var eventTypes = []string{"open", "message", "error", "close", "ping", "pong"}

// listeners are the handlers of one WebSocket: the on… property of each
// event type and the listeners added with addEventListener, in the order
// they were added. They are used on the VU's goroutine only.
type listeners struct {
	on    map[string]sobek.Callable
	added map[string][]listener
}

// listener is one addEventListener registration; value is the function
// as given, which removeEventListener compares.
type listener struct {
	value sobek.Value
	fn    sobek.Callable
}

func newListeners() *listeners {
	return &listeners{on: map[string]sobek.Callable{}, added: map[string][]listener{}}
}

// add registers fn for typ, once: adding the same function again does
// nothing, as in the DOM.
func (l *listeners) add(typ string, v sobek.Value) {
	fn, ok := sobek.AssertFunction(v)
	if !ok {
		return
	}
	for _, x := range l.added[typ] {
		if x.value.SameAs(v) {
			return
		}
	}
	l.added[typ] = append(l.added[typ], listener{value: v, fn: fn})
}

// remove unregisters v for typ.
func (l *listeners) remove(typ string, v sobek.Value) {
	list := l.added[typ]
	for i, x := range list {
		if x.value.SameAs(v) {
			l.added[typ] = append(list[:i:i], list[i+1:]...)
			return
		}
	}
}

// dispatch calls the on… handler of the event's type, then its listeners,
// with this the WebSocket. A handler's exception stops the dispatch and is
// returned: it fails the call that opened the socket, as any exception on
// the event loop does.
func (l *listeners) dispatch(this sobek.Value, typ string, ev sobek.Value) error {
	if fn := l.on[typ]; fn != nil {
		if _, err := fn(this, ev); err != nil {
			return err
		}
	}
	for _, x := range append([]listener(nil), l.added[typ]...) {
		if _, err := x.fn(this, ev); err != nil {
			return err
		}
	}
	return nil
}

// newEvent returns an event object of typ with the given fields, its
// target and its timestamp (milliseconds since the epoch).
func newEvent(rt *sobek.Runtime, target *sobek.Object, typ string, at time.Time, fields map[string]any) *sobek.Object {
	ev := rt.NewObject()
	_ = ev.Set("type", typ)
	_ = ev.Set("target", target)
	_ = ev.Set("timestamp", float64(at.UnixNano())/1e6)
	for k, v := range fields {
		_ = ev.Set(k, v)
	}
	return ev
}
