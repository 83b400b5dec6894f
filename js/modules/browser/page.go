package k6browser

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// jsPage is a Page of a script: a Chromium page, its default timeouts and
// its console handlers.
type jsPage struct {
	ctx *jsContext
	p   *chromium.Page

	mu                  sync.Mutex
	timeout, navTimeout *time.Duration

	obj     *sobek.Object // built on the VU's goroutine, once
	console []sobek.Callable
}

// m returns the module instance.
func (jp *jsPage) m() *instance { return jp.ctx.v.m }

// call returns a call of the page's method name with its default timeout.
func (jp *jsPage) call(name string) call {
	jp.mu.Lock()
	t := jp.timeout
	jp.mu.Unlock()
	c := call{m: jp.m(), method: "page." + name, timeout: jp.ctx.defaultTimeout()}
	if t != nil {
		c.timeout = *t
	}
	return c
}

// navCall returns a call of a navigation method with its default timeout.
func (jp *jsPage) navCall(name string) call {
	c := jp.call(name)
	jp.mu.Lock()
	nav, page := jp.navTimeout, jp.timeout
	jp.mu.Unlock()
	switch {
	case nav != nil:
		c.timeout = *nav
	case page == nil:
		c.timeout = jp.ctx.navigationTimeout()
	}
	return c
}

// object returns the page's Page object.
func (jp *jsPage) object() *sobek.Object {
	if jp.obj == nil {
		jp.obj = jp.m().object(jp, jp.methods())
		_ = jp.obj.Set("keyboard", jp.keyboardObject())
		_ = jp.obj.Set("mouse", jp.mouseObject())
	}
	return jp.obj
}

// responseValue returns a Response object, or null.
func (jp *jsPage) responseValue(r *chromium.Response) sobek.Value {
	if r == nil {
		return sobek.Null()
	}
	return jp.m().responseObject(r)
}

