package mock

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// stream runs one accepted request: it waits for a tenant slot, then for a
// model slot (Config.ModelSlots), then sends the scheduled events on time
// (or, for Schedule.Whole, the whole answer when the last one is due).
// It holds both slots until the stream ends; its queue time is the whole
// wait, from arrival until it holds both. One goroutine (the handler's) and
// one timer per stream; nothing is shared on the way but the semaphores and
// the stats counters.
type stream struct {
	srv     *Server
	w       http.ResponseWriter
	rc      *http.ResponseController
	ctx     context.Context
	sched   *Schedule
	arrived time.Time
	start   time.Time
	out     writer
	buf     *[]byte
	timer   *time.Timer
	stats   streamStats
}

// bufPool recycles the per-stream event buffers.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

// run sends the stream. It returns early, silently, when the client leaves.
func (st *stream) run() {
	s, sched := st.srv, st.sched
	s.stats.active.Add(1)
	defer s.stats.active.Add(-1)
	defer s.stats.merge(&st.stats)
	st.buf = bufPool.Get().(*[]byte)
	defer bufPool.Put(st.buf)
	st.timer = time.NewTimer(time.Hour)
	defer st.timer.Stop()
	st.out = writer{w: st.w, flush: st.rc.Flush}
	if sched.Buffered {
		st.out.batch = s.cfg.BufferBytes
	}
	h := st.w.Header()
	if !sched.Whole {
		h.Set("Content-Type", sched.profile.streamContentType())
		h.Set("Cache-Control", "no-cache")
	}
	sched.profile.setHeaders(h, sched.ID)
	if !st.held() {
		st.w.WriteHeader(http.StatusOK)
		if st.rc.Flush() != nil {
			return
		}
	}
	sem := s.tenants.acquire(sched.Tenant)
	defer s.tenants.release(sched.Tenant)
	if !st.acquire(sem, nil) {
		return
	}
	defer func() { <-sem }()
	if m := s.model; m != nil {
		if ready := m.take(); ready != nil && !st.acquire(nil, ready) {
			m.leave(ready)
			return
		}
		defer m.put()
	}
	st.start = time.Now()
	queueMS := durationMS(st.start.Sub(st.arrived))
	if sched.Whole {
		st.sendWhole(queueMS)
		return
	}
	if sched.Hold {
		h.Set("Server-Timing", "queue;dur="+strconv.FormatFloat(queueMS, 'f', 3, 64))
		st.w.WriteHeader(http.StatusOK)
		if st.rc.Flush() != nil {
			return
		}
		queueMS = -1
	}
	for i := 0; i < len(sched.Events); {
		if !st.sleepUntil(st.start.Add(sched.Events[i].At)) {
			return
		}
		var ok bool
		if i, queueMS, ok = st.sendDue(i, queueMS); !ok {
			return
		}
	}
	st.out.close()
}

// sendDue writes the events from index i on that are due by now, in one
// write and one flush, and returns the index of the next event. Events due
// at the same moment thus leave in one segment; none is ever held back past
// its time. The first event that is not a heartbeat reports queueMS (if
// >= 0); sendDue returns -1 once one did, else queueMS. It reports false
// if the client left.
func (st *stream) sendDue(i int, queueMS float64) (int, float64, bool) {
	evs := st.sched.Events
	now := time.Now()
	serverMS := durationMS(now.Sub(st.arrived))
	b := (*st.buf)[:0]
	for ; i < len(evs) && st.start.Add(evs[i].At).Compare(now) <= 0; i++ {
		e := &evs[i]
		if e.Kind == KindDisconnect {
			st.out.event(b)
			// net/http closes the connection without ending the body.
			panic(http.ErrAbortHandler)
		}
		b = appendEvent(b, st.sched, e, serverMS, queueMS)
		if e.Kind != KindHeartbeat {
			queueMS = -1
		}
		st.stats.sent(now.Sub(st.start.Add(e.At)))
	}
	*st.buf = b
	return i, queueMS, st.out.event(b) == nil
}

// acquire waits for a slot: of the tenant semaphore sem (a send), or of
// the model (ready closed; the other argument is nil), sending heartbeats
// at the profile's interval (Server.queueKeepAlive; Config.HeartbeatMS by
// default) while it waits if the headers are already out.
// It reports false if the client left.
func (st *stream) acquire(sem chan struct{}, ready chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	case <-ready:
		return true
	default:
	}
	q := &st.srv.stats.queued
	q.Add(1)
	defer q.Add(-1)
	interval := st.srv.queueKeepAlive(st.sched.Dialect)
	if st.held() || interval <= 0 { // no headers yet, or no heartbeats
		select {
		case sem <- struct{}{}:
			return true
		case <-ready:
			return true
		case <-st.ctx.Done():
			return false
		}
	}
	hb := heartbeatEvent(st.sched.Dialect)
	for {
		st.timer.Reset(interval)
		select {
		case sem <- struct{}{}:
			return true
		case <-ready:
			return true
		case <-st.ctx.Done():
			return false
		case <-st.timer.C:
			if !st.send(&hb, -1, time.Now()) {
				return false
			}
		}
	}
}

// held reports whether the headers wait for the dequeue (Schedule.Hold),
// for the whole answer (Schedule.Whole) or for the first event (the
// llamacpp profile).
func (st *stream) held() bool {
	return st.sched.Hold || st.sched.Whole || st.sched.profile.headersAtFirstToken
}

// sleepUntil waits for due; it reports false if the client left first.
func (st *stream) sleepUntil(due time.Time) bool {
	d := time.Until(due)
	if d <= 0 {
		return st.ctx.Err() == nil
	}
	st.timer.Reset(d)
	select {
	case <-st.timer.C:
		return true
	case <-st.ctx.Done():
		return false
	}
}

// send renders and writes one event now; it reports false on a write
// error.
func (st *stream) send(e *Event, queueMS float64, due time.Time) bool {
	now := time.Now()
	b := appendEvent((*st.buf)[:0], st.sched, e, durationMS(now.Sub(st.arrived)), queueMS)
	*st.buf = b
	if st.out.event(b) != nil {
		return false
	}
	st.stats.sent(now.Sub(due))
	return true
}

// appendEvent appends the wire form of e in the schedule's dialect, with
// serverMS as its server_ms and queueMS (if >= 0) as its queue_ms.
func appendEvent(b []byte, s *Schedule, e *Event, serverMS, queueMS float64) []byte {
	if e.Type == "comment" {
		return append(b, ": ping\n\n"...)
	}
	switch s.Dialect {
	case OpenAI:
		return appendOpenAI(b, s, e, serverMS, queueMS)
	case Anthropic:
		return appendAnthropic(b, s, e, serverMS, queueMS)
	case Completions:
		return appendCompletions(b, s, e, serverMS, queueMS)
	}
	return appendBusiness(b, s, e, serverMS, queueMS)
}

// appendInt appends a decimal integer.
func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
