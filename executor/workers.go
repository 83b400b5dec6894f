package executor

import "time"

// workerIdle is how long a worker goroutine waits for another iteration
// before it ends.
const workerIdle = time.Second

// workers runs the iterations of an arrival-rate scenario on goroutines
// kept from earlier iterations. A goroutine starts with a small stack that
// grows, by copying, to the depth a VU's JavaScript and its requests need;
// a new goroutine per iteration paid that growth again every time (about
// 8 % of the runner's CPU at 4,000 requests/s). A worker idle for
// workerIdle ends, and all end when the scenario stops them.
type workers struct {
	jobs chan func()
	done chan struct{}
}

func newWorkers() *workers { return &workers{jobs: make(chan func()), done: make(chan struct{})} }

// run runs f on an idle worker, or on a new one when none is idle (or w
// is nil).
func (w *workers) run(f func()) {
	if w == nil {
		go f()
		return
	}
	select {
	case w.jobs <- f:
	default:
		go w.work(f)
	}
}

// stop ends the idle workers; run must not be called after it.
func (w *workers) stop() { close(w.done) }

// work runs f, then the jobs handed to it until it has been idle for
// workerIdle or the workers are stopped.
func (w *workers) work(f func()) {
	f()
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		select {
		case f := <-w.jobs:
			f()
			idle.Reset(workerIdle)
		case <-idle.C:
			return
		case <-w.done:
			return
		}
	}
}
