package mock

import (
	"fmt"
	"strings"
)

// The named faults. A request asks for faults with its "faults" field (an
// array of names, or a comma-separated string); Config.Faults applies faults
// to every request.
const (
	// FaultPrematureCommit sends the decision (text and business_state
	// decision) right after intent routing, before any tool verified it.
	FaultPrematureCommit = "premature_commit"
	// FaultSlowFallback delays the fallback message after a tool timeout by
	// Config.SlowFallback (more than 1 s) instead of Config.Fallback. Only
	// timeout_recovery has a fallback.
	FaultSlowFallback = "slow_fallback"
	// FaultDisconnect closes the connection abruptly in the middle of the
	// answer (no terminal event, no end of the chunked body).
	FaultDisconnect = "disconnect"
	// FaultHTTPError answers 429 (with Retry-After: 1) or 503 with a JSON
	// error body in the dialect's error shape, before queueing. The status
	// is the request's http_error_status field, else chosen by the seed.
	FaultHTTPError = "http_error"
	// FaultBuffered imitates a buffering proxy: the headers go out as usual
	// but the body is held and written in Config.BufferBytes batches, so the
	// first event arrives late (for a short stream, at its end).
	FaultBuffered = "buffered"
	// FaultStall makes the stream silent (no heartbeats) for Config.StallMS
	// in the middle of the answer, unless the client leaves first.
	FaultStall = "stall"
	// FaultHeartbeatFlood sends a heartbeat at every multiple of
	// Config.FloodHeartbeatMS, whatever else is being sent (a keep-alive
	// ticker gone wild), instead of filling silences of Config.HeartbeatMS.
	FaultHeartbeatFlood = "heartbeat_flood"
	// FaultMalformedJSON sends one answer-text event whose JSON is cut
	// before its closing brace.
	FaultMalformedJSON = "malformed_json"
	// FaultRenderDelay slows the chat page (GET /chat) down, not the
	// stream: the response carries the RenderDelayHeader with
	// Config.RenderDelayMS, and the page holds every update of the screen
	// back by that long, so the socket shows the answer early and the
	// screen late.
	FaultRenderDelay = "render_delay"
)

// Faults lists every fault name.
var Faults = []string{
	FaultPrematureCommit, FaultSlowFallback, FaultDisconnect, FaultHTTPError,
	FaultBuffered, FaultStall, FaultHeartbeatFlood, FaultMalformedJSON, FaultRenderDelay,
}

// faultSet is a set of faults, one bit per index in Faults.
type faultSet uint16

// faultBit returns the bit of the named fault, 0 for an unknown name.
func faultBit(name string) faultSet {
	for i, f := range Faults {
		if f == name {
			return 1 << i
		}
	}
	return 0
}

// has reports whether the set holds the named fault.
func (s faultSet) has(name string) bool { return s&faultBit(name) != 0 }

// names returns the faults of the set in the order of Faults.
func (s faultSet) names() []string {
	var out []string
	for i, f := range Faults {
		if s&(1<<i) != 0 {
			out = append(out, f)
		}
	}
	return out
}

// parseFaults adds the named faults to base. Blank names are skipped; an
// unknown name is an error naming it.
func parseFaults(names []string, base faultSet) (faultSet, error) {
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		b := faultBit(n)
		if b == 0 {
			return 0, fmt.Errorf("unknown fault %q (known: %s)", n, strings.Join(Faults, ", "))
		}
		base |= b
	}
	return base, nil
}
