package usefulsse

import (
	"fmt"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/sse"
)

// predicateSpec converts a predicate from JavaScript to the form
// sse.ParsePredicate reads: objects and arrays become Go maps and slices,
// and functions — anywhere in the tree — become sse.FuncPredicate values
// that call back into JavaScript through run. name labels errors.
func predicateSpec(rt *sobek.Runtime, v sobek.Value, name string, run invoker) any {
	if fn, ok := sobek.AssertFunction(v); ok {
		return jsPredicate(rt, fn, name, run)
	}
	obj, ok := v.(*sobek.Object)
	if !ok {
		return v.Export()
	}
	if obj.ClassName() == "Array" {
		n := int(obj.Get("length").ToInteger())
		list := make([]any, n)
		for i := range n {
			list[i] = predicateSpec(rt, obj.Get(fmt.Sprint(i)), name, run)
		}
		return list
	}
	m := make(map[string]any, len(obj.Keys()))
	for _, k := range obj.Keys() {
		if k == "any" || k == "all" {
			m[k] = predicateSpec(rt, obj.Get(k), name, run)
		} else {
			m[k] = obj.Get(k).Export()
		}
	}
	return m
}

// jsPredicate wraps a function (ctx) => bool; ctx is {state, text, event,
// elapsed_ms}. A throw ends the request with an error naming the callback.
func jsPredicate(rt *sobek.Runtime, fn sobek.Callable, name string, run invoker) sse.FuncPredicate {
	return func(c *sse.PredicateContext) (bool, error) {
		var out bool
		err := run(func() error {
			res, err := fn(sobek.Undefined(), contextValue(rt, c))
			if err != nil {
				return fmt.Errorf("%s predicate threw: %w", name, err)
			}
			out = res.ToBoolean()
			return nil
		})
		return out, err
	}
}

// marks reads {name: predicate}.
func marks(rt *sobek.Runtime, v sobek.Value, run invoker) (map[string]sse.Predicate, error) {
	obj := v.ToObject(rt)
	out := make(map[string]sse.Predicate, len(obj.Keys()))
	for _, name := range obj.Keys() {
		p, err := sse.ParsePredicate(predicateSpec(rt, obj.Get(name), "marks."+name, run))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = p
	}
	return out, nil
}

// onEvent wraps the onEvent(event) callback.
func onEvent(rt *sobek.Runtime, v sobek.Value, run invoker) (func(*sse.Event) error, error) {
	fn, ok := sobek.AssertFunction(v)
	if !ok {
		return nil, fmt.Errorf("want a function")
	}
	return func(ev *sse.Event) error {
		return run(func() error {
			_, err := fn(sobek.Undefined(), eventValue(rt, ev))
			return err
		})
	}, nil
}
