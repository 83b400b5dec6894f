package k6browser

import (
	"context"

	"github.com/grafana/sobek"
)

// browserObject returns the module's browser object: k6's Browser, whose
// Chromium is the VU's own and whose one context at a time is the
// iteration's.
func (m *instance) browserObject() *sobek.Object {
	v := m.chrome
	return m.object(v, map[string]method{
		"newPage": func(fc sobek.FunctionCall) sobek.Value {
			c := call{m: m, method: "browser.newPage", timeout: launchTimeout}
			o := optionsOf(c, fc.Argument(0)).contextOptions()
			return promise(c, func(ctx context.Context) (*jsPage, error) {
				jc, err := v.newContext(ctx, o)
				if err != nil {
					return nil, err
				}
				return jc.newPage(ctx)
			}, func(p *jsPage) sobek.Value { return p.object() })
		},
		"newContext": func(fc sobek.FunctionCall) sobek.Value {
			c := call{m: m, method: "browser.newContext", timeout: launchTimeout}
			o := optionsOf(c, fc.Argument(0)).contextOptions()
			return promise(c, func(ctx context.Context) (*jsContext, error) { return v.newContext(ctx, o) },
				func(jc *jsContext) sobek.Value { return jc.object() })
		},
		"context": func(sobek.FunctionCall) sobek.Value {
			c := call{m: m, method: "browser.context"}
			if err := v.usable(); err != nil {
				c.throw("%v", err)
			}
			v.mu.Lock()
			jc := v.current
			v.mu.Unlock()
			if jc == nil {
				return sobek.Null()
			}
			return jc.object()
		},
		"closeContext": func(sobek.FunctionCall) sobek.Value {
			c := call{m: m, method: "browser.closeContext", timeout: closeTimeout}
			v.mu.Lock()
			jc := v.current
			v.mu.Unlock()
			return settle(c, func(ctx context.Context) error {
				if jc == nil {
					return errNoContext
				}
				return jc.close(ctx)
			})
		},
		"isConnected": func(sobek.FunctionCall) sobek.Value {
			c := call{m: m, method: "browser.isConnected"}
			return m.rt().ToValue(blocking(c, func(ctx context.Context) (bool, error) {
				_, err := v.browser(ctx)
				return v.connected(), err
			}))
		},
		"version": func(sobek.FunctionCall) sobek.Value {
			c := call{m: m, method: "browser.version"}
			version := blocking(c, func(ctx context.Context) (string, error) {
				if _, err := v.browser(ctx); err != nil {
					return "", err
				}
				v.mu.Lock()
				defer v.mu.Unlock()
				return v.version, nil
			})
			return m.rt().ToValue(version)
		},
		"userAgent": func(sobek.FunctionCall) sobek.Value {
			c := call{m: m, method: "browser.userAgent"}
			return promise(c, func(ctx context.Context) (string, error) {
				b, err := v.browser(ctx)
				if err != nil {
					return "", err
				}
				return b.UserAgent(ctx)
			}, func(s string) sobek.Value { return m.rt().ToValue(s) })
		},
	})
}
