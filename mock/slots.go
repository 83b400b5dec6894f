package mock

import "sync"

// slots is the assistant's shared model capacity (Config.ModelSlots): a
// counting semaphore whose waiters are served strictly in arrival order.
// Unlike a blocked channel send inside a select loop (which loses its place
// whenever a heartbeat timer fires), a waiter keeps its place in the queue
// while it sends heartbeats.
type slots struct {
	mu   sync.Mutex
	free int
	// wait holds the waiters in arrival order; a slot is handed to the
	// first by closing its channel.
	wait []chan struct{}
}

// newSlots returns n free slots, or nil (no limit) for n <= 0.
func newSlots(n int) *slots {
	if n <= 0 {
		return nil
	}
	return &slots{free: n}
}

// take takes a free slot and returns nil, or, when none is free, queues
// the caller and returns a channel closed once the slot is handed to it.
// The caller then either receives from the channel (it holds the slot) or
// calls leave with it.
func (s *slots) take() chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.free > 0 && len(s.wait) == 0 {
		s.free--
		return nil
	}
	ch := make(chan struct{})
	s.wait = append(s.wait, ch)
	return ch
}

// put returns a held slot: it goes to the longest waiter, if any.
func (s *slots) put() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.wait) == 0 {
		s.free++
		return
	}
	ch := s.wait[0]
	s.wait[0] = nil
	s.wait = s.wait[1:]
	close(ch)
}

// leave withdraws a waiter that gave up (its client left); if the slot was
// handed to it meanwhile, the slot is passed on.
func (s *slots) leave(ch chan struct{}) {
	s.mu.Lock()
	for i, w := range s.wait {
		if w == ch {
			n := copy(s.wait[i:], s.wait[i+1:])
			s.wait[i+n] = nil
			s.wait = s.wait[:i+n]
			s.mu.Unlock()
			return
		}
	}
	s.mu.Unlock()
	s.put()
}
