package k6browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
	"github.com/usefullatency/usefullatency/js/modules"
)

// call is one call of a method from JavaScript: its name for errors
// ("page.goto") and the timeout its wait gets (0: none).
type call struct {
	m       *instance
	method  string
	timeout time.Duration
}

// promise checks that the browser is usable, then runs work on a
// goroutine of its own, bounded by the call's timeout and the VU's
// context, and settles the returned promise on the VU's event loop:
// fulfilled with toJS of work's result, or rejected with an Error naming
// the method. toJS runs on the VU's goroutine.
func promise[T any](c call, work func(ctx context.Context) (T, error), toJS func(T) sobek.Value) sobek.Value {
	rt := c.m.rt()
	p, resolve, reject := rt.NewPromise()
	if err := c.m.chrome.usable(); err != nil {
		_ = reject(rt.NewGoError(fmt.Errorf("%s: %w", c.method, err)))
		return rt.ToValue(p)
	}
	c.m.chrome.hook()
	ctx := c.m.vu.Context()
	done := c.m.vu.RegisterCallback()
	go func() {
		wctx, cancel := ctx, context.CancelFunc(func() {})
		if c.timeout > 0 {
			wctx, cancel = context.WithTimeout(ctx, c.timeout)
		}
		v, err := work(wctx)
		cancel()
		done(func() error {
			if err != nil {
				return reject(rt.NewGoError(c.failure(err, ctx)))
			}
			return resolve(toJS(v))
		})
	}()
	return rt.ToValue(p)
}

// settle is promise for work that returns no value.
func settle(c call, work func(ctx context.Context) error) sobek.Value {
	return promise(c, func(ctx context.Context) (struct{}, error) { return struct{}{}, work(ctx) },
		func(struct{}) sobek.Value { return sobek.Undefined() })
}

// blocking runs work on the VU's goroutine, its JavaScript turn given up
// meanwhile, for a synchronous method that needs the browser; an error is
// thrown.
func blocking[T any](c call, work func(ctx context.Context) (T, error)) T {
	rt := c.m.rt()
	if err := c.m.chrome.usable(); err != nil {
		panic(rt.NewGoError(fmt.Errorf("%s: %w", c.method, err)))
	}
	c.m.chrome.hook()
	var (
		v   T
		err error
	)
	ctx := c.m.vu.Context()
	modules.Blocking(c.m.vu, func() { v, err = work(ctx) })
	if err != nil {
		panic(rt.NewGoError(c.failure(err, ctx)))
	}
	return v
}

// throw throws a JavaScript error naming the method.
func (c call) throw(format string, args ...any) {
	panic(c.m.rt().NewGoError(fmt.Errorf(c.method+": "+format, args...)))
}

// failure words a failed call: a timeout names what was awaited and after
// how long, k6-like; an iteration that stopped says so.
func (c call) failure(err error, vuCtx context.Context) error {
	switch {
	case vuCtx.Err() != nil:
		return fmt.Errorf("%s: interrupted: the iteration ended", c.method)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: timed out after %s %s", c.method, c.timeout, waited(err))
	}
	return fmt.Errorf("%s: %w", c.method, err)
}

// waited says what a timed-out call was waiting for.
func waited(err error) string {
	var we *chromium.WaitError
	if errors.As(err, &we) {
		s := fmt.Sprintf("waiting for %s to be %s", we.Subject, we.State)
		if we.Reason != "" {
			s += " (" + we.Reason + ")"
		}
		return s
	}
	msg := strings.TrimSuffix(err.Error(), ": "+context.DeadlineExceeded.Error())
	if msg == context.DeadlineExceeded.Error() {
		return "waiting"
	}
	return msg
}
