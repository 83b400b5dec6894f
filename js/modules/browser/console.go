package k6browser

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// on is page.on(event, handler). Only 'console' is supported: the handler
// gets a ConsoleMessage on the VU's event loop for each call of the page's
// console API during the iteration.
func (jp *jsPage) on(c call, args []sobek.Value) {
	event := str(c, args, 0, "the event")
	fn, ok := sobek.AssertFunction(arg(args, 1))
	if !ok {
		c.throw("the handler must be a function")
	}
	if event != "console" {
		c.throw("the event %q is not supported: only 'console' is", event)
	}
	jp.console = append(jp.console, fn)
	if len(jp.console) > 1 {
		return
	}
	// The iteration's context: once it ends, messages are dropped, so
	// that none lands in the next iteration.
	iter := jp.m().vu.Context()
	vu := jp.m().vu
	jp.p.OnConsole(func(msg chromium.ConsoleMessage) {
		if iter.Err() != nil {
			return
		}
		done := vu.RegisterCallback()
		done(func() error { return jp.deliver(msg) })
	})
}

// deliver calls the console handlers with a message, on the VU's loop.
func (jp *jsPage) deliver(msg chromium.ConsoleMessage) error {
	rt := jp.m().rt()
	obj := jp.m().object(nil, map[string]method{
		"type": func(sobek.FunctionCall) sobek.Value { return rt.ToValue(msg.Type) },
		"text": func(sobek.FunctionCall) sobek.Value { return rt.ToValue(msg.Text) },
		"page": func(sobek.FunctionCall) sobek.Value { return jp.object() },
	})
	for _, fn := range jp.console {
		if _, err := fn(sobek.Undefined(), obj); err != nil {
			return err
		}
	}
	return nil
}
