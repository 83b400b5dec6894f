package chromium

import (
	"context"
	"fmt"
	"sync"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/security"
)

// DefaultViewport is the viewport of a page whose context sets none, as in
// k6: 1280×720 CSS pixels.
var DefaultViewport = Viewport{Width: 1280, Height: 720}

// Viewport is the size of a page's visible area in CSS pixels.
type Viewport struct {
	Width, Height int64
}

// ContextOptions are the settings of a browser context's pages (k6's
// browser.newContext options). The zero value is Chromium's defaults with
// DefaultViewport.
type ContextOptions struct {
	// Viewport is the pages' viewport; nil is DefaultViewport.
	Viewport *Viewport
	// DeviceScaleFactor is the device pixel ratio; 0 is 1.
	DeviceScaleFactor float64
	// IsMobile emulates a mobile device (its meta viewport is honoured).
	IsMobile bool
	// HasTouch turns touch events on.
	HasTouch bool
	// UserAgent replaces the browser's User-Agent; empty keeps it.
	UserAgent string
	// Locale, such as "de-DE", sets navigator.language, the
	// Accept-Language header and the formats of Intl; empty keeps them.
	Locale string
	// TimezoneID, such as "Europe/Berlin", sets the pages' time zone.
	TimezoneID string
	// ExtraHTTPHeaders are sent with every request of the pages.
	ExtraHTTPHeaders map[string]string
	// JavaScriptDisabled turns the pages' scripts off.
	JavaScriptDisabled bool
	// IgnoreHTTPSErrors accepts any TLS certificate.
	IgnoreHTTPSErrors bool
	// BypassCSP lets scripts run that the pages' Content-Security-Policy
	// would block.
	BypassCSP bool
	// ColorScheme and ReducedMotion emulate prefers-color-scheme ("light",
	// "dark", "no-preference") and prefers-reduced-motion ("reduce",
	// "no-preference"); empty keeps the browser's.
	ColorScheme, ReducedMotion string
}

// contextState is what a Context keeps besides its pages: its options and
// the scripts every new document of its pages runs first.
type contextState struct {
	mu      sync.Mutex
	opts    ContextOptions
	scripts []string
}

// NewContextWith opens an isolated browser context whose pages have the
// settings o.
func (b *Browser) NewContextWith(o ContextOptions) (*Context, error) {
	c, err := b.NewContext()
	if err != nil {
		return nil, err
	}
	c.st.opts = o
	return c, nil
}

// Options returns the context's settings.
func (c *Context) Options() ContextOptions {
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	return c.st.opts
}

// AddInitScript makes every document the context's pages load from now on
// run source first, before its own scripts; the open pages get it too, for
// their next document.
func (c *Context) AddInitScript(ctx context.Context, source string) error {
	c.st.mu.Lock()
	c.st.scripts = append(c.st.scripts, source)
	c.st.mu.Unlock()
	for _, p := range c.Pages() {
		if _, err := call(ctx, p, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: source}); err != nil {
			return err
		}
	}
	return nil
}

// setup prepares a new page: it starts recording its events and applies
// its context's settings and init scripts.
func (p *Page) setup(ctx context.Context) error {
	if err := p.watch(ctx); err != nil {
		return err
	}
	st := &p.context.st
	st.mu.Lock()
	o, scripts := st.opts, append([]string(nil), st.scripts...)
	st.mu.Unlock()
	if err := p.emulate(ctx, o); err != nil {
		return err
	}
	for _, s := range scripts {
		if _, err := call(ctx, p, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: s}); err != nil {
			return err
		}
	}
	return nil
}

