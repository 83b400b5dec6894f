package uiprobe

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/chromedp/chromedp"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// recorderJS is the recorder's source: one function of recorderOptions.
//
//go:embed recorder.js
var recorderJS string

// awaitJS resolves with the log of the recorder stored under key once the
// answer ended, and forgets the recorder.
const awaitJS = `(key) => {
  const r = window[key];
  if (!r) throw new Error("the recorder is gone: the page navigated or reloaded after the watch started");
  return r.done.then((log) => { delete window[key]; return log; });
}`

// stopJS ends the recorder stored under key, if it still runs.
const stopJS = `(key) => { const r = window[key]; if (r) r.stop(); }`

// installed is what the recorder returns once installed: the page's clock
// origin (Unix milliseconds) and the install moment on that clock, or why
// it refused (an invalid selector).
type installed struct {
	Origin float64 `json:"origin"`
	Start  float64 `json:"start"`
	Error  string  `json:"error"`
}

// install installs a recorder with opts in page.
func install(ctx context.Context, page *chromium.Page, opts recorderOptions) (installed, error) {
	var ack installed
	if err := page.Evaluate(ctx, recorderJS, []any{opts}, &ack); err != nil {
		return ack, fmt.Errorf("uiprobe: installing the recorder for %q: %w", opts.Selector, err)
	}
	if ack.Error != "" {
		return ack, fmt.Errorf("%w: %s", errSpec, ack.Error)
	}
	return ack, nil
}

// awaitLog waits for the log of the recorder stored under key, bounded by
// ctx only (not by the browser's default action timeout: an answer may
// take longer).
func awaitLog(ctx context.Context, page *chromium.Page, key string) (*pageLog, error) {
	expr, err := json.Marshal(key)
	if err != nil {
		return nil, err
	}
	op, cancel := context.WithCancel(page.Tab())
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	raw, err := chromedp.Run(op, chromedp.Evaluate[[]byte]("("+awaitJS+")("+string(expr)+")", chromedp.EvalAwaitPromise))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	l := &pageLog{}
	if err := json.Unmarshal(raw, l); err != nil {
		return nil, fmt.Errorf("decoding the recorder's log: %w", err)
	}
	return l, nil
}

// stopRecorder ends the recorder stored under key.
func stopRecorder(ctx context.Context, page *chromium.Page, key string) error {
	return page.Evaluate(ctx, stopJS, []any{key}, nil)
}
