package mock

// The business dialect (POST /chat). Each event is one data line holding a
// JSON object:
//
//	data: {"delta":"","business_state":{"queue_ms":3.2},"server_ms":3.3}     first event
//	data: {"business_state":{"intent":"refund_request"},"server_ms":41.0}    state delta
//	data: {"delta":" refund","server_ms":812.5}                              text token
//	data: {"done":true,"usage":{"input_tokens":640,"output_tokens":52},"server_ms":3021.7}
//
// business_state deltas are meant to be deep-merged. queue_ms is in the
// first event only when headers are not held until dequeue. Heartbeats are
// ": ping" comments. Reasoning and tool-call arguments are not streamed in
// this dialect; tool calls show as tools.<name>.status states.

// businessEvents renders a timeline in the business dialect.
func businessEvents(steps []step, s *Schedule) []Event {
	evs := make([]Event, 0, len(steps))
	for _, st := range steps {
		var e Event
		switch st.op {
		case opStart:
			e = Event{Kind: KindState, Type: "start"}
			if s.Hold {
				e.Kind = KindEmpty
			}
		case opState:
			e = Event{Kind: KindState, Type: "state", State: st.text}
		case opText:
			e = Event{Kind: KindText, Type: "delta", Text: st.text}
		case opDone:
			e = Event{Kind: KindDone, Type: "done"}
		case opDisconnect:
			e = Event{Kind: KindDisconnect, Type: "disconnect"}
		default:
			continue
		}
		e.At, e.quiet = st.at, st.quiet
		if st.malformed {
			e.Kind = KindInvalid
		}
		evs = append(evs, e)
	}
	return evs
}

// appendBusiness appends the wire form of a business event. queueMS < 0
// means the queue time is not reported in the event.
func appendBusiness(b []byte, s *Schedule, e *Event, serverMS, queueMS float64) []byte {
	b = append(b, "data: "...)
	switch e.Type {
	case "start":
		b = append(b, `{"delta":""`...)
		if queueMS >= 0 {
			b = append(b, `,"business_state":{"queue_ms":`...)
			b = append(appendMS(b, queueMS), '}')
		}
	case "state":
		b = append(append(b, `{"business_state":`...), e.State...)
	case "delta":
		b = appendString(append(b, `{"delta":`...), e.Text)
	case "done":
		b = append(b, `{"done":true,"usage":{"input_tokens":`...)
		b = appendInt(b, s.Usage.InputTokens)
		b = append(b, `,"output_tokens":`...)
		b = append(appendInt(b, s.Usage.OutputTokens), '}')
	}
	return closeData(b, e, serverMS)
}

// closeData ends a JSON data line with the server_ms member, the closing
// brace (left out of a malformed event) and the blank line.
func closeData(b []byte, e *Event, serverMS float64) []byte {
	b = appendMS(append(b, `,"server_ms":`...), serverMS)
	if e.Kind != KindInvalid {
		b = append(b, '}')
	}
	return append(b, "\n\n"...)
}
