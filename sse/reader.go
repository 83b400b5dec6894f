package sse

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"time"

	gosse "github.com/tmaxmax/go-sse"
)

// streamError is the failure a stream reported in an error event.
type streamError struct{ msg string }

// Error returns the stream's message.
func (e *streamError) Error() string { return "stream error: " + e.msg }

// tooLargeError reports an event above Request.MaxEventSize.
type tooLargeError struct{ max int }

// Error names the limit.
func (e *tooLargeError) Error() string {
	return fmt.Sprintf("event larger than maxEventSize (%d bytes)", e.max)
}

// stream reads the events of one response body: it parses them with go-sse,
// observes comment lines, classifies, accumulates content, keeps the
// timeline and evaluates the predicates.
type stream struct {
	req     *Request
	cls     *Classifier
	content *content
	tl      *timeline
	preds   *predicates
	counts  KindCounts
	ev      Event
	seq     int
	prevAt  time.Duration // the stamp of the last event (or of the headers), heartbeats aside
	shared  int           // events (and headers) that shared a read with the next event
	inHead  bool          // no event yet: prevAt is the headers' stamp
	// bySegment: bytes are stamped by their own TCP segment's arrival, so
	// a shared stamp means sent together, not read late: not counted.
	bySegment bool
	clock     func() time.Duration

	queueField []string // nil once the queue time is known or disabled
	stamped    bool     // the body's reads carry their arrival already (the reactor)
	finished   bool     // a terminal event arrived
	stopped    bool     // a callback returned ErrStop

	rest io.Reader // what is left of the body, to drain after the end
	stop func()    // releases the reading goroutine, if any
}

// newStream prepares the reading of one response; stamped says that clock
// already gives each read's arrival, whenever it is called (the reactor).
func newStream(req *Request, tl *timeline, clock func() time.Duration, stamped bool) *stream {
	s := &stream{
		req: req, cls: NewClassifier(req.Dialect), content: newContent(),
		tl: tl, clock: clock, queueField: req.Queue.field(), stamped: stamped,
	}
	s.prevAt, s.inHead = tl.headers.at, tl.headers.ok
	if tl.queue.ok {
		s.queueField = nil
	}
	s.preds = newPredicates(req, s.cls)
	s.ev.reuseState = !req.runsCallbacks()
	return s
}

// read consumes the body until a terminal event, the clean end of the body,
// or a failure, which it returns. At a clean end it records complete.
//
// When the request runs callbacks and the reads are not stamped already,
// the body is read on a goroutine of its own (stampedReader) so that a slow
// callback does not delay the stamps of bytes arriving while it runs.
func (s *stream) read(body io.Reader) error {
	s.rest, s.stop = body, func() {}
	if s.req.runsCallbacks() && !s.stamped {
		sr := newStampedReader(body, s.clock)
		s.rest, s.stop, body = sr, sr.close, sr
	}
	cr := newCommentReader(body, s.clock, s.onComment)
	for e, err := range gosse.Read(cr, &gosse.ReadConfig{MaxEventSize: s.req.MaxEventSize}) {
		if s.stopped {
			return nil // a comment's callback returned ErrStop
		}
		if err != nil {
			return s.readError(err, cr)
		}
		if err := s.onEvent(e, cr.Arrival); err != nil && !s.stopped {
			return err
		}
		if s.finished || s.stopped {
			return nil
		}
	}
	if s.stopped {
		return nil
	}
	if cr.err != nil && !errors.Is(cr.err, io.EOF) {
		return cr.err
	}
	s.tl.end(cr.Arrival)
	return nil
}

// ended implements eventHandler.
func (s *stream) ended() bool { return s.finished }

// readError maps the parser's error: an event above the size limit, or the
// body's own error.
func (s *stream) readError(err error, cr *commentReader) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return &tooLargeError{max: s.req.MaxEventSize}
	}
	if cr.err != nil && !errors.Is(cr.err, io.EOF) {
		return cr.err
	}
	return err
}

// onEvent handles one event dispatched by go-sse.
func (s *stream) onEvent(e gosse.Event, at time.Duration) error {
	ev := &s.ev
	ev.reset()
	ev.Type, ev.ID, ev.Data, ev.At = e.Type, e.LastEventID, e.Data, at
	if ev.Type == "" {
		ev.Type = "message"
	}
	if !s.bySegment && (s.seq-s.counts[Heartbeat] > 0 || s.inHead) && at == s.prevAt {
		ev.SharedRead = true // the event before, or the headers, carry this read's later stamp
		s.shared++
	}
	s.prevAt, s.inHead = at, false
	s.cls.Classify(ev)
	return s.handle(ev)
}

// onComment handles one comment line as a heartbeat event.
func (s *stream) onComment(text string, at time.Duration) error {
	ev := &s.ev
	ev.reset()
	ev.Kind, ev.Comment, ev.At = Heartbeat, text, at
	return s.handle(ev)
}

// handle applies a classified event to the stream, in order: content, queue
// time, counts, timeline, predicates, the OnEvent callback, the end.
func (s *stream) handle(ev *Event) error {
	s.seq++
	ev.Seq = s.seq
	s.content.apply(ev)
	s.readQueue(ev)
	s.counts[ev.Kind]++
	s.tl.observe(ev)
	if err := s.preds.eval(ev, s); err != nil {
		return err
	}
	if err := s.callOnEvent(ev); err != nil {
		return err
	}
	return s.end(ev)
}

// callOnEvent runs Request.OnEvent; ErrStop marks the stream stopped.
func (s *stream) callOnEvent(ev *Event) error {
	if s.req.OnEvent == nil {
		return nil
	}
	_, err := callSafely("onEvent", func() (struct{}, error) { return struct{}{}, s.req.OnEvent(ev) })
	if errors.Is(err, ErrStop) {
		if err := s.end(ev); err != nil {
			return err
		}
		s.stopped = true
		return ErrStop // ends a read inside commentReader; the loop sees stopped
	}
	return err
}

// readQueue takes the queue time from an event while it is unknown, from
// events before the first visible text and from state events. An event that
// reported it and was otherwise empty becomes a state event.
func (s *stream) readQueue(ev *Event) {
	if s.queueField == nil || ev.Kind == Heartbeat || (s.tl.firstText.ok && ev.Kind != State) {
		return
	}
	if v, ok := fromEvent(ev, s.queueField); ok {
		s.tl.queue.set(time.Duration(v * float64(time.Millisecond)))
		s.queueField = nil
		if ev.Kind == Empty {
			ev.Kind = State
		}
	}
}

// end finishes the stream at a terminal event: done completes it, an error
// event fails it.
func (s *stream) end(ev *Event) error {
	switch ev.Kind {
	case Done:
		s.finished = true
		s.tl.gapTo(ev.At)
		s.tl.complete.set(ev.At)
	case Error:
		s.finished = true
		return &streamError{msg: ev.Error}
	}
	return nil
}
