package sse

// anthropicEvent holds the raw members of an Anthropic stream event.
type anthropicEvent struct {
	typ, index, message, block, delta, usage, err string
}

// classifyAnthropic reads an Anthropic Messages stream event, whose data
// "type" equals its SSE event name: message_start (usage input_tokens),
// content_block_start (a tool_use block starts a tool call),
// content_block_delta (text_delta → text, thinking_delta → reasoning,
// input_json_delta → tool arguments), message_delta (cumulative usage),
// message_stop (done), ping (heartbeat) and error (stream error). Other
// types, signature and citation deltas, and content_block_stop are empty.
func classifyAnthropic(ev *Event) {
	a, ok := anthropicMembers(ev.Data)
	if !ok {
		invalid(ev, "invalid JSON")
		return
	}
	if a.typ == "" {
		a.typ = ev.Type
	}
	switch a.typ {
	case "message_stop":
		ev.Kind = Done
		return
	case "ping":
		ev.Kind = Heartbeat
		return
	case "error":
		ev.Error = clip(errorValue(a.err), maxErrorLen)
	case "message_start":
		u, _ := lookupPath(a.message, []string{"usage"})
		anthropicUsage(ev, u)
	case "message_delta":
		anthropicUsage(ev, a.usage)
	case "content_block_start":
		anthropicBlockStart(ev, a)
	case "content_block_delta":
		anthropicDelta(ev, a)
	}
	ev.Kind = kindOf(ev)
}

// anthropicMembers collects the members classifyAnthropic reads; ok is false
// when data is not a valid JSON object.
func anthropicMembers(data string) (a anthropicEvent, ok bool) {
	it, ok := parseObject(data)
	if !ok {
		return a, false
	}
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch k {
		case "type":
			a.typ, _ = jsonString(v)
		case "index":
			a.index = v
		case "message":
			a.message = v
		case "content_block":
			a.block = v
		case "delta":
			a.delta = v
		case "usage":
			a.usage = v
		case "error":
			a.err = v
		}
	}
	return a, it.valid()
}

// anthropicBlockStart reads content_block_start: a tool_use block starts a
// tool call; text and thinking blocks may carry initial text.
func anthropicBlockStart(ev *Event, a anthropicEvent) {
	typ, name, id, text, thinking := anthropicStrings(a.block, "type", "name", "id", "text", "thinking")
	switch typ {
	case "tool_use", "server_tool_use":
		idx, _ := jsonInt(a.index)
		ev.Tools = append(ev.Tools, ToolCall{Index: int(idx), ID: id, Name: name})
	case "text":
		ev.Text = text
	case "thinking":
		ev.Reasoning = thinking
	}
}

// anthropicDelta reads content_block_delta.
func anthropicDelta(ev *Event, a anthropicEvent) {
	typ, text, thinking, partial, _ := anthropicStrings(a.delta, "type", "text", "thinking", "partial_json", "")
	switch typ {
	case "text_delta":
		ev.Text = text
	case "thinking_delta":
		ev.Reasoning = thinking
	case "input_json_delta":
		idx, _ := jsonInt(a.index)
		ev.Tools = append(ev.Tools, ToolCall{Index: int(idx), Arguments: partial})
	}
}

// anthropicStrings returns the string members k1…k5 of the object raw.
func anthropicStrings(raw, k1, k2, k3, k4, k5 string) (v1, v2, v3, v4, v5 string) {
	it, _ := parseObject(raw)
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		s, _ := jsonString(v)
		switch k {
		case k1:
			v1 = s
		case k2:
			v2 = s
		case k3:
			v3 = s
		case k4:
			v4 = s
		case k5:
			v5 = s
		}
	}
	return
}

// anthropicUsage reads a usage object; Anthropic reports cumulative counts.
func anthropicUsage(ev *Event, raw string) {
	it, ok := parseObject(raw)
	if !ok {
		return
	}
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch k {
		case "input_tokens":
			ev.usage.InputTokens, _ = jsonInt(v)
			ev.usageSet |= usageInput
		case "output_tokens":
			ev.usage.OutputTokens, _ = jsonInt(v)
			ev.usageSet |= usageOutput
		}
	}
}
