package k6browser

import (
	"context"

	"github.com/grafana/sobek"
)

// keyboardObject returns the page's Keyboard object: down, up, press, type
// and insertText, each resolving once the keys were sent.
func (jp *jsPage) keyboardObject() *sobek.Object {
	kb := jp.p.Keyboard()
	c := func(name string) call {
		cc := jp.call(name)
		cc.method = "keyboard." + name
		return cc
	}
	key := func(name string, do func(ctx context.Context, key string) error) method {
		return func(fc sobek.FunctionCall) sobek.Value {
			cc := c(name)
			k := str(cc, fc.Arguments, 0, "the key")
			return settle(cc, func(ctx context.Context) error { return do(ctx, k) })
		}
	}
	return jp.m().object(kb, map[string]method{
		"down": key("down", kb.Down),
		"up":   key("up", kb.Up),
		"press": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("press")
			k := str(cc, fc.Arguments, 0, "the key")
			delay := optionsOf(cc, fc.Argument(1)).millis("delay", 0)
			return settle(cc, func(ctx context.Context) error { return kb.Press(ctx, k, delay) })
		},
		"type": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("type")
			text := str(cc, fc.Arguments, 0, "the text")
			delay := optionsOf(cc, fc.Argument(1)).millis("delay", 0)
			return settle(cc, func(ctx context.Context) error { return kb.Type(ctx, text, delay) })
		},
		"insertText": key("insertText", kb.InsertText),
	})
}

// mouseObject returns the page's Mouse object: move, down, up, click and
// dblclick, at viewport coordinates in CSS pixels.
func (jp *jsPage) mouseObject() *sobek.Object {
	ms := jp.p.Mouse()
	c := func(name string) call {
		cc := jp.call(name)
		cc.method = "mouse." + name
		return cc
	}
	num := func(cc call, v sobek.Value, what string) float64 {
		switch n := v.Export().(type) {
		case int64:
			return float64(n)
		case float64:
			return n
		}
		cc.throw("%s must be a number, got %s", what, v.String())
		return 0
	}
	click := func(name string, count int) method {
		return func(fc sobek.FunctionCall) sobek.Value {
			cc := c(name)
			x, y := num(cc, fc.Argument(0), "x"), num(cc, fc.Argument(1), "y")
			o := optionsOf(cc, fc.Argument(2)).click()
			if count > 0 {
				o.ClickCount = count
			}
			return settle(cc, func(ctx context.Context) error { return ms.Click(ctx, x, y, o) })
		}
	}
	button := func(name string, do func(ctx context.Context, btn string, count int) error) method {
		return func(fc sobek.FunctionCall) sobek.Value {
			cc := c(name)
			o := optionsOf(cc, fc.Argument(0))
			btn := o.oneOf("button", "left", "left", "right", "middle")
			count := int(o.num("clickCount", 1))
			return settle(cc, func(ctx context.Context) error { return do(ctx, btn, count) })
		}
	}
	return jp.m().object(ms, map[string]method{
		"move": func(fc sobek.FunctionCall) sobek.Value {
			cc := c("move")
			x, y := num(cc, fc.Argument(0), "x"), num(cc, fc.Argument(1), "y")
			steps := int(optionsOf(cc, fc.Argument(2)).num("steps", 1))
			return settle(cc, func(ctx context.Context) error { return ms.Move(ctx, x, y, steps) })
		},
		"down":     button("down", ms.Down),
		"up":       button("up", ms.Up),
		"click":    click("click", 0),
		"dblclick": click("dblclick", 2),
	})
}
