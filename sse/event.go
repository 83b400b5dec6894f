package sse

import "time"

// Event is one SSE event (or one comment line) as the probe saw it, after
// classification. The client reuses one Event value per request: callbacks
// that keep an event beyond their return must copy it.
type Event struct {
	// Kind is the event's class; every event has exactly one.
	Kind Kind
	// Type is the SSE event type, "message" when the event was unnamed, and
	// "" for a comment line.
	Type string
	// ID is the stream's last event ID when the event was dispatched (the
	// WHATWG lastEventId: the most recent non-empty id field seen so far).
	ID string
	// Data is the event's data, lines joined by "\n".
	Data string
	// Comment is the text of a comment line, without the colon and one
	// leading space; "" for other events.
	Comment string
	// At is the time since the request was sent, on the monotonic clock,
	// taken when the bytes completing the event arrived from the network.
	At time.Duration
	// SharedRead reports that the event arrived in the same network read
	// as the event before it (heartbeats aside): both carry that read's
	// stamp, exact for this event and possibly late for the one before.
	SharedRead bool
	// Seq is the 1-based position of the event among all events of the
	// request, heartbeats included.
	Seq int
	// Text is the visible text this event added (may be whitespace).
	Text string
	// Reasoning is the reasoning (thinking) text this event added.
	Reasoning string
	// State is the business_state delta this event merged into the
	// request's state, or nil.
	State map[string]any
	// Tools holds the tool-call deltas of this event: Arguments is the
	// fragment this event added, ID and Name are set when the call starts.
	Tools []ToolCall
	// Usage is the token usage this event reported, or nil.
	Usage *Usage
	// Error is the message of a stream error (Kind Error) or the reason an
	// event is Invalid; "" otherwise.
	Error string

	usage    Usage // usage fields this event reported, see usageSet
	usageSet uint8 // usageInput | usageOutput | usageReasoning

	// reuseState says no callback sees the event: its State is only read
	// while the event is handled, and the next event may decode its state
	// delta into the same map, stateBuf.
	reuseState bool
	stateBuf   map[string]any
}

// reset clears the event for reuse, keeping the Tools backing array and
// the state map to reuse.
func (e *Event) reset() {
	tools, reuse, buf := e.Tools[:0], e.reuseState, e.stateBuf
	*e = Event{Tools: tools, reuseState: reuse, stateBuf: buf}
}

// decodeState decodes the raw JSON object v as the event's state delta:
// into the map the event reuses when no callback sees it, else into a new
// one.
func (e *Event) decodeState(v string) (map[string]any, bool) {
	if !e.reuseState {
		return decodeMap(v)
	}
	if e.stateBuf == nil {
		e.stateBuf = map[string]any{}
	} else {
		clear(e.stateBuf)
	}
	return decodeMapInto(e.stateBuf, v)
}

// ElapsedMS returns At in milliseconds.
func (e *Event) ElapsedMS() float64 { return ms(e.At) }

// ms converts a duration to float milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
