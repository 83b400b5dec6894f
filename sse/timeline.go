package sse

import "time"

// point is a moment of the timeline that may not have been reached.
type point struct {
	at time.Duration
	ok bool
}

// set records the moment unless it was recorded before.
func (p *point) set(at time.Duration) {
	if !p.ok {
		p.at, p.ok = at, true
	}
}

// ms returns the moment in milliseconds, nil when not reached.
func (p point) ms() *float64 {
	if !p.ok {
		return nil
	}
	return msPtr(p.at)
}

// timeline records the moments of one request, as durations since the send.
type timeline struct {
	scheduleLag, queue, headers point
	firstEvent, firstText       point
	useful, complete            point
	lastEvent                   time.Duration
	maxGap                      point // longest gap so far; ok once a gap exists
}

// observe records first_event, first_text and gaps for an event. Heartbeats
// are not events of the answer: they neither start the timeline nor end a
// gap.
func (t *timeline) observe(ev *Event) {
	if ev.Kind == Heartbeat {
		return
	}
	t.gapTo(ev.At)
	t.firstEvent.set(ev.At)
	if !t.firstText.ok && hasVisible(ev.Text) {
		t.firstText.set(ev.At)
	}
}

// gapTo closes the gap from the last event to at, once the timeline started.
func (t *timeline) gapTo(at time.Duration) {
	if t.firstEvent.ok {
		if gap := at - t.lastEvent; !t.maxGap.ok || gap > t.maxGap.at {
			t.maxGap.at, t.maxGap.ok = gap, true
		}
	}
	t.lastEvent = at
}

// end records a clean end of the stream (no terminal event) at the given time.
func (t *timeline) end(at time.Duration) {
	if t.complete.ok {
		return
	}
	t.gapTo(at)
	t.complete.set(at)
}

// timings converts the timeline to milliseconds.
func (t *timeline) timings() Timings {
	return Timings{
		ScheduleLag: t.scheduleLag.ms(),
		Queue:       t.queue.ms(),
		Headers:     t.headers.ms(),
		FirstEvent:  t.firstEvent.ms(),
		FirstText:   t.firstText.ms(),
		Useful:      t.useful.ms(),
		Complete:    t.complete.ms(),
		MaxGap:      t.maxGap.ms(),
	}
}
