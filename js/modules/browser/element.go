package k6browser

import (
	"context"
	"encoding/json"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// jsHandle ties a JSHandle object to its page and value.
type jsHandle struct {
	page *jsPage
	h    *chromium.Handle
}

// jsElement ties an ElementHandle object to its page and element.
type jsElement struct {
	page *jsPage
	el   *chromium.Element
}

// handleMethods are the methods of a JSHandle, which an ElementHandle has
// too: evaluate, evaluateHandle, jsonValue, asElement and dispose.
func (jp *jsPage) handleMethods(kind string, h *chromium.Handle) map[string]method {
	m := jp.m()
	c := func(name string) call { return call{m: m, method: kind + "." + name} }
	return map[string]method{
		"evaluate": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("evaluate")
			src, expr := functionSource(cc, fc.Argument(0))
			if expr {
				cc.throw("the page function must be a function, to receive the handle's value")
			}
			args := pageArgs(cc, fc.Arguments[min(1, len(fc.Arguments)):])
			return promise(cc, func(ctx context.Context) (json.RawMessage, error) { return h.Evaluate(ctx, src, args...) }, m.fromJSON)
		},
		"evaluateHandle": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("evaluateHandle")
			src, expr := functionSource(cc, fc.Argument(0))
			if expr {
				cc.throw("the page function must be a function, to receive the handle's value")
			}
			args := pageArgs(cc, fc.Arguments[min(1, len(fc.Arguments)):])
			return promise(cc, func(ctx context.Context) (*chromium.Handle, error) { return h.EvaluateHandle(ctx, src, args...) },
				jp.handleValue)
		},
		"jsonValue": func(sobek.FunctionCall) sobek.Value {
			return promise(c("jsonValue"), h.JSONValue, m.fromJSON)
		},
		"asElement": func(sobek.FunctionCall) sobek.Value { return jp.elementValue(h.AsElement()) },
		"dispose":   func(sobek.FunctionCall) sobek.Value { return settle(c("dispose"), h.Dispose) },
	}
}

// handleObject returns a JSHandle object.
func (jp *jsPage) handleObject(h *chromium.Handle) *sobek.Object {
	return jp.m().object(&jsHandle{page: jp, h: h}, jp.handleMethods("jsHandle", h))
}

// elementObject returns an ElementHandle object: a JSHandle with the
// element actions, which wait for it as a Locator's do but keep to this
// element.
func (jp *jsPage) elementObject(el *chromium.Element) *sobek.Object {
	methods := jp.handleMethods("elementHandle", &el.Handle)
	c := func(name string) call {
		cc := jp.call(name)
		cc.method = "elementHandle." + name
		return cc
	}
	for name, act := range actions {
		methods[name] = func(fc sobek.FunctionCall) sobek.Value { return act(c(name), el, fc.Arguments) }
	}
	methods["waitForElementState"] = func(fc sobek.FunctionCall) sobek.Value {
		cc := c("waitForElementState")
		state := str(cc, fc.Arguments, 0, "the state")
		engine := map[string]string{"visible": "visible", "hidden": "hidden", "enabled": "enabled",
			"editable": "editable", "stable": "actionable"}[state]
		if engine == "" {
			cc.throw("the state %q is not one of visible, hidden, enabled, editable, stable", state)
		}
		cc.timeout = optionsOf(cc, fc.Argument(1)).timeout(cc.timeout)
		return settle(cc, func(ctx context.Context) error { return el.WaitFor(ctx, engine) })
	}
	return jp.m().object(&jsElement{page: jp, el: el}, methods)
}
