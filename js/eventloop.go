package js

import "sync"

// EventLoop runs callbacks on one VU's goroutine. Work done elsewhere (a
// stream read, a timer) reserves a slot with RegisterCallback and hands its
// result back through the returned function; promises are resolved only on
// the loop.
type EventLoop struct {
	mu      sync.Mutex
	queue   []func() error
	pending int
	wakeup  chan struct{}

	// idle, when set, is called before the loop waits for a callback and
	// busy after the wait: the VU gives its JavaScript turn up meanwhile.
	idle, busy func()
}

// NewEventLoop returns an idle loop.
func NewEventLoop() *EventLoop {
	return &EventLoop{wakeup: make(chan struct{}, 1)}
}

// RegisterCallback reserves a slot: Run does not return before the returned
// function has been called once. Calling it more than once is a no-op.
func (l *EventLoop) RegisterCallback() func(func() error) {
	l.mu.Lock()
	l.pending++
	l.mu.Unlock()
	var once sync.Once
	return func(cb func() error) {
		once.Do(func() {
			l.mu.Lock()
			l.queue = append(l.queue, cb)
			l.pending--
			l.mu.Unlock()
			select {
			case l.wakeup <- struct{}{}:
			default:
			}
		})
	}
}

// Run calls first, then the queued callbacks, until nothing is queued or
// pending. It returns the first error a callback returns; callbacks still
// pending then are waited for and dropped, so none outlives the call.
// onFail, when not nil, is called once with that first error before the
// wait: the VU cancels the call's context there, so that work holding a
// slot (a timer, a request) gives it back at once.
func (l *EventLoop) Run(first func() error, onFail func(error)) error {
	err := first()
	failed := false
	for {
		if err != nil && !failed && onFail != nil {
			failed = true
			onFail(err)
		}
		l.mu.Lock()
		queue, pending := l.queue, l.pending
		l.queue = nil
		l.mu.Unlock()
		for _, cb := range queue {
			if err == nil {
				err = cb()
			}
		}
		if len(queue) == 0 {
			if pending == 0 {
				return err
			}
			l.wait()
		}
	}
}

// wait blocks until a callback is queued, between idle and busy.
func (l *EventLoop) wait() {
	if l.idle != nil {
		l.idle()
		defer l.busy()
	}
	<-l.wakeup
}
