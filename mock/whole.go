package mock

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Whole answers: an OpenAI chat completion or legacy completion whose
// "stream" is absent or false gets one JSON object (Content-Type
// application/json) instead of a stream. The request is planned and queued
// exactly like a stream; the answer is written when the stream's last event
// would have been, so its latency is the stream's to completion:
//
//	{"id":"chatcmpl-…","object":"chat.completion","created":1767225600,"model":"m",
//	 "choices":[{"index":0,"message":{"role":"assistant","content":"…"},"logprobs":null,"finish_reason":"stop"}],
//	 "usage":{"prompt_tokens":350,"completion_tokens":52,"total_tokens":402,"completion_tokens_details":{"reasoning_tokens":0}},
//	 "server_ms":2012.3}
//
//	{"id":"cmpl-…","object":"text_completion","created":1767225600,"model":"m",
//	 "choices":[{"text":"…","index":0,"logprobs":null,"finish_reason":"stop"}],
//	 "usage":{"prompt_tokens":350,"completion_tokens":52,"total_tokens":402},"server_ms":2012.3}
//
// content (text) is the concatenated text the stream would have sent. A chat
// message also has reasoning_content when reasoning was streamed and
// tool_calls ({id, type, function {name, arguments}}) when tool calls were.
// finish_reason is "length" when max_tokens cut the answer. The queue time
// is in the Server-Timing: queue;dur=<ms> header. Faults: disconnect closes
// the connection without an answer at its time, stall delays the answer,
// malformed_json cuts the object's closing brace, http_error answers as in
// a stream; buffered and heartbeat_flood change nothing.

// sendWhole waits until the stream's last event is due and writes the whole
// answer; a disconnect fault closes the connection at its time instead.
func (st *stream) sendWhole(queueMS float64) {
	evs := st.sched.Events
	last := &evs[len(evs)-1]
	due := st.start.Add(last.At)
	if !st.sleepUntil(due) {
		return
	}
	if last.Kind == KindDisconnect {
		panic(http.ErrAbortHandler)
	}
	now := time.Now()
	b := appendWhole((*st.buf)[:0], st.sched, durationMS(now.Sub(st.arrived)))
	*st.buf = b
	h := st.w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Server-Timing", "queue;dur="+strconv.FormatFloat(queueMS, 'f', 3, 64))
	st.w.WriteHeader(http.StatusOK)
	if _, err := st.w.Write(b); err == nil {
		st.stats.sent(now.Sub(due))
	}
}

// wholeAnswer is what a schedule's events say, put together.
type wholeAnswer struct {
	text, reasoning strings.Builder
	tools           []wholeTool
	malformed       bool // an event of the stream was malformed
}

// wholeTool is one assembled tool call.
type wholeTool struct {
	id, name string
	args     strings.Builder
}

// collect puts the schedule's text, reasoning and tool calls together.
func collect(s *Schedule) *wholeAnswer {
	a := &wholeAnswer{}
	for i := range s.Events {
		e := &s.Events[i]
		a.malformed = a.malformed || e.Kind == KindInvalid
		switch e.Type {
		case "content", "text":
			a.text.WriteString(e.Text)
		case "reasoning":
			a.reasoning.WriteString(e.Text)
		case "tool_call":
			a.tools = append(a.tools, wholeTool{id: e.ID, name: e.Name})
		case "tool_args":
			if e.Index < len(a.tools) {
				a.tools[e.Index].args.WriteString(e.Text)
			}
		}
	}
	return a
}

// appendWhole appends the JSON body of the whole answer of s, with serverMS
// as its server_ms, and a newline.
func appendWhole(b []byte, s *Schedule, serverMS float64) []byte {
	a := collect(s)
	if s.Dialect == Completions {
		b = appendCompletionHead(b, s)
		b = appendString(append(b, `,"choices":[{"text":`...), a.text.String())
		b = append(append(b, `,"index":0,"logprobs":null,"finish_reason":`...), finishReason(s, true)...)
		b = appendUsage(append(b, `}],"usage":`...), s.Usage, false)
	} else {
		b = appendChatCompletion(b, s, a)
	}
	b = appendMS(append(b, `,"server_ms":`...), serverMS)
	if !a.malformed {
		b = append(b, '}')
	}
	return append(b, '\n')
}

// appendChatCompletion appends a chat.completion object without its closing
// brace.
func appendChatCompletion(b []byte, s *Schedule, a *wholeAnswer) []byte {
	b = append(append(append(b, `{"id":"chatcmpl-`...), s.ID...), `","object":"chat.completion","created":`...)
	b = strconv.AppendInt(b, s.Created, 10)
	b = appendString(append(b, `,"model":`...), s.Model)
	b = append(b, `,"choices":[{"index":0,"message":{"role":"assistant","content":`...)
	b = appendString(b, a.text.String())
	if a.reasoning.Len() > 0 {
		b = appendString(append(b, `,"reasoning_content":`...), a.reasoning.String())
	}
	for i := range a.tools {
		t := &a.tools[i]
		if i == 0 {
			b = append(b, `,"tool_calls":[`...)
		} else {
			b = append(b, ',')
		}
		b = append(append(append(b, `{"id":"call_`...), t.id...), `","type":"function","function":{"name":`...)
		b = appendString(b, t.name)
		b = append(appendString(append(b, `,"arguments":`...), t.args.String()), "}}"...)
	}
	if len(a.tools) > 0 {
		b = append(b, ']')
	}
	b = append(append(b, `},"logprobs":null,"finish_reason":`...), finishReason(s, true)...)
	return appendUsage(append(b, `}],"usage":`...), s.Usage, true)
}
