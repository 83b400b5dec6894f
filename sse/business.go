package sse

// classifyBusiness reads a business event {"delta": "...", "business_state":
// {...}}: delta is visible text, business_state is a state delta to
// deep-merge, a non-null error member is a stream error, and "done": true,
// data "[DONE]" or an event of type done ends the stream. Other members
// (server_ms, queue_ms, …) are carried but change nothing by themselves; a
// usage member ({input_tokens, output_tokens}) fills the usage; the
// client marks an event that reported the queue time as state.
func classifyBusiness(ev *Event) {
	if ev.Data == "[DONE]" || ev.Type == "done" {
		ev.Kind = Done
		return
	}
	if ev.Data == "" {
		ev.Kind = Empty
		return
	}
	it, ok := parseObject(ev.Data)
	if !ok {
		invalid(ev, "data is not a JSON object")
		return
	}
	done := false
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch k {
		case "delta":
			if s, ok := jsonString(v); ok {
				ev.Text += s
			}
		case "business_state":
			if m, ok := ev.decodeState(v); ok && len(m) > 0 {
				ev.State = m
			}
		case "error":
			if !isNull(v) && v != "false" {
				ev.Error = clip(errorValue(v), maxErrorLen)
			}
		case "done":
			done = v == "true"
		case "usage":
			// {input_tokens, output_tokens} (or OpenAI's names), as the
			// final event of a business stream reports them.
			c := jsonCursor{s: v}
			openaiUsage(&c, ev)
		}
	}
	if !it.valid() {
		invalid(ev, "invalid JSON")
		return
	}
	if ev.Kind = kindOf(ev); done && ev.Kind != Error {
		ev.Kind = Done
	}
}
