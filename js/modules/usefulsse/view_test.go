package usefulsse

import (
	"testing"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/sse"
)

// TestViews checks the JavaScript views of events and predicate contexts:
// the properties and their order, conditional ones, identity of converted
// objects, the script's own writes and deletes, and that a view keeps what
// it showed when the client reuses the event.
func TestViews(t *testing.T) {
	rt := sobek.New()
	ev := &sse.Event{Kind: sse.Text, Type: "message", ID: "7", Data: `{"delta":"Hi"}`, Text: "Hi",
		At: 1500 * time.Microsecond, State: map[string]any{"decision": "refund"}}
	ctx := &sse.PredicateContext{State: map[string]any{"decision": "refund", "reason": "late"}, Text: "Hi there", Event: ev, ElapsedMS: 1.5}
	_ = rt.Set("ev", eventValue(rt, ev))
	_ = rt.Set("ctx", contextValue(rt, ctx))
	_ = rt.Set("none", eventValue(rt, nil))
	ev.Text, ev.Kind = "reused", sse.Empty  // the client reuses its event
	checks := []struct{ name, src string }{ // in order: later ones write
		{"event properties", `JSON.stringify(Object.keys(ev)) === '["kind","type","id","data","comment","text","reasoning","elapsed_ms","state"]'`},
		{"event values", `ev.kind === 'text' && ev.text === 'Hi' && ev.id === '7' && ev.elapsed_ms === 1.5 && ev.comment === ''`},
		{"no error property", `!('error' in ev) && ev.error === undefined`},
		{"state kept", `ev.state === ev.state && ev.state.decision === 'refund'`},
		{"script writes", `(ev.mine = 1, ev.mine === 1 && Object.keys(ev).includes('mine'))`},
		{"script deletes", `(delete ev.text, ev.text === undefined && !Object.keys(ev).includes('text'))`},
		{"context properties", `JSON.stringify(Object.keys(ctx)) === '["state","text","event","elapsed_ms"]'`},
		{"context values", `ctx.text === 'Hi there' && ctx.elapsed_ms === 1.5 && ctx.state.reason === 'late'`},
		{"context event", `ctx.event === ctx.event && ctx.event.kind === 'text' && ctx.event.text === 'Hi'`},
		{"destructuring", `(({state, text}) => state.decision === 'refund' && text.length === 8)(ctx)`},
		{"no event", `Object.keys(none).length === 0`},
	}
	shared := &sse.Event{Kind: sse.Text, SharedRead: true}
	_ = rt.Set("shared", eventValue(rt, shared))
	checks = append(checks,
		struct{ name, src string }{"no shared_read property", `!('shared_read' in ev)`},
		struct{ name, src string }{"shared_read", `shared.shared_read === true && Object.keys(shared).includes('shared_read')`})
	for _, c := range checks {
		v, err := rt.RunString(c.src)
		if err != nil || !v.ToBoolean() {
			t.Errorf("%s: %s -> %v %v", c.name, c.src, v, err)
		}
	}
}
