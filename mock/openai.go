package mock

import (
	"strconv"
	"time"
)

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
//
// That is the aftersales profile. The other profiles (Config.Profile) send
// the role chunk with the first token or not at all, add members (created,
// system_fingerprint, logprobs, usage null, llama.cpp's timings), stream
// reasoning as content or not at all, and send no heartbeats: chunkShape in
// profile.go, the table in docs/mock.md.

// openaiEvents renders a timeline in the OpenAI dialect, with the chunks
// of the schedule's profile: no role-only chunk without chunk.roleChunk, no
// reasoning chunks when chunk.reasoning is "".
func openaiEvents(steps []step, s *Schedule) []Event {
	c := &s.profile.chunk
	evs := make([]Event, 0, len(steps)+2)
	for _, st := range steps {
		e := Event{At: st.at, quiet: st.quiet}
		switch st.op {
		case opStart:
			if !c.roleChunk {
				continue
			}
			e.Kind, e.Type = KindEmpty, "role"
		case opText:
			e.Kind, e.Type, e.Text = KindText, "content", st.text
		case opReasoning:
			switch c.reasoning {
			case "":
				continue
			case "content": // inline with the answer: visible text
				e.Kind, e.Type, e.Text = KindText, "content", st.text
			default:
				e.Kind, e.Type, e.Text = KindReasoning, "reasoning", st.text
			}
		case opToolStart:
			e.Kind, e.Type, e.Index, e.ID, e.Name = KindTool, "tool_call", st.tool, st.id, st.text
		case opToolArgs:
			e.Kind, e.Type, e.Index, e.Text = KindTool, "tool_args", st.tool, st.text
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

// appendFinish appends the events that end an OpenAI-shaped stream before
// its [DONE]: the finish event and, when the request asked for it, the
// usage event.
func appendFinish(evs []Event, s *Schedule, e Event) []Event {
	e.Kind, e.Type = KindEmpty, "finish"
	evs = append(evs, e)
	if s.IncludeUsage {
		e.Kind, e.Type = KindState, "usage"
		evs = append(evs, e)
	}
	return evs
}

// appendOpenAI appends the wire form of an OpenAI event in the shape of the
// schedule's profile (see chunkShape). queueMS < 0 means the queue time is
// not reported in the event; the stream reports it in its first event.
func appendOpenAI(b []byte, s *Schedule, e *Event, serverMS, queueMS float64) []byte {
	if e.Type == "[DONE]" {
		return append(b, "data: [DONE]\n\n"...)
	}
	c := &s.profile.chunk
	b = append(b, `data: {"id":"`...)
	if !c.blankID {
		b = append(append(b, "chatcmpl-"...), s.ID...)
	}
	b = append(b, `","object":"chat.completion.chunk"`...)
	if c.created {
		b = strconv.AppendInt(append(b, `,"created":`...), s.Created, 10)
	}
	b = append(appendString(append(b, `,"model":`...), s.Model), c.head...)
	if e.Type == "usage" {
		b = appendUsage(append(b, `,"choices":[],"usage":`...), s.Usage, c.usageDetails)
		if c.timings {
			b = appendTimings(b, s)
		}
		return closeOpenAI(b, e, serverMS, queueMS)
	}
	b = appendDelta(append(b, `,"choices":[{"index":0,"delta":`...), c, e)
	if c.logprobs {
		b = append(b, `,"logprobs":null`...)
	}
	final := e.Type == "finish"
	b = append(append(b, `,"finish_reason":`...), finishReason(s, final)...)
	if final {
		b = append(b, c.finishExtra...)
	}
	b = append(b, "}]"...)
	if c.usageNull == usageNullAlways || c.usageNull == usageNullIncluded && s.IncludeUsage {
		b = append(b, `,"usage":null`...)
	}
	if final && c.timings && !s.IncludeUsage {
		b = appendTimings(b, s)
	}
	return closeOpenAI(b, e, serverMS, queueMS)
}

// closeOpenAI ends a chunk with its queue_ms (if queueMS >= 0) and
// server_ms.
func closeOpenAI(b []byte, e *Event, serverMS, queueMS float64) []byte {
	if queueMS >= 0 {
		b = appendMS(append(b, `,"queue_ms":`...), queueMS)
	}
	return closeData(b, e, serverMS)
}

// appendDelta appends the delta object of a chunk.
func appendDelta(b []byte, c *chunkShape, e *Event) []byte {
	switch e.Type {
	case "role":
		return append(b, c.roleDelta...)
	case "finish":
		return append(b, c.finishDelta...)
	}
	b = append(b, '{')
	if c.roleEveryDelta {
		b = append(b, `"role":"assistant",`...)
	}
	switch e.Type {
	case "content":
		b = appendString(append(b, `"content":`...), e.Text)
	case "reasoning":
		b = appendString(append(append(append(b, '"'), c.reasoning...), `":`...), e.Text)
	case "tool_call":
		b = appendInt(append(b, `"tool_calls":[{"index":`...), e.Index)
		b = append(append(append(append(b, `,"id":"`...), c.toolIDPrefix...), e.ID...), `","type":"function","function":{"name":`...)
		b = append(appendString(b, e.Name), `,"arguments":""}}]`...)
	case "tool_args":
		b = appendInt(append(b, `"tool_calls":[{"index":`...), e.Index)
		b = append(appendString(append(b, `,"function":{"arguments":`...), e.Text), "}}]"...)
	}
	return append(b, '}')
}

// appendTimings appends llama.cpp's timings member for the schedule:
// prompt_n the input tokens and prompt_ms the time to the first generated
// token (from dequeue, as llama.cpp counts prompt processing), predicted_n
// the output tokens and predicted_ms the time from the first token to the
// finish; the rates follow (per_token_ms = ms ÷ n, per_second = 1000 ÷
// per_token_ms).
func appendTimings(b []byte, s *Schedule) []byte {
	first, end := firstTokenAt(s), time.Duration(0)
	for i := range s.Events {
		if s.Events[i].Type == "finish" {
			end = s.Events[i].At
		}
	}
	promptMS, predictedMS := durationMS(first), durationMS(end-first)
	rate := func(name string, n int, ms float64) []byte {
		perToken, perSecond := 0.0, 0.0
		if n > 0 && ms > 0 {
			perToken, perSecond = ms/float64(n), float64(n)*1000/ms
		}
		b = appendInt(append(append(append(b, `,"`...), name...), `_n":`...), n)
		b = appendMS(append(append(append(b, `,"`...), name...), `_ms":`...), ms)
		b = appendMS(append(append(append(b, `,"`...), name...), `_per_token_ms":`...), perToken)
		return appendMS(append(append(append(b, `,"`...), name...), `_per_second":`...), perSecond)
	}
	b = append(b, `,"timings":{"cache_n":0`...)
	b = rate("prompt", s.Usage.InputTokens, promptMS)
	b = rate("predicted", s.Usage.OutputTokens, predictedMS)
	return append(b, '}')
}

// firstTokenAt returns when the schedule's first generated token (text,
// reasoning or tool call) is sent, from dequeue; 0 if none is.
func firstTokenAt(s *Schedule) time.Duration {
	for i := range s.Events {
		switch s.Events[i].Kind {
		case KindText, KindReasoning, KindTool:
			return s.Events[i].At
		}
	}
	return 0
}
