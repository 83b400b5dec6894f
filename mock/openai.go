package mock

// The OpenAI dialect (POST /v1/chat/completions): chat.completion.chunk
// objects on data lines, in this order: a role-only chunk
// (delta {"role":"assistant","content":""}, with queue_ms at top level when
// headers are not held), reasoning_content deltas when the request asked for
// reasoning, tool_calls deltas (id, type and name first, then the arguments
// in fragments), content deltas, a final chunk with an empty delta and
// finish_reason "stop" ("length" when max_tokens or max_completion_tokens
// cut the answer), a usage chunk (choices [] and usage) when
// stream_options.include_usage is true, and "data: [DONE]". Every JSON chunk
// has a top-level server_ms. Heartbeats are ": ping" comments.

// openaiEvents renders a timeline in the OpenAI dialect.
func openaiEvents(steps []step, s *Schedule) []Event {
	evs := make([]Event, 0, len(steps)+2)
	for _, st := range steps {
		e := Event{At: st.at, quiet: st.quiet}
		switch st.op {
		case opStart:
			e.Kind, e.Type = KindEmpty, "role"
		case opText:
			e.Kind, e.Type, e.Text = KindText, "content", st.text
		case opReasoning:
			e.Kind, e.Type, e.Text = KindReasoning, "reasoning", st.text
		case opToolStart:
			e.Kind, e.Type, e.Index, e.ID, e.Name = KindTool, "tool_call", st.tool, st.id, st.text
		case opToolArgs:
			e.Kind, e.Type, e.Index, e.Text = KindTool, "tool_args", st.tool, st.text
		case opDisconnect:
			e.Kind, e.Type = KindDisconnect, "disconnect"
		case opDone:
			e.Kind, e.Type = KindEmpty, "finish"
			evs = append(evs, e)
			if s.IncludeUsage {
				e.Kind, e.Type = KindState, "usage"
				evs = append(evs, e)
			}
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

// appendOpenAI appends the wire form of an OpenAI event. queueMS < 0 means
// the queue time is not reported in the event.
func appendOpenAI(b []byte, s *Schedule, e *Event, serverMS, queueMS float64) []byte {
	if e.Type == "[DONE]" {
		return append(b, "data: [DONE]\n\n"...)
	}
	b = append(b, `data: {"id":"chatcmpl-`...)
	b = append(b, s.ID...)
	b = append(b, `","object":"chat.completion.chunk","model":`...)
	b = appendString(b, s.Model)
	if e.Type == "usage" {
		b = appendUsage(append(b, `,"choices":[],"usage":`...), s.Usage, true)
		return closeData(b, e, serverMS)
	}
	b = append(b, `,"choices":[{"index":0,"delta":`...)
	switch e.Type {
	case "role":
		b = append(b, `{"role":"assistant","content":""}`...)
	case "content":
		b = append(appendString(append(b, `{"content":`...), e.Text), '}')
	case "reasoning":
		b = append(appendString(append(b, `{"reasoning_content":`...), e.Text), '}')
	case "tool_call":
		b = appendInt(append(b, `{"tool_calls":[{"index":`...), e.Index)
		b = append(append(append(b, `,"id":"call_`...), e.ID...), `","type":"function","function":{"name":`...)
		b = append(appendString(b, e.Name), `,"arguments":""}}]}`...)
	case "tool_args":
		b = appendInt(append(b, `{"tool_calls":[{"index":`...), e.Index)
		b = append(appendString(append(b, `,"function":{"arguments":`...), e.Text), "}}]}"...)
	case "finish":
		if s.Truncated {
			b = append(b, `{},"finish_reason":"length"}]`...)
		} else {
			b = append(b, `{},"finish_reason":"stop"}]`...)
		}
		return closeData(b, e, serverMS)
	}
	b = append(b, `,"finish_reason":null}]`...)
	if queueMS >= 0 && e.Type == "role" {
		b = appendMS(append(b, `,"queue_ms":`...), queueMS)
	}
	return closeData(b, e, serverMS)
}
