package k6browser

import (
	"context"
	"encoding/json"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// locatorObject returns a Locator object: the actions, which wait for
// their element and are strict (several matches fail), and the methods
// that refine it.
func (jp *jsPage) locatorObject(l *chromium.Locator) *sobek.Object {
	m := jp.m()
	rt := m.rt()
	c := func(name string) call {
		cc := jp.call(name)
		cc.method = "locator." + name
		return cc
	}
	methods := map[string]method{
		"locator": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("locator")
			sel := str(cc, fc.Arguments, 0, "the selector")
			return jp.locatorObject(l.Locator(sel, optionsOf(cc, fc.Argument(1)).locator()))
		},
		"nth": func(fc sobek.FunctionCall) sobek.Value {
			return jp.locatorObject(l.Nth(int(fc.Argument(0).ToInteger())))
		},
		"first": func(sobek.FunctionCall) sobek.Value { return jp.locatorObject(l.First()) },
		"last":  func(sobek.FunctionCall) sobek.Value { return jp.locatorObject(l.Last()) },
		"page":  func(sobek.FunctionCall) sobek.Value { return jp.object() },
		"count": func(sobek.FunctionCall) sobek.Value {
			return promise(c("count"), l.Count, func(n int) sobek.Value { return rt.ToValue(n) })
		},
		"all": func(sobek.FunctionCall) sobek.Value {
			return promise(c("all"), l.All, func(ls []*chromium.Locator) sobek.Value {
				out := make([]any, len(ls))
				for i, x := range ls {
					out[i] = jp.locatorObject(x)
				}
				return rt.NewArray(out...)
			})
		},
		"waitFor": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("waitFor")
			o := optionsOf(cc, fc.Argument(0))
			state := o.state()
			cc.timeout = o.timeout(cc.timeout)
			return settle(cc, func(ctx context.Context) error { return l.WaitFor(ctx, state) })
		},
		"evaluate": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("evaluate")
			src, expr := functionSource(cc, fc.Argument(0))
			if expr {
				cc.throw("the page function must be a function, to receive the element")
			}
			args := pageArgs(cc, fc.Arguments[min(1, len(fc.Arguments)):])
			return promise(cc, func(ctx context.Context) (json.RawMessage, error) {
				el, err := l.Element(ctx, "attached")
				if err != nil {
					return nil, err
				}
				return el.Evaluate(ctx, src, args...)
			}, m.fromJSON)
		},
		"elementHandle": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("elementHandle")
			cc.timeout = optionsOf(cc, fc.Argument(0)).timeout(cc.timeout)
			return promise(cc, func(ctx context.Context) (*chromium.Element, error) { return l.Element(ctx, "attached") },
				jp.elementValue)
		},
	}
	for name, act := range actions {
		methods[name] = func(fc sobek.FunctionCall) sobek.Value { return act(c(name), l, fc.Arguments) }
	}
	return m.object(l, methods)
}
