package sse

// content accumulates what a stream's events carried: visible text,
// reasoning, merged state, tool calls and usage.
type content struct {
	text      textBuf
	reasoning textBuf
	state     map[string]any
	tools     []ToolCall
	toolArgs  [][]byte
	usage     Usage
}

// newContent returns an empty accumulator.
func newContent() *content {
	return &content{state: map[string]any{}}
}

// apply adds a classified event's content to the accumulator and points
// ev.Usage at the cumulative usage when the event reported some.
func (c *content) apply(ev *Event) {
	c.text.WriteString(ev.Text)
	c.reasoning.WriteString(ev.Reasoning)
	if ev.State != nil {
		mergeState(c.state, ev.State)
	}
	for i := range ev.Tools {
		c.addTool(&ev.Tools[i])
	}
	if ev.usageSet != 0 {
		c.addUsage(ev)
		ev.Usage = &c.usage
	}
}

// addTool merges one tool-call delta into the call with the same index.
func (c *content) addTool(d *ToolCall) {
	i := c.toolIndex(d.Index)
	if i < 0 {
		c.tools = append(c.tools, ToolCall{Index: d.Index})
		c.toolArgs = append(c.toolArgs, nil)
		i = len(c.tools) - 1
	}
	t := &c.tools[i]
	if d.ID != "" {
		t.ID = d.ID
	}
	if d.Name != "" {
		t.Name = d.Name
	}
	c.toolArgs[i] = append(c.toolArgs[i], d.Arguments...)
}

// toolIndex returns the position of the call with the given index, or -1.
func (c *content) toolIndex(index int) int {
	for i := range c.tools {
		if c.tools[i].Index == index {
			return i
		}
	}
	return -1
}

// addUsage overwrites the usage fields the event reported: streams report
// cumulative counts.
func (c *content) addUsage(ev *Event) {
	if ev.usageSet&usageInput != 0 {
		c.usage.InputTokens = ev.usage.InputTokens
	}
	if ev.usageSet&usageOutput != 0 {
		c.usage.OutputTokens = ev.usage.OutputTokens
	}
	if ev.usageSet&usageReasoning != 0 {
		c.usage.ReasoningTokens = ev.usage.ReasoningTokens
	}
}

// toolCalls returns the assembled tool calls.
func (c *content) toolCalls() []ToolCall {
	out := make([]ToolCall, len(c.tools))
	for i, t := range c.tools {
		t.Arguments = string(c.toolArgs[i])
		out[i] = t
	}
	return out
}
