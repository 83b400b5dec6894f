package usefulsse

import (
	"strings"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/sse"
)

// resultValue is the JavaScript view of a result, with the names of
// PRODUCT.md: times in float milliseconds, null when never reached; good is
// the goodput verdict (null without objectives).
func resultValue(rt *sobek.Runtime, r *sse.Result, good *bool) sobek.Value {
	headers := make(map[string]any, len(r.Header))
	for k, v := range r.Header {
		headers[k] = strings.Join(v, ", ")
	}
	tools := make([]any, len(r.ToolCalls))
	for i, t := range r.ToolCalls {
		tools[i] = map[string]any{"index": t.Index, "id": t.ID, "name": t.Name, "arguments": t.Arguments}
	}
	marks := make(map[string]any, len(r.Marks))
	for k, v := range r.Marks {
		marks[k] = msValue(v)
	}
	tm := r.Timings
	return rt.ToValue(map[string]any{
		"status": r.Status, "proto": r.Proto, "headers": headers, "error": r.Error, "error_code": r.ErrorCode,
		"url": r.URL, "dialect": string(r.Dialect), "text": r.Text, "reasoning": r.Reasoning, "state": r.State,
		"tool_calls": tools, "cost": r.Cost,
		"usage": map[string]any{
			"input_tokens": r.Usage.InputTokens, "output_tokens": r.Usage.OutputTokens,
			"reasoning_tokens": r.Usage.ReasoningTokens,
		},
		"events": r.Events, "heartbeats": r.Heartbeats, "empty_events": r.EmptyEvents,
		"coalesced_events": r.CoalescedEvents, "read_lag": msValue(r.ReadLag),
		"useful_reached": r.UsefulReached, "good": boolOrNull(good),
		"timings": map[string]any{
			"schedule_lag": msValue(tm.ScheduleLag), "connecting": msValue(tm.Connecting),
			"tls_handshaking": msValue(tm.TLSHandshaking), "queue": msValue(tm.Queue), "headers": msValue(tm.Headers),
			"first_event": msValue(tm.FirstEvent), "first_text": msValue(tm.FirstText), "useful": msValue(tm.Useful),
			"complete": msValue(tm.Complete), "max_gap": msValue(tm.MaxGap),
		},
		"marks": marks,
	})
}

// boolOrNull returns *b, or nil (null) when b is nil.
func boolOrNull(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

// msValue returns the milliseconds, or nil (null) when never reached.
func msValue(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}
