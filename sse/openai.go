package sse

// classifyOpenAI reads an OpenAI chat-completion chunk. Of choices, only the
// one with index 0 is read: delta.content (and delta.refusal, and text for
// legacy completions) is visible text; delta.reasoning_content and
// delta.reasoning are reasoning; delta.tool_calls are tool-call deltas. A
// usage member sets usage; a non-null error member is a stream error;
// "[DONE]" ends the stream. Role-only chunks, empty deltas and "{}" are empty.
func classifyOpenAI(ev *Event) {
	if ev.Data == "[DONE]" {
		ev.Kind = Done
		return
	}
	it, ok := parseObject(ev.Data)
	if !ok {
		invalid(ev, "data is not a JSON object")
		return
	}
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch k {
		case "choices":
			openaiChoices(ev, v)
		case "usage":
			openaiUsage(ev, v)
		case "error":
			if !isNull(v) {
				ev.Error = clip(errorValue(v), maxErrorLen)
			}
		}
	}
	if !it.valid() {
		invalid(ev, "invalid JSON")
		return
	}
	ev.Kind = kindOf(ev)
}

// openaiChoices reads the choice with index 0 of a choices array.
func openaiChoices(ev *Event, raw string) {
	arr, ok := parseArray(raw)
	if !ok {
		return
	}
	for v, ok := arr.next(); ok; v, ok = arr.next() {
		if choiceIndex(v) == 0 {
			openaiChoice(ev, v)
			return
		}
	}
}

// choiceIndex returns a choice's index member, 0 when absent.
func choiceIndex(raw string) int64 {
	it, _ := parseObject(raw)
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		if k == "index" {
			n, _ := jsonInt(v)
			return n
		}
	}
	return 0
}

// openaiChoice reads one choice: its delta, or its text (legacy completions).
func openaiChoice(ev *Event, raw string) {
	it, _ := parseObject(raw)
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch k {
		case "delta", "message":
			openaiDelta(ev, v)
		case "text":
			ev.Text, _ = jsonString(v)
		}
	}
}

// openaiDelta reads a choice's delta.
func openaiDelta(ev *Event, raw string) {
	it, _ := parseObject(raw)
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch k {
		case "content", "refusal":
			if s, ok := jsonString(v); ok {
				ev.Text += s
			}
		case "reasoning_content", "reasoning":
			if s, ok := jsonString(v); ok {
				ev.Reasoning += s
			}
		case "tool_calls":
			openaiToolCalls(ev, v)
		}
	}
}

// openaiToolCalls reads the tool-call deltas of a delta.
func openaiToolCalls(ev *Event, raw string) {
	arr, ok := parseArray(raw)
	if !ok {
		return
	}
	for v, ok := arr.next(); ok; v, ok = arr.next() {
		var tc ToolCall
		it, _ := parseObject(v)
		for k, x, ok := it.next(); ok; k, x, ok = it.next() {
			switch k {
			case "index":
				n, _ := jsonInt(x)
				tc.Index = int(n)
			case "id":
				tc.ID, _ = jsonString(x)
			case "function":
				tc.Name, tc.Arguments = openaiFunction(x)
			}
		}
		ev.Tools = append(ev.Tools, tc)
	}
}

// openaiFunction returns a tool-call delta's function name and arguments.
func openaiFunction(raw string) (name, args string) {
	it, _ := parseObject(raw)
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch k {
		case "name":
			name, _ = jsonString(v)
		case "arguments":
			args, _ = jsonString(v)
		}
	}
	return name, args
}

// openaiUsage reads a usage object: prompt_tokens, completion_tokens and
// completion_tokens_details.reasoning_tokens.
func openaiUsage(ev *Event, raw string) {
	it, ok := parseObject(raw)
	if !ok {
		return
	}
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch k {
		case "prompt_tokens", "input_tokens":
			ev.usage.InputTokens, _ = jsonInt(v)
			ev.usageSet |= usageInput
		case "completion_tokens", "output_tokens":
			ev.usage.OutputTokens, _ = jsonInt(v)
			ev.usageSet |= usageOutput
		case "completion_tokens_details", "output_tokens_details":
			if r, ok := lookupPath(v, []string{"reasoning_tokens"}); ok {
				ev.usage.ReasoningTokens, _ = jsonInt(r)
				ev.usageSet |= usageReasoning
			}
		}
	}
}
