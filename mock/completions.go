package mock

import "strconv"

// The legacy completions dialect (POST /v1/completions), streamed when the
// body's "stream" is true: text_completion objects on data lines, in this
// order: a first chunk with empty text (with queue_ms at top level when
// headers are not held), one chunk per text token, a final chunk with empty
// text and finish_reason "stop" ("length" when max_tokens cut the answer),
// a usage chunk (choices [] and usage) when stream_options.include_usage is
// true, and "data: [DONE]":
//
//	data: {"id":"cmpl-…","object":"text_completion","created":1767225600,"model":"m",
//	       "choices":[{"text":" refund","index":0,"logprobs":null,"finish_reason":null}],"server_ms":812.5}
//
// Every JSON chunk has a top-level server_ms. Heartbeats are ": ping"
// comments. Under a profile that opens streams at the first token
// (Config.Profile other than aftersales) the empty first chunk leaves with
// the first text chunk. The prompt (a string or an array) only adds to the input
// tokens. Tool calls and reasoning are not streamed in this dialect: the
// tools run inside the assistant, their argument tokens count in the usage
// as in the business dialect.

// completionsEvents renders a timeline in the legacy completions dialect.
func completionsEvents(steps []step, s *Schedule) []Event {
	evs := make([]Event, 0, len(steps)+2)
	for _, st := range steps {
		e := Event{At: st.at, quiet: st.quiet}
		switch st.op {
		case opStart:
			e.Kind, e.Type = KindEmpty, "start"
		case opText:
			e.Kind, e.Type, e.Text = KindText, "text", st.text
		case opDisconnect:
			e.Kind, e.Type = KindDisconnect, "disconnect"
		case opDone:
			evs = appendFinish(evs, s, e)
			e.Kind, e.Type = KindDone, "[DONE]"
		default:
			continue
		}
		if st.malformed {
			e.Kind = KindInvalid
		}
		evs = append(evs, e)
	}
	return evs
}

// appendCompletions appends the wire form of a legacy completions event.
// queueMS < 0 means the queue time is not reported in the event; the
// stream reports it in its first event.
func appendCompletions(b []byte, s *Schedule, e *Event, serverMS, queueMS float64) []byte {
	if e.Type == "[DONE]" {
		return append(b, "data: [DONE]\n\n"...)
	}
	b = appendCompletionHead(append(b, "data: "...), s)
	if e.Type == "usage" {
		b = appendUsage(append(b, `,"choices":[],"usage":`...), s.Usage, false)
		return closeData(b, e, serverMS)
	}
	b = appendString(append(b, `,"choices":[{"text":`...), e.Text)
	b = append(append(b, `,"index":0,"logprobs":null,"finish_reason":`...), finishReason(s, e.Type == "finish")...)
	b = append(b, "}]"...)
	if queueMS >= 0 {
		b = appendMS(append(b, `,"queue_ms":`...), queueMS)
	}
	return closeData(b, e, serverMS)
}

// appendCompletionHead appends the opening members of a text_completion
// object: {"id":…,"object":"text_completion","created":…,"model":….
func appendCompletionHead(b []byte, s *Schedule) []byte {
	b = append(append(append(b, `{"id":"cmpl-`...), s.ID...), `","object":"text_completion","created":`...)
	b = strconv.AppendInt(b, s.Created, 10)
	return appendString(append(b, `,"model":`...), s.Model)
}

// finishReason returns the JSON finish_reason of a choice: null while the
// answer goes on (final false), else "stop", or "length" when max_tokens
// cut it.
func finishReason(s *Schedule, final bool) string {
	switch {
	case !final:
		return "null"
	case s.Truncated:
		return `"length"`
	}
	return `"stop"`
}

// appendUsage appends an OpenAI usage object; details adds
// completion_tokens_details with the reasoning tokens (chat completions).
func appendUsage(b []byte, u Usage, details bool) []byte {
	b = appendInt(append(b, `{"prompt_tokens":`...), u.InputTokens)
	b = appendInt(append(b, `,"completion_tokens":`...), u.OutputTokens)
	b = appendInt(append(b, `,"total_tokens":`...), u.InputTokens+u.OutputTokens)
	if details {
		b = appendInt(append(b, `,"completion_tokens_details":{"reasoning_tokens":`...), u.ReasoningTokens)
		b = append(b, '}')
	}
	return append(b, '}')
}
