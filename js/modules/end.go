package modules

import "sync"

// endHooks are the functions a run calls when it ends.
type endHooks struct {
	mu  sync.Mutex
	fns []func()
}

// AtEnd registers fn to run once when the run ends (End), after the last
// iteration of its VUs: a module closes there what its VUs keep open
// across iterations, as k6/browser does its Chromium processes. Safe for
// concurrent use.
func (r *Run) AtEnd(fn func()) {
	r.ends.mu.Lock()
	defer r.ends.mu.Unlock()
	r.ends.fns = append(r.ends.fns, fn)
}

// End runs the functions registered with AtEnd, the last registered first,
// and forgets them; a run executed again registers anew.
func (r *Run) End() {
	r.ends.mu.Lock()
	fns := r.ends.fns
	r.ends.fns = nil
	r.ends.mu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
}

// AtIterationEnd registers fn to run once when the VU's current iteration
// ends: after its function returned and its event loop drained, before
// the next iteration starts. Call it on the VU's goroutine.
func (s *State) AtIterationEnd(fn func()) {
	s.iterationEnd = append(s.iterationEnd, fn)
}

// EndIteration runs the functions registered with AtIterationEnd, the last
// registered first, and forgets them. The VU calls it after each
// iteration.
func (s *State) EndIteration() {
	fns := s.iterationEnd
	s.iterationEnd = nil
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
}
