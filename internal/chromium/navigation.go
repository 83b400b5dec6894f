package chromium

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
)

// LoadState is how far a document must load before a navigation counts
// as done (k6's waitUntil).
type LoadState string

// The load states, as k6 names them.
const (
	// Load waits for the load event: the document and its resources.
	Load LoadState = "load"
	// DOMContentLoaded waits for the DOMContentLoaded event: the document
	// is parsed.
	DOMContentLoaded LoadState = "domcontentloaded"
	// NetworkIdle waits until the page made no network request for 500 ms
	// after loading.
	NetworkIdle LoadState = "networkidle"
	// Commit waits only until the new document is committed.
	Commit LoadState = "commit"
)

// ParseLoadState reads a waitUntil value; "" is Load.
func ParseLoadState(s string) (LoadState, error) {
	switch st := LoadState(s); st {
	case "":
		return Load, nil
	case Load, DOMContentLoaded, NetworkIdle, Commit:
		return st, nil
	}
	return "", fmt.Errorf("waitUntil %q: want load, domcontentloaded, networkidle or commit", s)
}

// event returns the name of the lifecycle event that marks the state.
func (s LoadState) event() string {
	switch s {
	case DOMContentLoaded:
		return "DOMContentLoaded"
	case NetworkIdle:
		return "networkIdle"
	case Commit:
		return "init"
	}
	return "load"
}

// sameDocumentWait bounds the wait for the event of a navigation within
// the document.
const sameDocumentWait = time.Second

// Response is the HTTP response of a document.
type Response struct {
	URL        string
	Status     int
	StatusText string
	// Headers are the response's headers, by their name in lower case.
	Headers map[string]string
	// RemoteAddress is the server's "ip:port".
	RemoteAddress string
	// FromCache says the browser did not ask the server.
	FromCache bool
}

// newResponse converts the protocol's response.
func newResponse(r *network.Response) *Response {
	out := &Response{URL: r.URL, Status: int(r.Status), StatusText: r.StatusText, Headers: map[string]string{},
		FromCache: r.FromDiskCache || r.FromPrefetchCache || r.FromServiceWorker}
	for k, v := range r.Headers {
		out.Headers[strings.ToLower(k)] = fmt.Sprint(v)
	}
	if r.RemoteIPAddress != "" {
		out.RemoteAddress = fmt.Sprintf("%s:%d", r.RemoteIPAddress, r.RemotePort)
	}
	return out
}

// NavigationError is a navigation the browser refused or could not load:
// Text is Chromium's reason, such as "net::ERR_CONNECTION_REFUSED".
type NavigationError struct {
	URL, Text string
}

func (e *NavigationError) Error() string { return fmt.Sprintf("navigating to %s: %s", e.URL, e.Text) }

// Navigate loads url in the page and waits until its document reached
// until. It returns the document's response: nil for a navigation within
// the document (a fragment) or to a URL without one (about:blank, data:).
// A URL the browser cannot load is a *NavigationError.
func (p *Page) Navigate(ctx context.Context, url string, until LoadState) (*Response, error) {
	w := p.WatchNavigation()
	res, err := call(ctx, p, page.Navigate, page.NavigateParams{URL: url})
	switch {
	case err != nil:
		p.stopLoading(ctx)
		return nil, fmt.Errorf("navigating to %s: %w", url, err)
	case res.ErrorText != "":
		return nil, &NavigationError{URL: url, Text: res.ErrorText}
	case res.LoaderID == "":
		// Within the document: its event may follow the command's reply,
		// or not come when nothing changed.
		wctx, cancel := context.WithTimeout(ctx, sameDocumentWait)
		defer cancel()
		if _, err := w.Wait(wctx, until); err != nil && ctx.Err() != nil {
			return nil, err
		}
		return nil, nil
	}
	resp, err := p.settle(ctx, res.LoaderID, until, url)
	if err != nil {
		p.stopLoading(ctx)
	}
	return resp, err
}

