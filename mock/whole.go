package mock

import (
	"encoding/json"
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
//
// Under the anthropic, vllm, llamacpp and tgi profiles an Anthropic request
// whose "stream" is absent or false gets one message object the same way
// (appendMessage); under every profile the chat completion takes the
// profile's members (system_fingerprint, llama.cpp's timings, …).

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
	switch s.Dialect {
	case Completions:
		b = appendCompletionHead(b, s)
		b = appendString(append(b, `,"choices":[{"text":`...), a.text.String())
		b = append(append(b, `,"index":0,"logprobs":null,"finish_reason":`...), finishReason(s, true)...)
		b = appendUsage(append(b, `}],"usage":`...), s.Usage, false)
	case Anthropic:
		b = appendMessage(b, s)
	default:
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
	c := &s.profile.chunk
	b = append(appendString(append(b, `,"model":`...), s.Model), c.head...)
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
		b = append(append(append(append(b, `{"id":"`...), c.toolIDPrefix...), t.id...), `","type":"function","function":{"name":`...)
		b = appendString(b, t.name)
		b = append(appendString(append(b, `,"arguments":`...), t.args.String()), "}}"...)
	}
	if len(a.tools) > 0 {
		b = append(b, ']')
	}
	b = append(append(b, `},"logprobs":null,"finish_reason":`...), finishReason(s, true)...)
	b = appendUsage(append(b, `}],"usage":`...), s.Usage, c.usageDetails)
	if c.timings {
		b = appendTimings(b, s)
	}
	return b
}

// appendMessage appends an Anthropic message object without its closing
// brace: the content blocks of the stream put together (thinking with its
// signature, tool_use with its input, text), the stop reason and the usage:
//
//	{"id":"msg_…","type":"message","role":"assistant","model":"m",
//	 "content":[{"type":"text","text":"Yes, you can return …"}],
//	 "stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":350,"output_tokens":52}
//
// A tool call's arguments cut by max_tokens (not JSON) give "input":{}.
func appendMessage(b []byte, s *Schedule) []byte {
	b = append(append(append(b, `{"id":"msg_`...), s.ID...), `","type":"message","role":"assistant","model":`...)
	b = append(appendString(b, s.Model), `,"content":[`...)
	for i, bl := range messageBlocks(s) {
		if i > 0 {
			b = append(b, ',')
		}
		switch bl.typ {
		case "thinking":
			b = appendString(append(b, `{"type":"thinking","thinking":`...), bl.text.String())
			b = append(append(append(b, `,"signature":"Eu`...), s.ID...), `=="}`...)
		case "tool_use":
			b = append(append(append(b, `{"type":"tool_use","id":"toolu_`...), bl.id...), `","name":`...)
			b = append(appendString(b, bl.name), `,"input":`...)
			if input := bl.text.String(); json.Valid([]byte(input)) {
				b = append(append(b, input...), '}')
			} else {
				b = append(b, "{}}"...)
			}
		default:
			b = append(appendString(append(b, `{"type":"text","text":`...), bl.text.String()), '}')
		}
	}
	reason := "end_turn"
	if s.Truncated {
		reason = "max_tokens"
	}
	b = append(append(append(b, `],"stop_reason":"`...), reason...), `","stop_sequence":null,"usage":{"input_tokens":`...)
	b = appendInt(b, s.Usage.InputTokens)
	return append(appendInt(append(b, `,"output_tokens":`...), s.Usage.OutputTokens), '}')
}

// messageBlock is one content block of an Anthropic message.
type messageBlock struct {
	typ, id, name string
	text          strings.Builder
}

// messageBlocks puts the content blocks of an Anthropic schedule together,
// in index order.
func messageBlocks(s *Schedule) []*messageBlock {
	var blocks []*messageBlock
	for i := range s.Events {
		e := &s.Events[i]
		switch {
		case e.Type == "content_block_start":
			blocks = append(blocks, &messageBlock{typ: e.Block, id: e.ID, name: e.Name})
		case e.Type == "content_block_delta" && e.Index < len(blocks):
			blocks[e.Index].text.WriteString(e.Text)
		}
	}
	return blocks
}
