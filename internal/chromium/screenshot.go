package chromium

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// ScreenshotOptions are how a page is captured.
type ScreenshotOptions struct {
	// FullPage captures the whole scrollable page, not only the viewport.
	FullPage bool
	// Format is "png" (the default) or "jpeg".
	Format string
	// Quality is the JPEG quality from 0 to 100; 0 is Chromium's default.
	Quality int
}

// Screenshot captures the page as an image in o.Format.
func (p *Page) Screenshot(ctx context.Context, o ScreenshotOptions) ([]byte, error) {
	params := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng}
	switch o.Format {
	case "", "png":
	case "jpeg", "jpg":
		params.Format = page.CaptureScreenshotFormatJpeg
		if o.Quality > 0 {
			params.Quality = ptr(int64(min(o.Quality, 100)))
		}
	default:
		return nil, fmt.Errorf("screenshot type %q: want png or jpeg", o.Format)
	}
	if o.FullPage {
		m, err := call(ctx, p, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		if size := m.CSSContentSize; size != nil {
			params.Clip = &page.Viewport{Width: size.Width, Height: size.Height, Scale: 1}
			params.CaptureBeyondViewport = ptr(true)
		}
	}
	res, err := call(ctx, p, page.CaptureScreenshot, params)
	if err != nil {
		return nil, fmt.Errorf("taking a screenshot: %w", err)
	}
	return res.Data, nil
}
