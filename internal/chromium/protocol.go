package chromium

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// errPageClosed is the error of a call on a page that was closed.
var errPageClosed = errors.New("the page is closed")

// pageState is what this package keeps of a page besides its tab: the
// recorded events and the input devices' state.
type pageState struct {
	events   *events
	keyboard keyboard
	mouse    mouse
	viewport atomic.Pointer[Viewport]
}

// call sends one protocol command to the page's tab and returns its result.
// ctx bounds the call, as does the tab's own life; when ctx ended, its
// error is returned.
func call[P, R any](ctx context.Context, p *Page, cmd cdp.Command[P, R], params P) (R, error) {
	op, cancel := context.WithCancel(p.tab)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	res, err := chromedp.Call(op, cmd, params)
	if err != nil && ctx.Err() != nil {
		return res, ctx.Err()
	}
	if err != nil && p.Closed() {
		return res, errPageClosed
	}
	return res, err
}

// remoteText renders a protocol value as the console shows it: a string
// as it is, another primitive as its JSON, an object as its description.
func remoteText(o *runtime.RemoteObject) string {
	switch {
	case o == nil || o.Type == runtime.RemoteObjectTypeUndefined:
		return "undefined"
	case len(o.Value) > 0:
		var s string
		if json.Unmarshal([]byte(o.Value), &s) == nil {
			return s
		}
		return string(o.Value)
	case o.UnserializableValue != "":
		return string(o.UnserializableValue)
	}
	return o.Description
}

// exceptionText returns the first line of a page exception, "Error: boom"
// for `throw new Error("boom")`.
func exceptionText(d *runtime.ExceptionDetails) string {
	text := d.Text
	if d.Exception != nil {
		if s := remoteText(d.Exception); s != "" {
			text = s
		}
	}
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	return strings.TrimPrefix(text, "Uncaught ")
}

// contextGone reports whether err says that the document a call ran in
// went away (a navigation replaced it): the call may be made again in the
// new document.
func contextGone(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	for _, s := range []string{
		"Execution context was destroyed",
		"Cannot find context with specified id",
		"Cannot find default execution context",
		"Inspected target navigated or closed",
		"Promise was collected",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
