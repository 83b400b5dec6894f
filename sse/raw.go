package sse

// classifyRaw takes the data as visible text. An event of type done or data
// "[DONE]" ends the stream.
func classifyRaw(ev *Event) {
	if ev.Data == "[DONE]" || ev.Type == "done" {
		ev.Kind = Done
		return
	}
	ev.Text = ev.Data
	ev.Kind = kindOf(ev)
}
