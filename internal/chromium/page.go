package chromium

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/chromedp/chromedp"
)

// Page is one tab. Its methods must not be called from several goroutines
// at once (a VU drives its pages one call at a time).
type Page struct {
	context *Context
	tab     context.Context
	cancel  context.CancelFunc
	// observer gathers the page's samples; nil without Options.Samples.
	observer *observer

	st *pageState // events and input devices (see setup)

	mu     sync.Mutex
	closed bool
}

// Context returns the browser context the page belongs to.
func (p *Page) Context() *Context { return p.context }

// Tab returns the chromedp context of the page's tab, for actions this
// package does not wrap.
func (p *Page) Tab() context.Context { return p.tab }

// Run runs chromedp actions on the page, bounded by ctx and the browser's
// default timeout.
func (p *Page) Run(ctx context.Context, actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(ctx, p.context.browser.opts.Timeout)
	defer cancel()
	return p.context.browser.run(ctx, p.tab, actions...)
}

// Goto navigates the page to url and waits for its load event.
func (p *Page) Goto(ctx context.Context, url string) error {
	return p.Run(ctx, chromedp.Navigate(url))
}

// Evaluate calls the JavaScript function fn (its source, e.g.
// "(a, b) => a + b") in the page with args (JSON-encoded), awaits the
// promise it may return and decodes its JSON result into out (nil: the
// result is dropped). A page exception is returned as an error.
func (p *Page) Evaluate(ctx context.Context, fn string, args []any, out any) error {
	expr, err := callExpression(fn, args)
	if err != nil {
		return err
	}
	var raw []byte
	err = p.Run(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		raw, err = chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise)(ctx, t)
		return err
	}))
	if err != nil {
		return err
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// callExpression writes fn called with args as one expression.
func callExpression(fn string, args []any) (string, error) {
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(fn)
	b.WriteString(")(")
	for i, a := range args {
		if i > 0 {
			b.WriteString(",")
		}
		j, err := json.Marshal(a)
		if err != nil {
			return "", fmt.Errorf("argument %d: %w", i, err)
		}
		b.Write(j)
	}
	b.WriteString(")")
	return b.String(), nil
}

// Closed reports whether the page was closed.
func (p *Page) Closed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// Close closes the tab. With Options.Samples it first reports the open
// document's final web vitals (LCP, CLS, INP) and waits until the sink has
// every sample of the page.
func (p *Page) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.mu.Unlock()
	p.unobserve()
	_ = chromedp.Cancel(p.tab)
	p.cancel()
}
