package usefulsse

import (
	"slices"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/sse"
)

// The JavaScript views of events and predicate contexts are dynamic
// objects: a property is converted when the script reads it, so a callback
// that reads ctx.state pays for nothing else. What a view shows is fixed
// when it is made (the client reuses its events); the state maps are shown
// by reference, as they were when copied into plain objects. A script may
// still set and delete properties: its own values shadow the computed ones.

// overlay holds the properties a script set (or deleted: nil) on a view;
// embedded, it gives the view its Set and Delete.
type overlay struct{ own map[string]sobek.Value }

// get returns the script's value for k, if it set or deleted k.
func (o *overlay) get(k string) (sobek.Value, bool) {
	v, ok := o.own[k]
	return v, ok
}

// Set implements sobek.DynamicObject.
func (o *overlay) Set(k string, v sobek.Value) bool {
	if o.own == nil {
		o.own = map[string]sobek.Value{}
	}
	o.own[k] = v
	return true
}

// Delete implements sobek.DynamicObject.
func (o *overlay) Delete(k string) bool { return o.Set(k, nil) }

// keys lists the view's properties: the computed ones present, then the
// script's own.
func (o *overlay) keys(computed []string, has func(string) bool) []string {
	out := make([]string, 0, len(computed)+len(o.own))
	for _, k := range computed {
		if has(k) {
			out = append(out, k)
		}
	}
	for k, v := range o.own {
		if v != nil && !slices.Contains(computed, k) {
			out = append(out, k)
		}
	}
	return out
}

// eventKeys are the properties of an event view.
var eventKeys = []string{"kind", "type", "id", "data", "comment", "text", "reasoning", "elapsed_ms", "state", "error", "shared_read"}

// eventView is the JavaScript view of an event: {kind, type, id, data,
// comment, text, reasoning, elapsed_ms, state, error}; state only when the
// event carried some, error only for error events.
type eventView struct {
	overlay
	rt    *sobek.Runtime
	ev    sse.Event
	state sobek.Value // converted once
}

var _ sobek.DynamicObject = (*eventView)(nil)

// eventValue returns the view of ev (an empty object for nil).
func eventValue(rt *sobek.Runtime, ev *sse.Event) *sobek.Object {
	if ev == nil {
		return rt.NewObject()
	}
	return rt.NewDynamicObject(&eventView{rt: rt, ev: *ev})
}

// Get implements sobek.DynamicObject.
func (e *eventView) Get(k string) sobek.Value {
	if v, ok := e.get(k); ok {
		return v
	}
	switch k {
	case "kind":
		return e.rt.ToValue(e.ev.Kind.String())
	case "type":
		return e.rt.ToValue(e.ev.Type)
	case "id":
		return e.rt.ToValue(e.ev.ID)
	case "data":
		return e.rt.ToValue(e.ev.Data)
	case "comment":
		return e.rt.ToValue(e.ev.Comment)
	case "text":
		return e.rt.ToValue(e.ev.Text)
	case "reasoning":
		return e.rt.ToValue(e.ev.Reasoning)
	case "elapsed_ms":
		return e.rt.ToValue(e.ev.ElapsedMS())
	case "state":
		if e.ev.State == nil {
			return nil
		}
		if e.state == nil {
			e.state = e.rt.ToValue(e.ev.State)
		}
		return e.state
	case "error":
		if e.ev.Error == "" {
			return nil
		}
		return e.rt.ToValue(e.ev.Error)
	case "shared_read":
		if !e.ev.SharedRead {
			return nil
		}
		return e.rt.ToValue(true)
	}
	return nil
}

// Has implements sobek.DynamicObject.
func (e *eventView) Has(k string) bool { return e.Get(k) != nil }

// Keys implements sobek.DynamicObject.
func (e *eventView) Keys() []string { return e.keys(eventKeys, e.Has) }

// contextKeys are the properties of a predicate context view.
var contextKeys = []string{"state", "text", "event", "elapsed_ms"}

// contextView is the JavaScript view of a predicate's context: {state,
// text, event, elapsed_ms}.
type contextView struct {
	overlay
	rt           *sobek.Runtime
	c            sse.PredicateContext
	ev           sse.Event
	state, event sobek.Value // converted once
}

var _ sobek.DynamicObject = (*contextView)(nil)

// contextValue returns the view of c.
func contextValue(rt *sobek.Runtime, c *sse.PredicateContext) *sobek.Object {
	v := &contextView{rt: rt, c: *c}
	if c.Event != nil {
		v.ev = *c.Event
	}
	return rt.NewDynamicObject(v)
}

// Get implements sobek.DynamicObject.
func (v *contextView) Get(k string) sobek.Value {
	if o, ok := v.get(k); ok {
		return o
	}
	switch k {
	case "state":
		if v.state == nil {
			v.state = v.rt.ToValue(v.c.State)
		}
		return v.state
	case "text":
		return v.rt.ToValue(v.c.Text)
	case "event":
		if v.event == nil {
			v.event = eventValue(v.rt, v.eventOrNil())
		}
		return v.event
	case "elapsed_ms":
		return v.rt.ToValue(v.c.ElapsedMS)
	}
	return nil
}

// eventOrNil returns the context's event, nil if it had none.
func (v *contextView) eventOrNil() *sse.Event {
	if v.c.Event == nil {
		return nil
	}
	return &v.ev
}

// Has implements sobek.DynamicObject.
func (v *contextView) Has(k string) bool { return v.Get(k) != nil }

// Keys implements sobek.DynamicObject.
func (v *contextView) Keys() []string { return v.keys(contextKeys, v.Has) }
