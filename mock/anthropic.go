package mock

import "time"

// The Anthropic dialect (POST /v1/messages): each event is an "event:" line
// naming the type and a data line whose JSON "type" repeats it:
// message_start (message with usage.input_tokens; queue_ms at top level when
// headers are not held) and a ping, then per content block
// content_block_start (thinking, tool_use or text), content_block_delta
// (thinking_delta then a signature_delta, input_json_delta, text_delta) and
// content_block_stop, then message_delta (stop_reason end_turn, or
// max_tokens when the request's max_tokens cut the answer; cumulative
// usage.output_tokens) and message_stop. Heartbeats are ping events. Every
// data object has a top-level server_ms.
//
// Under a profile that opens streams at the first token (Config.Profile
// other than aftersales) message_start leaves with the first generated
// token, followed by the first content_block_start, a ping and the first
// delta, in the order of Anthropic's streams; the anthropic, vllm,
// llamacpp and tgi profiles answer a request whose "stream" is not true
// with one message object (see appendMessage).

// anthropicEvents renders a timeline in the Anthropic dialect.
func anthropicEvents(steps []step, s *Schedule) []Event {
	r := anthropicRenderer{evs: make([]Event, 0, len(steps)+16), index: -1}
	for i, st := range steps {
		switch st.op {
		case opStart:
			r.add(Event{At: st.at, Kind: KindState, Type: "message_start"})
			if s.profile.openAtFirstToken {
				r.pingAfterStart = true // message_start, content_block_start, ping
			} else {
				r.add(Event{At: st.at, Kind: KindHeartbeat, Type: "ping"})
			}
		case opText:
			r.open(st, "text", KindEmpty, "", "")
			r.delta(st, KindText, "text_delta")
			r.closeUnless(steps[i+1:], opText, st.at)
		case opReasoning:
			r.open(st, "thinking", KindEmpty, "", "")
			r.delta(st, KindReasoning, "thinking_delta")
			r.closeUnless(steps[i+1:], opReasoning, st.at)
		case opToolStart:
			r.close(st.at)
			r.open(st, "tool_use", KindTool, st.id, st.text)
		case opToolArgs:
			r.delta(st, KindTool, "input_json_delta")
			r.closeUnless(steps[i+1:], opToolArgs, st.at)
		case opDone:
			r.close(st.at)
			r.add(Event{At: st.at, Kind: KindState, Type: "message_delta"})
			r.add(Event{At: st.at, Kind: KindDone, Type: "message_stop"})
		case opDisconnect:
			r.add(Event{At: st.at, Kind: KindDisconnect, Type: "disconnect", quiet: st.quiet})
		}
	}
	return r.evs
}

// anthropicRenderer tracks the open content block while rendering.
type anthropicRenderer struct {
	evs   []Event
	block string // type of the open block, "" when none
	index int    // index of the last block started
	quiet bool   // the next event follows a stall
	// pingAfterStart sends the first ping after the first
	// content_block_start, as Anthropic's streams do.
	pingAfterStart bool
}

// add appends an event.
func (r *anthropicRenderer) add(e Event) {
	e.quiet = e.quiet || r.quiet
	r.quiet = false
	r.evs = append(r.evs, e)
}

// open starts a block of type typ at st unless one is open already.
func (r *anthropicRenderer) open(st step, typ string, kind Kind, id, name string) {
	r.quiet = r.quiet || st.quiet
	if r.block == typ {
		return
	}
	r.close(st.at)
	r.index++
	r.block = typ
	r.add(Event{At: st.at, Kind: kind, Type: "content_block_start", Block: typ, Index: r.index, ID: id, Name: name})
	if r.pingAfterStart {
		r.pingAfterStart = false
		r.add(Event{At: st.at, Kind: KindHeartbeat, Type: "ping"})
	}
}

// delta appends a content_block_delta of the open block.
func (r *anthropicRenderer) delta(st step, kind Kind, typ string) {
	r.quiet = r.quiet || st.quiet
	if st.malformed {
		kind = KindInvalid
	}
	r.add(Event{At: st.at, Kind: kind, Type: "content_block_delta", Block: typ, Index: r.index, Text: st.text})
}

// close ends the open block at time at (a thinking block gets its
// signature first).
func (r *anthropicRenderer) close(at time.Duration) {
	if r.block == "" {
		return
	}
	if r.block == "thinking" {
		r.add(Event{At: at, Kind: KindEmpty, Type: "content_block_delta", Block: "signature_delta", Index: r.index})
	}
	r.add(Event{At: at, Kind: KindEmpty, Type: "content_block_stop", Index: r.index})
	r.block = ""
}

// closeUnless closes the open block at time at unless the next step that
// streams content (states are skipped) continues it with op same; a
// disconnect leaves it open.
func (r *anthropicRenderer) closeUnless(rest []step, same op, at time.Duration) {
	for _, st := range rest {
		if st.op == opState {
			continue
		}
		if st.op == same || st.op == opDisconnect {
			return
		}
		break
	}
	r.close(at)
}

// appendAnthropic appends the wire form of an Anthropic event. queueMS < 0
// means the queue time is not reported in the event.
func appendAnthropic(b []byte, s *Schedule, e *Event, serverMS, queueMS float64) []byte {
	b = append(append(append(b, "event: "...), e.Type...), "\ndata: {\"type\":\""...)
	b = append(append(b, e.Type...), '"')
	switch e.Type {
	case "message_start":
		b = append(append(b, `,"message":{"id":"msg_`...), s.ID...)
		b = append(b, `","type":"message","role":"assistant","model":`...)
		b = appendString(b, s.Model)
		b = append(b, `,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":`...)
		b = append(appendInt(b, s.Usage.InputTokens), `,"output_tokens":1}}`...)
		if queueMS >= 0 {
			b = appendMS(append(b, `,"queue_ms":`...), queueMS)
		}
	case "content_block_start":
		b = appendInt(append(b, `,"index":`...), e.Index)
		switch e.Block {
		case "text":
			b = append(b, `,"content_block":{"type":"text","text":""}`...)
		case "thinking":
			b = append(b, `,"content_block":{"type":"thinking","thinking":""}`...)
		default:
			b = append(append(append(b, `,"content_block":{"type":"tool_use","id":"toolu_`...), e.ID...), `","name":`...)
			b = append(appendString(b, e.Name), `,"input":{}}`...)
		}
	case "content_block_delta":
		b = appendInt(append(b, `,"index":`...), e.Index)
		b = append(append(append(b, `,"delta":{"type":"`...), e.Block...), `",`...)
		switch e.Block {
		case "text_delta":
			b = append(b, `"text":`...)
		case "thinking_delta":
			b = append(b, `"thinking":`...)
		case "input_json_delta":
			b = append(b, `"partial_json":`...)
		default:
			b = append(append(append(b, `"signature":"Eu`...), s.ID...), `=="}`...)
			return closeData(b, e, serverMS)
		}
		b = append(appendString(b, e.Text), '}')
	case "content_block_stop":
		b = appendInt(append(b, `,"index":`...), e.Index)
	case "message_delta":
		reason := "end_turn"
		if s.Truncated {
			reason = "max_tokens"
		}
		b = append(append(append(b, `,"delta":{"stop_reason":"`...), reason...), `","stop_sequence":null},"usage":{"output_tokens":`...)
		b = append(appendInt(b, s.Usage.OutputTokens), '}')
	}
	return closeData(b, e, serverMS)
}