// methods are the Page's methods but its selector shortcuts.
func (jp *jsPage) methods() map[string]method {
	m := jp.m()
	rt := m.rt()
	p := jp.p
	out := map[string]method{
		"goto": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.navCall("goto")
			url := str(c, fc.Arguments, 0, "the URL")
			o := optionsOf(c, fc.Argument(1))
			until := o.waitUntil()
			c.timeout = o.timeout(c.timeout)
			return promise(c, func(ctx context.Context) (*chromium.Response, error) { return p.Navigate(ctx, url, until) }, jp.responseValue)
		},
		"reload": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.navCall("reload")
			o := optionsOf(c, fc.Argument(0))
			until := o.waitUntil()
			c.timeout = o.timeout(c.timeout)
			return promise(c, func(ctx context.Context) (*chromium.Response, error) { return p.Reload(ctx, until) }, jp.responseValue)
		},
		"waitForNavigation": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.navCall("waitForNavigation")
			o := optionsOf(c, fc.Argument(0))
			until := o.waitUntil()
			c.timeout = o.timeout(c.timeout)
			w := p.WatchNavigation() // now: the navigation may start before the promise runs
			return promise(c, func(ctx context.Context) (*chromium.Response, error) { return w.Wait(ctx, until) }, jp.responseValue)
		},
		"waitForLoadState": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.navCall("waitForLoadState")
			state := "load"
			if v := fc.Argument(0); !sobek.IsUndefined(v) && !sobek.IsNull(v) {
				state = str(c, fc.Arguments, 0, "the state")
			}
			until, err := chromium.ParseLoadState(state)
			if err != nil {
				c.throw("%v", err)
			}
			c.timeout = optionsOf(c, fc.Argument(1)).timeout(c.timeout)
			return settle(c, func(ctx context.Context) error { return p.WaitForLoadState(ctx, until) })
		},
		"waitForSelector": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.call("waitForSelector")
			sel := str(c, fc.Arguments, 0, "the selector")
			o := optionsOf(c, fc.Argument(1))
			state := o.state()
			c.timeout = o.timeout(c.timeout)
			return promise(c, func(ctx context.Context) (*chromium.Element, error) { return p.WaitForSelector(ctx, sel, state) },
				jp.elementValue)
		},
		"waitForFunction": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.call("waitForFunction")
			src, expr := functionSource(c, fc.Argument(0))
			if expr {
				src = "() => (" + src + ")"
			}
			o := optionsOf(c, fc.Argument(1))
			polling := jp.polling(o)
			c.timeout = o.timeout(c.timeout)
			args := pageArgs(c, fc.Arguments[min(2, len(fc.Arguments)):])
			return promise(c, func(ctx context.Context) (*chromium.Handle, error) {
				return p.WaitForFunction(ctx, src, polling, args...)
			}, jp.handleValue)
		},
		"waitForTimeout": func(fc sobek.FunctionCall) sobek.Value {
			c := call{m: m, method: "page.waitForTimeout"}
			d := millisArg(c, fc.Argument(0))
			return settle(c, func(ctx context.Context) error { return chromium.Pause(ctx, d) })
		},
		"evaluate": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.call("evaluate")
			c.timeout = 0
			src, expr := functionSource(c, fc.Argument(0))
			args := pageArgs(c, fc.Arguments[min(1, len(fc.Arguments)):])
			return promise(c, func(ctx context.Context) (json.RawMessage, error) {
				if expr {
					return p.EvaluateExpression(ctx, src)
				}
				return p.EvaluateJSON(ctx, src, args...)
			}, m.fromJSON)
		},
		"evaluateHandle": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.call("evaluateHandle")
			c.timeout = 0
			src, expr := functionSource(c, fc.Argument(0))
			if expr {
				src = "() => (" + src + ")"
			}
			args := pageArgs(c, fc.Arguments[min(1, len(fc.Arguments)):])
			return promise(c, func(ctx context.Context) (*chromium.Handle, error) { return p.EvaluateHandle(ctx, src, args...) },
				jp.handleValue)
		},
		"title": func(sobek.FunctionCall) sobek.Value {
			return promise(jp.call("title"), p.Title, func(s string) sobek.Value { return rt.ToValue(s) })
		},
		"content": func(sobek.FunctionCall) sobek.Value {
			return promise(jp.call("content"), p.Content, func(s string) sobek.Value { return rt.ToValue(s) })
		},
		"url": func(sobek.FunctionCall) sobek.Value { return rt.ToValue(p.URL()) },
		"setContent": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.navCall("setContent")
			html := str(c, fc.Arguments, 0, "the HTML")
			o := optionsOf(c, fc.Argument(1))
			until := o.waitUntil()
			c.timeout = o.timeout(c.timeout)
			return settle(c, func(ctx context.Context) error { return p.SetContent(ctx, html, until) })
		},
		"setViewportSize": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.call("setViewportSize")
			vp := optionsOf(c, fc.Argument(0)).viewport()
			return settle(c, func(ctx context.Context) error { return p.SetViewport(ctx, *vp) })
		},
		"viewportSize": func(sobek.FunctionCall) sobek.Value {
			vp := p.Viewport()
			return m.jsonValue(struct {
				Width  int64 `json:"width"`
				Height int64 `json:"height"`
			}{vp.Width, vp.Height})
		},
		"setExtraHTTPHeaders": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.call("setExtraHTTPHeaders")
			o := optionsOf(c, fc.Argument(0))
			h := map[string]string{}
			if o.obj != nil {
				for _, k := range o.obj.Keys() {
					h[k] = o.str(k, "")
				}
			}
			return settle(c, func(ctx context.Context) error { return p.SetExtraHTTPHeaders(ctx, h) })
		},
		"screenshot": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.call("screenshot")
			return jp.screenshot(c, optionsOf(c, fc.Argument(0)))
		},
		"locator": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.call("locator")
			sel := str(c, fc.Arguments, 0, "the selector")
			lo := optionsOf(c, fc.Argument(1)).locator()
			return jp.locatorObject(p.Locator(sel, lo))
		},
		"$": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.call("$")
			sel := str(c, fc.Arguments, 0, "the selector")
			return promise(c, func(ctx context.Context) (*chromium.Element, error) { return p.Query(ctx, sel) }, jp.elementValue)
		},
		"$$": func(fc sobek.FunctionCall) sobek.Value {
			c := jp.call("$$")
			sel := str(c, fc.Arguments, 0, "the selector")
			return promise(c, func(ctx context.Context) ([]*chromium.Element, error) { return p.QueryAll(ctx, sel) }, jp.elementsValue)
		},
		"close": func(sobek.FunctionCall) sobek.Value {
			return settle(call{m: m, method: "page.close", timeout: closeTimeout}, func(context.Context) error {
				p.Close()
				return nil
			})
		},
		"isClosed":     func(sobek.FunctionCall) sobek.Value { return rt.ToValue(p.Closed()) },
		"context":      func(sobek.FunctionCall) sobek.Value { return jp.ctx.object() },
		"bringToFront": func(sobek.FunctionCall) sobek.Value { return settle(jp.call("bringToFront"), p.BringToFront) },
		"on": func(fc sobek.FunctionCall) sobek.Value {
			jp.on(jp.call("on"), fc.Arguments)
			return sobek.Undefined()
		},
		"setDefaultTimeout": func(fc sobek.FunctionCall) sobek.Value {
			d := millisArg(jp.call("setDefaultTimeout"), fc.Argument(0))
			jp.mu.Lock()
			jp.timeout = &d
			jp.mu.Unlock()
			return sobek.Undefined()
		},
		"setDefaultNavigationTimeout": func(fc sobek.FunctionCall) sobek.Value {
			d := millisArg(jp.call("setDefaultNavigationTimeout"), fc.Argument(0))
			jp.mu.Lock()
			jp.navTimeout = &d
			jp.mu.Unlock()
			return sobek.Undefined()
		},
	}
	for name, act := range actions {
		out[name] = jp.shortcut(name, act)
	}
	return out
}

