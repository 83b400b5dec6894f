package chromium

import (
	"context"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// Connected reports whether the browser runs and answers: not closed, and
// its connection not lost (a crash, a kill).
func (b *Browser) Connected() bool {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return false
	}
	c := chromedp.FromContext(b.root)
	if c == nil || c.Browser == nil {
		return false
	}
	select {
	case <-c.Browser.LostConnection:
		return false
	default:
		return true
	}
}

// PID returns the process id of the browser, 0 when unknown.
func (b *Browser) PID() int {
	c := chromedp.FromContext(b.root)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return 0
	}
	return c.Browser.Process().Pid
}

// UserAgent returns the browser's default User-Agent.
func (b *Browser) UserAgent(ctx context.Context) (string, error) {
	var ua string
	err := b.run(ctx, b.root, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		res, err := chromedp.CallBrowser(ctx, cdpbrowser.GetVersion, cdp.Empty{})
		ua = res.UserAgent
		return err
	}))
	return ua, err
}
