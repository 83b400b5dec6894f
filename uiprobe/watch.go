package uiprobe

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/internal/chromium"
	"github.com/usefullatency/usefullatency/sse"
)

// waitGrace is how long Wait waits beyond Spec.Timeout for the page to
// report, before it gives the page up (a page whose script never yields
// cannot run the recorder's own timeout).
const waitGrace = 5 * time.Second

// keys numbers the recorders of this process, so watches never share one.
var keys atomic.Uint64

// Watch is a recorder installed in a page, watching one answer.
type Watch struct {
	page     *chromium.Page
	spec     Spec
	key      string
	selector string

	mu     sync.Mutex
	waited bool
}

// Start installs a recorder in page that watches the answer element
// matched by selector, as spec says (see the package documentation and
// recorder.js for the element rule). Call it before the user's action.
// The recorder lives in the page's current document: a navigation ends the
// watch with error code ui_page. An invalid selector or spec is an error
// naming it.
func Start(ctx context.Context, page *chromium.Page, selector string, spec Spec) (*Watch, error) {
	if page == nil || page.Closed() {
		return nil, errors.New("uiprobe: the page is closed")
	}
	if err := spec.Validate(selector); err != nil {
		return nil, err
	}
	w := &Watch{page: page, spec: spec.withDefaults(), selector: selector,
		key: fmt.Sprintf("__usefullatencyUI%d", keys.Add(1))}
	if _, err := install(ctx, page, w.spec.recorderOptions(w.key, selector)); err != nil {
		return nil, err
	}
	return w, nil
}

// Wait waits until the answer ended (done marker, quiet period, timeout or
// limit) and returns its moments. Outcomes of the answer (ui_timeout,
// ui_limit, a failing predicate) are the Result's error code with a nil
// error; a page that fails the watch gives ui_page and canceling ctx gives
// canceled, both with the error too. Wait may be called once.
func (w *Watch) Wait(ctx context.Context) (Result, error) {
	w.mu.Lock()
	again := w.waited
	w.waited = true
	w.mu.Unlock()
	if again {
		return Result{}, errors.New("uiprobe: Wait called twice on one watch")
	}
	limit, cancel := context.WithTimeout(ctx, w.spec.Timeout+waitGrace)
	defer cancel()
	l, err := awaitLog(limit, w.page, w.key)
	if err != nil {
		return w.failed(ctx, err)
	}
	return l.result(&w.spec), nil
}

// failed returns the result of a watch whose page did not report.
func (w *Watch) failed(ctx context.Context, err error) (Result, error) {
	w.stop()
	switch {
	case ctx.Err() != nil:
		return Result{ErrorCode: sse.CodeCanceled, Error: ctx.Err().Error()}, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return Result{ErrorCode: CodeTimeout, Error: fmt.Sprintf("the page did not report within the watch's timeout %v", w.spec.Timeout)}, nil
	}
	err = fmt.Errorf("uiprobe: watching %q: %w", w.selector, err)
	return Result{ErrorCode: CodePage, Error: err.Error()}, err
}

// Stop ends the recording before the answer ended (e.g. when the action
// failed); a later Wait returns what was recorded, with error code
// ui_stopped. Stopping a watch whose page is gone does nothing.
func (w *Watch) Stop(ctx context.Context) error {
	if w.page.Closed() {
		return nil
	}
	return stopRecorder(ctx, w.page, w.key)
}

// stop stops the recorder on a short deadline of its own, best effort.
func (w *Watch) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = w.Stop(ctx)
}
