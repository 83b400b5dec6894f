package sse

// Kind is the class of one SSE event. Every event has exactly one kind.
type Kind uint8

// The event kinds. Their String values are the names the JavaScript API and
// the predicate form {event: kind} use.
const (
	// Heartbeat is a comment line (": ping"), an event of type ping,
	// heartbeat or keepalive, or a dialect's own ping.
	Heartbeat Kind = iota
	// Empty is an event with no visible text and no state change: an empty
	// or whitespace-only delta, an OpenAI role-only chunk, "{}", or an event
	// of a type the dialect ignores.
	Empty
	// Text is an event that added non-whitespace visible text.
	Text
	// Reasoning is an event that added reasoning (thinking) text, which is
	// not visible text.
	Reasoning
	// Tool is an event that started a tool call or streamed its arguments.
	Tool
	// State is an event that changed structured state: a business_state
	// delta, a queue or other meta field, or token usage.
	State
	// Done is the stream's terminal event: OpenAI "[DONE]", Anthropic
	// message_stop, or an event of type done.
	Done
	// Error is an error reported inside the stream.
	Error
	// Invalid is an event whose data a JSON dialect could not parse.
	Invalid
)

// KindCount is the number of kinds; kinds range over [0, KindCount).
const KindCount = int(Invalid) + 1

var kindNames = [KindCount]string{
	"heartbeat", "empty", "text", "reasoning", "tool", "state", "done", "error", "invalid",
}

// String returns the kind's lower-case name, e.g. "heartbeat".
func (k Kind) String() string {
	if int(k) < KindCount {
		return kindNames[k]
	}
	return "unknown"
}

// ParseKind returns the kind named s (as String spells it).
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// KindCounts holds a number of events per kind, indexed by Kind.
type KindCounts [KindCount]int

// Map returns the counts keyed by kind name, including zero counts.
func (c KindCounts) Map() map[string]int {
	m := make(map[string]int, KindCount)
	for i, n := range c {
		m[kindNames[i]] = n
	}
	return m
}
