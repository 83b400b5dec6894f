package chromium

import (
	"context"
	"errors"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Context is an isolated browser context (an incognito-like profile): its
// pages share cookies and storage with each other only.
type Context struct {
	browser *Browser

	mu     sync.Mutex
	id     cdp.BrowserContextID
	pages  []*Page
	closed bool

	st contextState // options, init scripts (see options of NewContextWith)
}

// Browser returns the browser the context belongs to.
func (c *Context) Browser() *Browser { return c.browser }

// NewPage opens a tab in the context.
func (c *Context) NewPage(ctx context.Context) (*Page, error) {
	id, err := c.ensure(ctx)
	if err != nil {
		return nil, err
	}
	tab, cancel := chromedp.NewContext(c.browser.root, chromedp.WithExistingBrowserContext(id))
	p := &Page{context: c, tab: tab, cancel: cancel}
	if err := open(ctx, tab); err != nil {
		cancel()
		return nil, err
	}
	if err := p.setup(ctx); err != nil {
		p.Close()
		return nil, err
	}
	if err := p.observe(ctx); err != nil {
		p.Close()
		return nil, err
	}
	c.mu.Lock()
	c.pages = append(c.pages, p)
	c.mu.Unlock()
	return p, nil
}

// Pages returns the context's open pages.
func (c *Context) Pages() []*Page {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*Page, 0, len(c.pages))
	for _, p := range c.pages {
		if !p.Closed() {
			out = append(out, p)
		}
	}
	return out
}

// ensure creates the browser context on first use.
func (c *Context) ensure(ctx context.Context) (cdp.BrowserContextID, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return "", errors.New("browser context is closed")
	}
	if c.id != "" {
		return c.id, nil
	}
	err := c.browser.run(ctx, c.browser.root, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		res, err := chromedp.CallBrowser(ctx, target.CreateBrowserContext, target.CreateBrowserContextParams{})
		c.id = res.BrowserContextID
		return err
	}))
	return c.id, err
}

// Close closes the context's pages and disposes of its storage.
func (c *Context) Close(ctx context.Context) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	pages, id := c.pages, c.id
	c.pages = nil
	c.mu.Unlock()
	for _, p := range pages {
		p.Close()
	}
	if id == "" {
		return nil
	}
	return c.browser.run(ctx, c.browser.root, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.CallBrowser(ctx, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: id})
		return err
	}))
}
