package sse

// classifyOpenAI reads an OpenAI chat-completion chunk. Of choices, only the
// one with index 0 is read: delta.content (and delta.refusal, and text for
// legacy completions) is visible text; delta.reasoning_content and
// delta.reasoning are reasoning; delta.tool_calls are tool-call deltas. A
// usage member sets usage; a non-null error member is a stream error;
// "[DONE]" ends the stream. Role-only chunks, empty deltas and "{}" are empty.
// The chunk is read in one validating pass, without allocating unless a
// string holds escapes.
func classifyOpenAI(ev *Event) {
	if ev.Data == "[DONE]" {
		ev.Kind = Done
		return
	}
	c := jsonCursor{s: ev.Data}
	if c.peek() != '{' {
		invalid(ev, "data is not a JSON object")
		return
	}
	c.openObject()
	for n, k := 0, ""; c.member(n, &k); n++ {
		switch k {
		case "choices":
			openaiChoices(&c, ev)
		case "usage":
			openaiUsage(&c, ev)
		case "error":
			if v := c.raw(); v != "null" {
				ev.Error = clip(errorValue(v), maxErrorLen)
			}
		default:
			c.skip()
		}
	}
	if !c.end() {
		invalid(ev, "invalid JSON")
		return
	}
	ev.Kind = kindOf(ev)
}

// openaiChoices reads a choices array; the choice with index 0 fills ev.
func openaiChoices(c *jsonCursor, ev *Event) {
	if c.peek() != '[' {
		c.skip()
		return
	}
	c.openArray()
	for n := 0; c.elem(n); n++ {
		openaiChoice(c, ev)
	}
}

// openaiChoice reads one choice. Its index may follow its delta, so the
// delta is read first and dropped afterwards when the index is not 0.
func openaiChoice(c *jsonCursor, ev *Event) {
	if c.peek() != '{' {
		c.skip()
		return
	}
	c.openObject()
	text, reasoning, tools := ev.Text, ev.Reasoning, len(ev.Tools)
	var index int64
	for n, k := 0, ""; c.member(n, &k); n++ {
		switch k {
		case "index":
			index, _ = c.int()
		case "delta", "message":
			openaiDelta(c, ev)
		case "text":
			if s, ok := c.str(); ok {
				ev.Text += s
			}
		default:
			c.skip()
		}
	}
	if index != 0 {
		ev.Text, ev.Reasoning, ev.Tools = text, reasoning, ev.Tools[:tools]
	}
}

// openaiDelta reads a choice's delta.
func openaiDelta(c *jsonCursor, ev *Event) {
	if c.peek() != '{' {
		c.skip()
		return
	}
	c.openObject()
	for n, k := 0, ""; c.member(n, &k); n++ {
		switch k {
		case "content", "refusal":
			if s, ok := c.str(); ok {
				ev.Text += s
			}
		case "reasoning_content", "reasoning":
			if s, ok := c.str(); ok {
				ev.Reasoning += s
			}
		case "tool_calls":
			openaiToolCalls(c, ev)
		default:
			c.skip()
		}
	}
}

// openaiToolCalls reads the tool-call deltas of a delta.
func openaiToolCalls(c *jsonCursor, ev *Event) {
	if c.peek() != '[' {
		c.skip()
		return
	}
	c.openArray()
	for n := 0; c.elem(n); n++ {
		if tc, ok := openaiToolCall(c); ok {
			ev.Tools = append(ev.Tools, tc)
		}
	}
}

// openaiToolCall reads one tool-call delta object; ok is false (and the
// value skipped) when it is not an object.
func openaiToolCall(c *jsonCursor) (tc ToolCall, ok bool) {
	if c.peek() != '{' {
		c.skip()
		return tc, false
	}
	c.openObject()
	for n, k := 0, ""; c.member(n, &k); n++ {
		switch k {
		case "index":
			i, _ := c.int()
			tc.Index = int(i)
		case "id":
			tc.ID, _ = c.str()
		case "function":
			tc.Name, tc.Arguments = openaiFunction(c)
		default:
			c.skip()
		}
	}
	return tc, true
}

// openaiFunction returns a tool-call delta's function name and arguments.
func openaiFunction(c *jsonCursor) (name, args string) {
	if c.peek() != '{' {
		c.skip()
		return "", ""
	}
	c.openObject()
	for n, k := 0, ""; c.member(n, &k); n++ {
		switch k {
		case "name":
			name, _ = c.str()
		case "arguments":
			args, _ = c.str()
		default:
			c.skip()
		}
	}
	return name, args
}

// openaiUsage reads a usage object: prompt_tokens, completion_tokens and
// completion_tokens_details.reasoning_tokens (input_tokens, output_tokens
// and output_tokens_details of the Responses API are read as well).
func openaiUsage(c *jsonCursor, ev *Event) {
	if c.peek() != '{' {
		c.skip()
		return
	}
	c.openObject()
	for n, k := 0, ""; c.member(n, &k); n++ {
		switch k {
		case "prompt_tokens", "input_tokens":
			ev.usage.InputTokens, _ = c.int()
			ev.usageSet |= usageInput
		case "completion_tokens", "output_tokens":
			ev.usage.OutputTokens, _ = c.int()
			ev.usageSet |= usageOutput
		case "completion_tokens_details", "output_tokens_details":
			if r, ok := lookupPath(c.raw(), []string{"reasoning_tokens"}); ok {
				ev.usage.ReasoningTokens, _ = jsonInt(r)
				ev.usageSet |= usageReasoning
			}
		default:
			c.skip()
		}
	}
}
