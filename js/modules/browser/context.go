package k6browser

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// jsContext is a BrowserContext of a script: a Chromium context with the
// default timeouts the script set.
type jsContext struct {
	v *vuBrowser
	c *chromium.Context

	mu    sync.Mutex
	pages []*jsPage
	// timeout and navTimeout are the defaults the script set (nil: the
	// browser's, K6_BROWSER_TIMEOUT).
	timeout, navTimeout *time.Duration

	obj *sobek.Object // built on the VU's goroutine, once
}

// defaultTimeout returns the timeout of the context's actions.
func (jc *jsContext) defaultTimeout() time.Duration {
	jc.mu.Lock()
	defer jc.mu.Unlock()
	if jc.timeout != nil {
		return *jc.timeout
	}
	return jc.c.Browser().Options().Timeout
}

// navigationTimeout returns the timeout of the context's navigations.
func (jc *jsContext) navigationTimeout() time.Duration {
	jc.mu.Lock()
	nav := jc.navTimeout
	jc.mu.Unlock()
	if nav != nil {
		return *nav
	}
	return jc.defaultTimeout()
}

// newPage opens a page in the context.
func (jc *jsContext) newPage(ctx context.Context) (*jsPage, error) {
	p, err := jc.c.NewPage(ctx)
	if err != nil {
		return nil, err
	}
	jp := &jsPage{ctx: jc, p: p}
	jc.mu.Lock()
	jc.pages = append(jc.pages, jp)
	jc.mu.Unlock()
	return jp, nil
}

// openPages returns the context's pages that are not closed.
func (jc *jsContext) openPages() []*jsPage {
	jc.mu.Lock()
	defer jc.mu.Unlock()
	var out []*jsPage
	for _, p := range jc.pages {
		if !p.p.Closed() {
			out = append(out, p)
		}
	}
	return out
}

// close closes the context and its pages; browser.context() is then null.
func (jc *jsContext) close(ctx context.Context) error {
	err := jc.c.Close(ctx)
	jc.v.forget(jc)
	return err
}

// object returns the context's BrowserContext object.
func (jc *jsContext) object() *sobek.Object {
	if jc.obj == nil {
		jc.obj = jc.v.m.object(jc, jc.methods())
	}
	return jc.obj
}

// methods are the BrowserContext's methods.
func (jc *jsContext) methods() map[string]method {
	m := jc.v.m
	rt := m.rt()
	c := func(name string) call {
		return call{m: m, method: "browserContext." + name, timeout: jc.defaultTimeout()}
	}
	return map[string]method{
		"browser": func(sobek.FunctionCall) sobek.Value { return m.browserObj },
		"newPage": func(sobek.FunctionCall) sobek.Value {
			return promise(c("newPage"), jc.newPage, func(p *jsPage) sobek.Value { return p.object() })
		},
		"pages": func(sobek.FunctionCall) sobek.Value {
			var out []any
			for _, p := range jc.openPages() {
				out = append(out, p.object())
			}
			return rt.NewArray(out...)
		},
		"close": func(sobek.FunctionCall) sobek.Value { return settle(c("close"), jc.close) },
		"cookies": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("cookies")
			var urls []string
			for i := range fc.Arguments {
				urls = append(urls, str(cc, fc.Arguments, i, "a URL"))
			}
			return promise(cc, func(ctx context.Context) ([]chromium.Cookie, error) { return jc.c.Cookies(ctx, urls...) },
				func(k []chromium.Cookie) sobek.Value { return m.jsonValue(k) })
		},
		"addCookies": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("addCookies")
			cookies := jc.cookiesArg(cc, fc.Argument(0))
			return settle(cc, func(ctx context.Context) error { return jc.c.AddCookies(ctx, cookies) })
		},
		"clearCookies": func(sobek.FunctionCall) sobek.Value {
			return settle(c("clearCookies"), jc.c.ClearCookies)
		},
		"setDefaultTimeout": func(fc sobek.FunctionCall) sobek.Value {
			d := millisArg(c("setDefaultTimeout"), fc.Argument(0))
			jc.mu.Lock()
			jc.timeout = &d
			jc.mu.Unlock()
			return sobek.Undefined()
		},
		"setDefaultNavigationTimeout": func(fc sobek.FunctionCall) sobek.Value {
			d := millisArg(c("setDefaultNavigationTimeout"), fc.Argument(0))
			jc.mu.Lock()
			jc.navTimeout = &d
			jc.mu.Unlock()
			return sobek.Undefined()
		},
		"addInitScript": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("addInitScript")
			src := initScript(cc, fc.Argument(0))
			return settle(cc, func(ctx context.Context) error { return jc.c.AddInitScript(ctx, src) })
		},
	}
}

// cookiesArg reads addCookies' array of cookies.
func (jc *jsContext) cookiesArg(c call, v sobek.Value) []chromium.Cookie {
	list, ok := v.Export().([]any)
	if !ok {
		c.throw("the cookies must be an array of objects, got %s", v.String())
	}
	out := make([]chromium.Cookie, len(list))
	for i := range list {
		o := optionsOf(call{m: c.m, method: fmt.Sprintf("%s: cookie %d", c.method, i)}, v.ToObject(c.m.rt()).Get(fmt.Sprint(i)))
		out[i] = chromium.Cookie{
			Name: o.str("name", ""), Value: o.str("value", ""), URL: o.str("url", ""),
			Domain: o.str("domain", ""), Path: o.str("path", ""), Expires: o.num("expires", 0),
			HTTPOnly: o.boolean("httpOnly", false), Secure: o.boolean("secure", false),
			SameSite: o.oneOf("sameSite", "", "", "Strict", "Lax", "None"),
		}
	}
	return out
}

// millisArg reads a timeout argument in milliseconds; 0 is none.
func millisArg(c call, v sobek.Value) time.Duration {
	var n float64
	switch x := v.Export().(type) {
	case int64:
		n = float64(x)
	case float64:
		n = x
	default:
		c.throw("the timeout must be a number of milliseconds, got %s", v.String())
	}
	if n < 0 {
		c.throw("the timeout %v must not be negative", n)
	}
	return time.Duration(n * float64(time.Millisecond))
}

// initScript reads addInitScript's script: a function (called with no
// argument), its source, or {content}.
func initScript(c call, v sobek.Value) string {
	if _, ok := sobek.AssertFunction(v); ok {
		return "(" + sourceOf(v) + ")()"
	}
	if obj, ok := v.(*sobek.Object); ok {
		if content := optionsOf(c, obj).str("content", ""); content != "" {
			return content
		}
		if obj.Get("path") != nil && !sobek.IsUndefined(obj.Get("path")) {
			c.throw("a script file (path) is not supported: pass the script's content")
		}
	}
	s, ok := v.Export().(string)
	if !ok || s == "" {
		c.throw("the script must be a function, a string or {content}, got %s", v.String())
	}
	return s
}