// stopLoading stops a navigation that ran out of time, so that the page
// answers the commands that follow: Chromium holds some of them (adding
// an init script) while a document is pending.
func (p *Page) stopLoading(ctx context.Context) {
	if ctx.Err() == nil {
		return
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, _ = call(sctx, p, page.StopLoading, cdp.Empty{})
}

// settle waits until the document of loader, from url, reached until and
// returns its response.
func (p *Page) settle(ctx context.Context, loader cdp.LoaderID, until LoadState, url string) (*Response, error) {
	e := p.st.events
	name := until.event()
	err := e.wait(ctx, func() bool { return e.reached[loader][name] })
	if err != nil {
		return nil, fmt.Errorf("waiting for the %s event of %s: %w", until, url, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.responses[network.RequestID(loader)], nil
}

// WaitForLoadState waits until the page's current document reached until
// (at once when it did already).
func (p *Page) WaitForLoadState(ctx context.Context, until LoadState) error {
	e := p.st.events
	e.mu.Lock()
	loader := e.loader
	e.mu.Unlock()
	_, err := p.settle(ctx, loader, until, p.URL())
	return err
}

// SetExtraHTTPHeaders makes the page send headers with every request,
// in place of its context's.
func (p *Page) SetExtraHTTPHeaders(ctx context.Context, headers map[string]string) error {
	h := network.Headers{}
	for k, v := range headers {
		h[k] = v
	}
	_, err := call(ctx, p, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: h})
	return err
}

// Reload loads the page's document again and waits until it reached until.
func (p *Page) Reload(ctx context.Context, until LoadState) (*Response, error) {
	w := p.WatchNavigation()
	if _, err := call(ctx, p, page.Reload, page.ReloadParams{}); err != nil {
		return nil, fmt.Errorf("reloading: %w", err)
	}
	return w.Wait(ctx, until)
}

// NavigationWatch notes where a page stood when it was made, so that Wait
// sees a navigation that starts after, even before Wait is called.
type NavigationWatch struct {
	p       *Page
	loader  cdp.LoaderID
	sameDoc int
}

// WatchNavigation starts watching for the page's next navigation. Make it
// before the action that navigates (a click), then Wait.
func (p *Page) WatchNavigation() *NavigationWatch {
	e := p.st.events
	e.mu.Lock()
	defer e.mu.Unlock()
	return &NavigationWatch{p: p, loader: e.loader, sameDoc: e.sameDoc}
}

// Wait waits for the page's main frame to commit a new document and for
// that document to reach until, and returns its response; a navigation
// within the document (history.pushState, a fragment) returns nil at once.
func (w *NavigationWatch) Wait(ctx context.Context, until LoadState) (*Response, error) {
	e := w.p.st.events
	name := until.event()
	var loader cdp.LoaderID
	within := false
	err := e.wait(ctx, func() bool {
		if e.loader != w.loader {
			loader = e.loader
			return e.reached[loader][name]
		}
		within = e.sameDoc != w.sameDoc
		return within
	})
	if err != nil {
		if errors.Is(err, ctx.Err()) && loader == "" {
			return nil, fmt.Errorf("waiting for a navigation: %w", err)
		}
		return nil, fmt.Errorf("waiting for the %s event of %s: %w", until, w.p.URL(), err)
	}
	if within {
		return nil, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.responses[network.RequestID(loader)], nil
}

// SetContent replaces the page's document with html and waits until it
// reached until (DOMContentLoaded or Load: its resources loaded).
func (p *Page) SetContent(ctx context.Context, html string, until LoadState) error {
	e := p.st.events
	e.mu.Lock()
	frame := e.frame
	e.mu.Unlock()
	if _, err := call(ctx, p, page.SetDocumentContent, page.SetDocumentContentParams{FrameID: frame, HTML: html}); err != nil {
		return fmt.Errorf("setting the page's content: %w", err)
	}
	ready := `() => new Promise(resolve => {
		if (document.readyState === "complete") return resolve();
		addEventListener("load", () => resolve(), {once: true});
	})`
	if until == DOMContentLoaded || until == Commit {
		return nil
	}
	return p.Evaluate(ctx, ready, nil, nil)
}

// Title returns the document's title.
func (p *Page) Title(ctx context.Context) (string, error) {
	var t string
	err := p.Evaluate(ctx, `() => document.title`, nil, &t)
	return t, err
}

// Content returns the document's HTML, its doctype included.
func (p *Page) Content(ctx context.Context) (string, error) {
	var html string
	err := p.Evaluate(ctx, `() => {
		let out = "";
		if (document.doctype) out = new XMLSerializer().serializeToString(document.doctype);
		if (document.documentElement) out += document.documentElement.outerHTML;
		return out;
	}`, nil, &html)
	return html, err
}

// BringToFront makes the page the active tab of its window.
func (p *Page) BringToFront(ctx context.Context) error {
	_, err := call(ctx, p, page.BringToFront, cdp.Empty{})
	return err
}
