package sse

import (
	"net/http"
	"time"
)

// Usage is a request's token usage as the stream reported it.
type Usage struct {
	// InputTokens is the prompt size in tokens (OpenAI prompt_tokens,
	// Anthropic input_tokens).
	InputTokens int64 `json:"input_tokens"`
	// OutputTokens is the generated size in tokens, reasoning included
	// (OpenAI completion_tokens, Anthropic output_tokens).
	OutputTokens int64 `json:"output_tokens"`
	// ReasoningTokens is the part of OutputTokens spent on reasoning, when
	// the stream reports it (OpenAI completion_tokens_details.reasoning_tokens).
	ReasoningTokens int64 `json:"reasoning_tokens"`
}

// Pricing turns usage into a cost per request, in the caller's currency.
type Pricing struct {
	// InputPer1M is the price of one million input tokens.
	InputPer1M float64 `json:"inputPer1M"`
	// OutputPer1M is the price of one million output tokens (reasoning
	// tokens are part of the output and are not charged again).
	OutputPer1M float64 `json:"outputPer1M"`
	// PerRequest is a fixed price per request, e.g. external calls.
	PerRequest float64 `json:"perRequest"`
}

// Cost returns input·InputPer1M/1e6 + output·OutputPer1M/1e6 + PerRequest.
func (p Pricing) Cost(u Usage) float64 {
	return float64(u.InputTokens)*p.InputPer1M/1e6 + float64(u.OutputTokens)*p.OutputPer1M/1e6 + p.PerRequest
}

// ToolCall is one tool call the model made, assembled from its deltas.
type ToolCall struct {
	// Index is the call's position: OpenAI tool_calls[].index, Anthropic
	// content block index.
	Index int `json:"index"`
	// ID is the call's identifier, e.g. "call_abc" or "toolu_01".
	ID string `json:"id"`
	// Name is the tool's name.
	Name string `json:"name"`
	// Arguments is the JSON text of the arguments, concatenated from the
	// streamed fragments.
	Arguments string `json:"arguments"`
}

// Timings are the points of a request's timeline, in float milliseconds from
// the moment the request was handed to the transport (connection set-up
// included), on the monotonic clock. A nil field was never reached (JSON null).
type Timings struct {
	// ScheduleLag is the time from Request.ScheduledAt to the send; nil when
	// ScheduledAt is zero.
	ScheduleLag *float64 `json:"schedule_lag"`
	// Connecting is the TCP connect of the connection the request opened
	// (the first one, when a redirect opened another): the kernel's round
	// trip of the handshake where it measures one (TCP_INFO), else the
	// program's. Nil when the request reused a connection. The request's
	// times count from the start of the set-up, so they include it.
	Connecting *float64 `json:"connecting"`
	// TLSHandshaking is the TLS handshake of that connection: the kernel's
	// time from sending the ClientHello to receiving the server's last
	// handshake flight where it stamps both, else crypto/tls's handshake as
	// the program timed it. Nil on a reused connection and on plain HTTP.
	TLSHandshaking *float64 `json:"tls_handshaking"`
	// Queue is the server's own report of its queue time (see QueueSource).
	Queue *float64 `json:"queue"`
	// Headers is when the response headers were received.
	Headers *float64 `json:"headers"`
	// FirstEvent is the first event of any kind but heartbeat (what naive
	// tools call time to first token: role-only chunks count).
	FirstEvent *float64 `json:"first_event"`
	// FirstText is the first event that added non-whitespace visible text.
	FirstText *float64 `json:"first_text"`
	// Useful is the first event after which the useful predicate held.
	Useful *float64 `json:"useful"`
	// Complete is the terminal event, or the clean end of the stream; nil
	// when the request failed.
	Complete *float64 `json:"complete"`
	// MaxGap is the longest time between consecutive non-heartbeat events,
	// from the first one to the last one (or to the clean end of stream).
	MaxGap *float64 `json:"max_gap"`
}

// Result is the outcome of one request. Every request ends in exactly one
// outcome: success (ErrorCode "") or one failure with partial timings kept.
type Result struct {
	// Status is the HTTP status code, 0 when no response arrived.
	Status int `json:"status"`
	// Proto is the response protocol, e.g. "HTTP/1.1" or "HTTP/2.0".
	Proto string `json:"proto"`
	// Header holds the response headers.
	Header http.Header `json:"headers"`
	// Error is a one-line description of the failure, "" on success.
	Error string `json:"error"`
	// ErrorCode is the failure's code (see the package documentation), ""
	// on success.
	ErrorCode string `json:"error_code"`
	// URL is the final URL of the request, after redirects.
	URL string `json:"url"`
	// Dialect is the dialect the stream was read in (auto resolved; auto
	// when detection never decided).
	Dialect Dialect `json:"dialect"`
	// Sent is when the request was handed to the transport, with a
	// monotonic reading.
	Sent time.Time `json:"-"`

	// Text is the visible text of the stream.
	Text string `json:"text"`
	// Reasoning is the reasoning (thinking) text of the stream.
	Reasoning string `json:"reasoning"`
	// State is the deep-merged business state; never nil.
	State map[string]any `json:"state"`
	// ToolCalls are the tool calls in order of first appearance.
	ToolCalls []ToolCall `json:"tool_calls"`
	// Usage is the token usage reported by the stream.
	Usage Usage `json:"usage"`
	// Cost is Request.Pricing applied to Usage; 0 without pricing.
	Cost float64 `json:"cost"`

	// Events counts every event, heartbeats included.
	Events int `json:"events"`
	// Heartbeats counts heartbeat events (comment lines included).
	Heartbeats int `json:"heartbeats"`
	// EmptyEvents counts events of kind Empty.
	EmptyEvents int `json:"empty_events"`
	// CoalescedEvents counts events that arrived in one network read with
	// the event after them: their stamp is that read's, possibly late.
	CoalescedEvents int `json:"coalesced_events"`
	// ReadLag is the longest time, in milliseconds, between the kernel
	// receiving bytes of the response and the program reading them; nil
	// where the kernel gives no receive stamps.
	ReadLag *float64 `json:"read_lag"`
	// EventsByKind counts events per kind.
	EventsByKind KindCounts `json:"-"`

	// Timings is the request's timeline.
	Timings Timings `json:"timings"`
	// Marks maps each mark name of the request to its first-true time in
	// milliseconds, nil when never reached.
	Marks map[string]*float64 `json:"marks"`
	// UsefulReached reports whether the useful predicate held before the
	// stream ended (in any way).
	UsefulReached bool `json:"useful_reached"`

	// BytesSent estimates the bytes written: request line, headers, body.
	BytesSent int64 `json:"bytes_sent"`
	// BytesReceived estimates the bytes read: status line, headers, and the
	// body as it came off the wire before content decoding (chunked framing
	// and TLS overhead excluded).
	BytesReceived int64 `json:"bytes_received"`
}

// Failed reports whether the request ended in a failure.
func (r *Result) Failed() bool { return r.ErrorCode != "" }

// fail records the request's failure unless one was recorded before: the
// first failure is the outcome.
func (r *Result) fail(code, msg string) {
	if r.ErrorCode != "" {
		return
	}
	r.ErrorCode, r.Error = code, msg
}

// msPtr returns a pointer to d in milliseconds.
func msPtr(d time.Duration) *float64 {
	v := ms(d)
	return &v
}
