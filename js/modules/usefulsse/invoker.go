package usefulsse

import (
	"context"

	"github.com/usefullatency/usefullatency/js/modules"
)

// invoker calls a JavaScript callback of a request (onEvent, a function
// predicate): directly on the VU's goroutine for blocking requests, through
// the event loop for async ones.
type invoker func(fn func() error) error

// direct runs fn at once: the VU's goroutine is blocked in the request.
func direct(fn func() error) error { return fn() }

// holding returns an invoker for blocking requests: it runs fn at once on
// the VU's goroutine, blocked in the request with its JavaScript turn
// given up, taking the turn back while fn runs.
func holding(vu modules.VU) invoker {
	return func(fn func() error) error { return modules.Holding(vu, fn) }
}

// onLoop returns an invoker that queues fn on the VU's event loop and waits
// for it, so JavaScript only ever runs on the VU's own goroutine.
func onLoop(vu modules.VU, ctx context.Context) invoker {
	return func(fn func() error) error {
		result := make(chan error, 1)
		vu.RegisterCallback()(func() error {
			result <- fn()
			return nil
		})
		select {
		case err := <-result:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
