package usefulsse

import (
	"slices"
	"strings"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/sse"
)

// resultKeys are the properties of a result, in the order Object.keys and
// JSON.stringify list them.
var resultKeys = []string{"status", "proto", "headers", "error", "error_code", "url", "dialect", "text",
	"reasoning", "state", "tool_calls", "cost", "usage", "events", "heartbeats", "empty_events",
	"coalesced_events", "read_lag", "useful_reached", "good", "timings", "marks"}

// resultView is the JavaScript view of a result, with the names of
// PRODUCT.md: times in float milliseconds, null when never reached; good
// is the goodput verdict (null without objectives). Like the event views
// (view.go) it converts a property when the script reads it — most scripts
// read two or three of the twenty-two — and keeps the objects it made, so
// res.timings === res.timings and a change to one stays.
type resultView struct {
	overlay
	rt   *sobek.Runtime
	r    *sse.Result
	good *bool
}

var _ sobek.DynamicObject = (*resultView)(nil)

// resultValue returns the view of r.
func resultValue(rt *sobek.Runtime, r *sse.Result, good *bool) sobek.Value {
	return rt.NewDynamicObject(&resultView{rt: rt, r: r, good: good})
}

// Get implements sobek.DynamicObject.
func (v *resultView) Get(k string) sobek.Value {
	if o, ok := v.get(k); ok {
		return o
	}
	x, isObject, ok := v.value(k)
	if !ok {
		return nil
	}
	val := v.rt.ToValue(x)
	if isObject {
		v.Set(k, val)
	}
	return val
}

// value returns the Go value of property k; isObject when it converts to
// an object, which the view keeps.
func (v *resultView) value(k string) (x any, isObject, ok bool) {
	r := v.r
	switch k {
	case "status":
		return r.Status, false, true
	case "proto":
		return r.Proto, false, true
	case "headers":
		headers := make(map[string]any, len(r.Header))
		for k, vs := range r.Header {
			headers[k] = strings.Join(vs, ", ")
		}
		return headers, true, true
	case "error":
		return r.Error, false, true
	case "error_code":
		return r.ErrorCode, false, true
	case "url":
		return r.URL, false, true
	case "dialect":
		return string(r.Dialect), false, true
	case "text":
		return r.Text, false, true
	case "reasoning":
		return r.Reasoning, false, true
	case "state":
		return r.State, r.State != nil, true
	case "tool_calls":
		tools := make([]any, len(r.ToolCalls))
		for i, t := range r.ToolCalls {
			tools[i] = map[string]any{"index": t.Index, "id": t.ID, "name": t.Name, "arguments": t.Arguments}
		}
		return tools, true, true
	case "cost":
		return r.Cost, false, true
	case "usage":
		return map[string]any{
			"input_tokens": r.Usage.InputTokens, "output_tokens": r.Usage.OutputTokens,
			"reasoning_tokens": r.Usage.ReasoningTokens,
		}, true, true
	case "events":
		return r.Events, false, true
	case "heartbeats":
		return r.Heartbeats, false, true
	case "empty_events":
		return r.EmptyEvents, false, true
	case "coalesced_events":
		return r.CoalescedEvents, false, true
	case "read_lag":
		return msValue(r.ReadLag), false, true
	case "useful_reached":
		return r.UsefulReached, false, true
	case "good":
		return boolOrNull(v.good), false, true
	case "timings":
		return v.rt.NewDynamicObject(&timingsView{rt: v.rt, t: &r.Timings}), true, true
	case "marks":
		marks := make(map[string]any, len(r.Marks))
		for k, m := range r.Marks {
			marks[k] = msValue(m)
		}
		return marks, true, true
	}
	return nil, false, false
}

// Has implements sobek.DynamicObject.
func (v *resultView) Has(k string) bool {
	if o, ok := v.get(k); ok {
		return o != nil
	}
	return slices.Contains(resultKeys, k)
}

// Keys implements sobek.DynamicObject.
func (v *resultView) Keys() []string { return v.keys(resultKeys, v.Has) }

// boolOrNull returns *b, or nil (null) when b is nil.
func boolOrNull(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

// msValue returns the milliseconds, or nil (null) when never reached.
func msValue(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

// timingKeys are the properties of a result's timings, in the order
// Object.keys and JSON.stringify list them.
var timingKeys = []string{"schedule_lag", "connecting", "tls_handshaking", "queue", "headers",
	"first_event", "first_text", "useful", "complete", "max_gap"}

// timingsView is the JavaScript view of a result's timings: float
// milliseconds, null when never reached. A script reads one or two of the
// ten, once per iteration: each is converted when read.
type timingsView struct {
	overlay
	rt *sobek.Runtime
	t  *sse.Timings
}

var _ sobek.DynamicObject = (*timingsView)(nil)

// Get implements sobek.DynamicObject.
func (v *timingsView) Get(k string) sobek.Value {
	if o, ok := v.get(k); ok {
		return o
	}
	ms, ok := v.field(k)
	switch {
	case !ok:
		return nil
	case ms == nil:
		return sobek.Null()
	}
	return v.rt.ToValue(*ms)
}

// field returns the timing called k; ok is false for other names.
func (v *timingsView) field(k string) (ms *float64, ok bool) {
	t := v.t
	switch k {
	case "schedule_lag":
		return t.ScheduleLag, true
	case "connecting":
		return t.Connecting, true
	case "tls_handshaking":
		return t.TLSHandshaking, true
	case "queue":
		return t.Queue, true
	case "headers":
		return t.Headers, true
	case "first_event":
		return t.FirstEvent, true
	case "first_text":
		return t.FirstText, true
	case "useful":
		return t.Useful, true
	case "complete":
		return t.Complete, true
	case "max_gap":
		return t.MaxGap, true
	}
	return nil, false
}

// Has implements sobek.DynamicObject.
func (v *timingsView) Has(k string) bool {
	if o, ok := v.get(k); ok {
		return o != nil
	}
	_, ok := v.field(k)
	return ok
}

// Keys implements sobek.DynamicObject.
func (v *timingsView) Keys() []string { return v.keys(timingKeys, v.Has) }
