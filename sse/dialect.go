package sse

import (
	"fmt"
	"strings"
)

// Dialect names the shape of the events a stream carries.
type Dialect string

// The dialects. The zero value "" means DialectAuto.
const (
	// DialectBusiness reads {"delta": "...", "business_state": {...}} events.
	DialectBusiness Dialect = "business"
	// DialectOpenAI reads OpenAI chat-completion chunks.
	DialectOpenAI Dialect = "openai"
	// DialectAnthropic reads Anthropic Messages stream events.
	DialectAnthropic Dialect = "anthropic"
	// DialectRaw takes each event's data as visible text.
	DialectRaw Dialect = "raw"
	// DialectAuto detects the dialect from the first events; see detectDialect.
	DialectAuto Dialect = "auto"
)

// ParseDialect returns the dialect named s (case-insensitive); "" is auto.
func ParseDialect(s string) (Dialect, error) {
	switch d := Dialect(strings.ToLower(strings.TrimSpace(s))); d {
	case "":
		return DialectAuto, nil
	case DialectBusiness, DialectOpenAI, DialectAnthropic, DialectRaw, DialectAuto:
		return d, nil
	}
	return "", fmt.Errorf("%w: unknown dialect %q (want business, openai, anthropic, raw or auto)", ErrInvalidRequest, s)
}

// anthropicTypes are the event types only the Anthropic Messages stream uses.
var anthropicTypes = map[string]bool{
	"message_start": true, "message_delta": true, "message_stop": true,
	"content_block_start": true, "content_block_delta": true, "content_block_stop": true,
}

// detectDialect decides the dialect of a stream in auto mode from one event.
// It returns "" while the event says nothing decisive; the caller then asks
// again with the next event. The rule, applied to the first event that
// decides:
//
//  1. An SSE event type or a JSON "type" member naming an Anthropic event
//     (message_start, message_delta, message_stop, content_block_start,
//     content_block_delta, content_block_stop) → anthropic.
//  2. Data "[DONE]", or a JSON object with a "choices" member or an "object"
//     member starting with "chat.completion" or "text_completion" → openai.
//  3. A JSON object with a "delta" or "business_state" member → business.
//  4. Non-empty data that is not JSON → raw.
//
// Heartbeats, events with empty data, and JSON objects matching none of the
// rules (e.g. {"queue_ms": 12}, {"error": ...}, {}) do not decide; until a
// decision they are classified by the business rules, which accept any JSON
// object.
func detectDialect(typ, data string) Dialect {
	if anthropicTypes[typ] {
		return DialectAnthropic
	}
	if data == "[DONE]" {
		return DialectOpenAI
	}
	if strings.TrimSpace(data) == "" || isHeartbeatType(typ) {
		return ""
	}
	it, ok := parseObject(data)
	if !ok {
		if validJSON(data) {
			return ""
		}
		return DialectRaw
	}
	return detectFromMembers(&it)
}

// detectFromMembers applies rules 1–3 of detectDialect to an object's
// members, in that order of precedence whatever the member order.
func detectFromMembers(it *jsonObject) Dialect {
	var anthropic, openai, business bool
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch k {
		case "type":
			s, _ := jsonString(v)
			anthropic = anthropic || anthropicTypes[s]
		case "choices":
			openai = true
		case "object":
			s, _ := jsonString(v)
			openai = openai || strings.HasPrefix(s, "chat.completion") || strings.HasPrefix(s, "text_completion")
		case "delta", "business_state":
			business = true
		}
	}
	switch {
	case !it.valid():
		return DialectRaw
	case anthropic:
		return DialectAnthropic
	case openai:
		return DialectOpenAI
	case business:
		return DialectBusiness
	}
	return ""
}

// isHeartbeatType reports whether an SSE event type marks a heartbeat in
// every dialect.
func isHeartbeatType(typ string) bool {
	switch typ {
	case "ping", "heartbeat", "keepalive":
		return true
	}
	return false
}
