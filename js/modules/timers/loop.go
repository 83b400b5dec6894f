package k6timers

import (
	"time"

	"github.com/grafana/sobek"
)

// arm makes the event-loop slot follow the head of the queue: none when
// the queue is empty, one due when the head is otherwise.
func (t *Timers) arm() {
	head := t.queue.head()
	if t.wait != nil {
		if head != nil && t.wait.at.Equal(head.at) {
			return
		}
		close(t.wait.stop)
		t.wait = nil
	}
	if head == nil {
		return
	}
	ctx := t.vu.Context()
	t.ctx = ctx
	done := t.vu.RegisterCallback()
	w := &wait{at: head.at, stop: make(chan struct{})}
	t.wait = w
	go func() {
		clock := time.NewTimer(time.Until(w.at))
		defer clock.Stop()
		select {
		case <-clock.C:
			done(func() error { return t.fire(w) })
		case <-ctx.Done():
			done(func() error { t.reset(); return nil })
		case <-w.stop:
			done(func() error { return nil })
		}
	}()
}

// fire runs, on the event loop, the timers due when w was: in order, each
// a separate call into JavaScript so promise jobs run between them. An
// exception in a callback drops every pending timer and ends the call.
func (t *Timers) fire(w *wait) error {
	if t.wait != w {
		return nil // replaced by a new head after this slot had fired
	}
	t.wait = nil
	if t.ctx.Err() != nil {
		t.reset()
		return nil
	}
	for _, tm := range t.queue.popDue(time.Now()) {
		if t.byID[tm.id] != tm {
			continue // cleared by an earlier callback of this batch
		}
		if !tm.interval {
			delete(t.byID, tm.id)
		}
		if err := t.run(tm); err != nil {
			t.reset()
			return err
		}
		if tm.interval && t.byID[tm.id] == tm && tm.index < 0 {
			t.schedule(tm, time.Now().Add(tm.every))
		}
	}
	t.arm()
	return nil
}

func (t *Timers) run(tm *timer) error {
	_, err := tm.fn(sobek.Undefined(), tm.args...)
	return err
}

// reset drops every pending timer and gives the slot back.
func (t *Timers) reset() {
	clear(t.byID)
	for i := range t.queue {
		t.queue[i].index = -1
	}
	t.queue = t.queue[:0]
	if t.wait != nil {
		close(t.wait.stop)
		t.wait = nil
	}
}

// dropStale drops the timers of a call that has ended: one stopped by an
// exception or interrupted while its timers could not run.
func (t *Timers) dropStale() {
	if t.ctx != nil && t.ctx.Err() != nil {
		t.reset()
		t.ctx = nil
	}
}
