// Package chromium launches a Chromium and drives its pages over the
// DevTools protocol. It is the engine under k6/browser and the UI probe:
// one browser process, isolated contexts (each with its own cookies and
// storage) and pages (tabs) in them. The JavaScript bindings live in
// js/modules/browser; this package knows nothing of the runtime.
package chromium

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// Browser is one running Chromium process.
type Browser struct {
	opts        Options
	root        context.Context // the first tab's context: it owns the process
	cancelAlloc context.CancelFunc
	cancelRoot  context.CancelFunc

	mu     sync.Mutex
	closed bool
}

// Launch starts a Chromium as o describes and waits until it answers on the
// DevTools protocol. ctx bounds the start only; the browser lives until
// Close.
func Launch(ctx context.Context, o Options) (*Browser, error) {
	o = o.withDefaults()
	path, err := o.executable()
	if err != nil {
		return nil, err
	}
	flags := append(chromedp.DefaultExecAllocatorOptions[:0:0], chromedp.DefaultExecAllocatorOptions[:]...)
	flags = append(flags,
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.Flag("headless", o.Headless),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
	)
	for _, a := range o.Args {
		name, value := a.split()
		flags = append(flags, chromedp.Flag(name, value))
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), flags...)
	root, cancelRoot := chromedp.NewContext(alloc)
	b := &Browser{opts: o, root: root, cancelAlloc: cancelAlloc, cancelRoot: cancelRoot}

	if err = open(ctx, root); err != nil {
		b.Close()
		return nil, fmt.Errorf("launching %s: %w", path, err)
	}
	return b, nil
}

// Options returns the options the browser was launched with.
func (b *Browser) Options() Options { return b.opts }

// NewContext opens an isolated browser context: pages in it share cookies
// and storage with each other and with no other context.
func (b *Browser) NewContext() (*Context, error) {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return nil, errors.New("browser is closed")
	}
	return &Context{browser: b}, nil
}

// Close ends the browser process and every context and page in it.
func (b *Browser) Close() {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.closed = true
	b.mu.Unlock()
	_ = chromedp.Cancel(b.root)
	b.cancelRoot()
	b.cancelAlloc()
}

// Version returns the browser's product string ("Chrome/156.0…").
func (b *Browser) Version(ctx context.Context) (string, error) {
	var product string
	err := b.run(ctx, b.root, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		res, err := chromedp.CallBrowser(ctx, cdpbrowser.GetVersion, cdp.Empty{})
		product = res.Product
		return err
	}))
	return product, err
}

// run runs actions on the tab of tab, bounded by ctx as well as the tab's
// own life.
func (b *Browser) run(ctx, tab context.Context, actions ...chromedp.Action[chromedp.Void]) error {
	op, cancel := context.WithCancel(tab)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	err := chromedp.Do(op, actions...)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// open makes the first run on a chromedp context, which starts its browser
// or opens its tab and binds their life to tab itself; ctx bounds the wait.
func open(ctx, tab context.Context) error {
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(tab) }()
	select {
	case err := <-started:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// lookPath finds the first of names on PATH.
func lookPath(names ...string) (string, error) {
	for _, n := range names {
		if n == "" {
			continue
		}
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no Chromium found (tried %v); set K6_BROWSER_EXECUTABLE_PATH", names)
}