// shortcut is the Page method of an action on the first element a
// selector matches: page.click(selector, options) and its kin. Options
// may set strict, which makes several matches an error.
func (jp *jsPage) shortcut(name string, act action) method {
	return func(fc sobek.FunctionCall) sobek.Value {
		c := jp.call(name)
		sel := str(c, fc.Arguments, 0, "the selector")
		args := fc.Arguments[1:]
		strict := false
		for _, a := range args {
			if _, ok := a.(*sobek.Object); ok && !isArray(a) && valueOf(a) == nil {
				strict = optionsOf(c, a).boolean("strict", strict)
			}
		}
		return act(c, jp.p.Locator(sel, chromium.LocatorOptions{}).Strict(strict), args)
	}
}

// isArray reports whether v is an array.
func isArray(v sobek.Value) bool {
	obj, ok := v.(*sobek.Object)
	return ok && obj.ClassName() == "Array"
}

// polling reads waitForFunction's polling option: "raf" (the default),
// "mutation" or an interval in ms.
func (jp *jsPage) polling(o opts) chromium.Polling {
	v := o.get("polling")
	if v == nil {
		return chromium.Polling{Mode: "raf"}
	}
	if s, ok := v.Export().(string); ok {
		if s != "raf" && s != "mutation" {
			o.c.throw("option polling: %q is not raf, mutation or a number of milliseconds", s)
		}
		return chromium.Polling{Mode: s}
	}
	ms := o.millis("polling", 0)
	if ms <= 0 {
		o.c.throw("option polling: the interval must be more than 0 ms")
	}
	return chromium.Polling{Interval: ms}
}

// screenshot captures the page, writes the image to the path option when
// set, and resolves to its bytes as an ArrayBuffer.
func (jp *jsPage) screenshot(c call, o opts) sobek.Value {
	so := chromium.ScreenshotOptions{
		FullPage: o.boolean("fullPage", false),
		Format:   o.oneOf("type", "png", "png", "jpeg"),
		Quality:  int(o.num("quality", 0)),
	}
	path := o.str("path", "")
	if path != "" && o.get("type") == nil && (filepath.Ext(path) == ".jpg" || filepath.Ext(path) == ".jpeg") {
		so.Format = "jpeg"
	}
	c.timeout = o.timeout(c.timeout)
	return promise(c, func(ctx context.Context) ([]byte, error) {
		img, err := jp.p.Screenshot(ctx, so)
		if err != nil || path == "" {
			return img, err
		}
		if dir := filepath.Dir(path); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, err
			}
		}
		return img, os.WriteFile(path, img, 0o644)
	}, func(b []byte) sobek.Value { return jp.m().rt().ToValue(jp.m().rt().NewArrayBuffer(b)) })
}

// elementValue returns an ElementHandle object, or null.
func (jp *jsPage) elementValue(el *chromium.Element) sobek.Value {
	if el == nil {
		return sobek.Null()
	}
	return jp.elementObject(el)
}

// elementsValue returns an array of ElementHandle objects.
func (jp *jsPage) elementsValue(els []*chromium.Element) sobek.Value {
	out := make([]any, len(els))
	for i, el := range els {
		out[i] = jp.elementObject(el)
	}
	return jp.m().rt().NewArray(out...)
}

// handleValue returns a JSHandle object, or an ElementHandle object when
// the value is an element.
func (jp *jsPage) handleValue(h *chromium.Handle) sobek.Value {
	if el := h.AsElement(); el != nil {
		return jp.elementObject(el)
	}
	return jp.handleObject(h)
}