// emulate applies the settings o to the page, each with its protocol
// command; the first that fails is returned, naming its setting.
func (p *Page) emulate(ctx context.Context, o ContextOptions) error {
	vp := DefaultViewport
	if o.Viewport != nil {
		vp = *o.Viewport
	}
	p.st.viewport.Store(&vp)
	steps := []struct {
		name string
		on   bool
		run  func() error
	}{
		{"viewport", true, func() error { return p.metrics(ctx, vp, o) }},
		{"hasTouch", o.HasTouch, func() error {
			_, err := call(ctx, p, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true})
			return err
		}},
		{"userAgent", o.UserAgent != "" || o.Locale != "", func() error { return p.userAgent(ctx, o) }},
		{"locale", o.Locale != "", func() error {
			_, err := call(ctx, p, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: o.Locale})
			return err
		}},
		{"timezoneID", o.TimezoneID != "", func() error {
			_, err := call(ctx, p, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: o.TimezoneID})
			return err
		}},
		{"extraHTTPHeaders", len(o.ExtraHTTPHeaders) > 0, func() error {
			h := network.Headers{}
			for k, v := range o.ExtraHTTPHeaders {
				h[k] = v
			}
			_, err := call(ctx, p, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: h})
			return err
		}},
		{"javaScriptEnabled", o.JavaScriptDisabled, func() error {
			_, err := call(ctx, p, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}},
		{"ignoreHTTPSErrors", o.IgnoreHTTPSErrors, func() error {
			_, err := call(ctx, p, security.SetIgnoreCertificateErrors, security.SetIgnoreCertificateErrorsParams{Ignore: true})
			return err
		}},
		{"bypassCSP", o.BypassCSP, func() error {
			_, err := call(ctx, p, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true})
			return err
		}},
		{"colorScheme", o.ColorScheme != "" || o.ReducedMotion != "", func() error { return p.media(ctx, o) }},
	}
	for _, s := range steps {
		if !s.on {
			continue
		}
		if err := s.run(); err != nil {
			return fmt.Errorf("applying the context option %s: %w", s.name, err)
		}
	}
	return nil
}

// metrics sets the page's viewport and device emulation.
func (p *Page) metrics(ctx context.Context, vp Viewport, o ContextOptions) error {
	scale := o.DeviceScaleFactor
	if scale <= 0 {
		scale = 1
	}
	_, err := call(ctx, p, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: vp.Width, Height: vp.Height, DeviceScaleFactor: scale, Mobile: o.IsMobile,
		ScreenWidth: vp.Width, ScreenHeight: vp.Height,
	})
	return err
}

// userAgent sets the User-Agent and the Accept-Language of the page's
// requests; an empty User-Agent keeps the browser's.
func (p *Page) userAgent(ctx context.Context, o ContextOptions) error {
	ua := o.UserAgent
	if ua == "" {
		v, err := call(ctx, p, cdpbrowser.GetVersion, cdp.Empty{})
		if err != nil {
			return err
		}
		ua = v.UserAgent
	}
	_, err := call(ctx, p, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: o.Locale})
	return err
}

// media emulates the CSS media features of o.
func (p *Page) media(ctx context.Context, o ContextOptions) error {
	var f []*emulation.MediaFeature
	if o.ColorScheme != "" {
		f = append(f, &emulation.MediaFeature{Name: "prefers-color-scheme", Value: o.ColorScheme})
	}
	if o.ReducedMotion != "" {
		f = append(f, &emulation.MediaFeature{Name: "prefers-reduced-motion", Value: o.ReducedMotion})
	}
	_, err := call(ctx, p, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: f})
	return err
}

// SetViewport resizes the page's viewport, keeping its context's other
// device settings.
func (p *Page) SetViewport(ctx context.Context, vp Viewport) error {
	if vp.Width <= 0 || vp.Height <= 0 {
		return fmt.Errorf("viewport %dx%d: width and height must be more than 0", vp.Width, vp.Height)
	}
	if err := p.metrics(ctx, vp, p.context.Options()); err != nil {
		return err
	}
	p.st.viewport.Store(&vp)
	return nil
}

// Viewport returns the page's viewport size.
func (p *Page) Viewport() Viewport { return *p.st.viewport.Load() }
