package chromium

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// Cookie is a cookie of a browser context, as k6 shows it.
type Cookie struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// URL, when adding, sets Domain, Path and Secure from an address.
	URL    string `json:"url,omitempty"`
	Domain string `json:"domain"`
	Path   string `json:"path"`
	// Expires is in seconds since the Unix epoch; -1 (or 0 when adding)
	// is a session cookie.
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	// SameSite is "Strict", "Lax", "None" or empty.
	SameSite string `json:"sameSite"`
}

// Cookies returns the context's cookies; with urls, only those that
// requests to one of them would send.
func (c *Context) Cookies(ctx context.Context, urls ...string) ([]Cookie, error) {
	var targets []*url.URL
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("cookies: %q is not an absolute URL", raw)
		}
		targets = append(targets, u)
	}
	var got []*network.Cookie
	err := c.onBrowser(ctx, func(ctx context.Context, id cdp.BrowserContextID) error {
		res, err := chromedp.CallBrowser(ctx, storage.GetCookies, storage.GetCookiesParams{BrowserContextID: id})
		got = res.Cookies
		return err
	})
	if err != nil {
		return nil, err
	}
	out := []Cookie{}
	for _, k := range got {
		if len(targets) > 0 && !sentToAny(k, targets) {
			continue
		}
		out = append(out, Cookie{Name: k.Name, Value: k.Value, Domain: k.Domain, Path: k.Path, Expires: k.Expires,
			HTTPOnly: k.HTTPOnly, Secure: k.Secure, SameSite: string(k.SameSite)})
	}
	return out, nil
}

// sentToAny reports whether a request to one of urls carries the cookie.
func sentToAny(k *network.Cookie, urls []*url.URL) bool {
	for _, u := range urls {
		host := u.Hostname()
		domain := strings.TrimPrefix(k.Domain, ".")
		if host != domain && !(strings.HasPrefix(k.Domain, ".") && strings.HasSuffix(host, "."+domain)) {
			continue
		}
		path := u.Path
		if path == "" {
			path = "/"
		}
		if !strings.HasPrefix(path, k.Path) {
			continue
		}
		if k.Secure && u.Scheme != "https" {
			continue
		}
		return true
	}
	return false
}

// AddCookies adds cookies to the context. Each needs a URL, or a Domain
// and a Path.
func (c *Context) AddCookies(ctx context.Context, cookies []Cookie) error {
	params := make([]*network.CookieParam, len(cookies))
	for i, k := range cookies {
		if k.Name == "" {
			return fmt.Errorf("cookie %d: a name is required", i)
		}
		if k.URL == "" && (k.Domain == "" || k.Path == "") {
			return fmt.Errorf("cookie %q: set either url, or domain and path", k.Name)
		}
		params[i] = &network.CookieParam{Name: k.Name, Value: k.Value, URL: k.URL, Domain: k.Domain, Path: k.Path,
			Secure: k.Secure, HTTPOnly: k.HTTPOnly, SameSite: network.CookieSameSite(k.SameSite)}
		if k.Expires > 0 {
			params[i].Expires = cdp.TimeSinceEpoch(k.Expires)
		}
	}
	return c.onBrowser(ctx, func(ctx context.Context, id cdp.BrowserContextID) error {
		_, err := chromedp.CallBrowser(ctx, storage.SetCookies, storage.SetCookiesParams{Cookies: params, BrowserContextID: id})
		return err
	})
}

// ClearCookies removes every cookie of the context.
func (c *Context) ClearCookies(ctx context.Context) error {
	return c.onBrowser(ctx, func(ctx context.Context, id cdp.BrowserContextID) error {
		_, err := chromedp.CallBrowser(ctx, storage.ClearCookies, storage.ClearCookiesParams{BrowserContextID: id})
		return err
	})
}

// onBrowser runs fn with the context's id on the browser's connection,
// creating the context first if no page did yet.
func (c *Context) onBrowser(ctx context.Context, fn func(context.Context, cdp.BrowserContextID) error) error {
	id, err := c.ensure(ctx)
	if err != nil {
		return err
	}
	return c.browser.run(ctx, c.browser.root, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		return fn(ctx, id)
	}))
}
