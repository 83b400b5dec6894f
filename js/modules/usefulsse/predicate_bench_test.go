package usefulsse

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/sse"
)

// The cost per event of a JavaScript function predicate versus the
// declarative form of the same check: both are built the way the module
// builds them (predicateSpec, then sse.ParsePredicate) in the runtime of a
// real VU, and called with direct, the invoker of blocking requests.
//
//	go test -run '^$' -bench 'Predicate' -benchmem -cpu 1 ./js/modules/usefulsse/

// benchVU returns a VU of a trivial script, initialised through the js
// package as the runner does.
func benchVU(b *testing.B) *js.VU {
	b.Helper()
	return jstest.NewVU(b, "export default function () {}\n")
}

// predicatePair is one check written both ways.
type predicatePair struct {
	name string
	decl map[string]any // as sobek exports a script's object
	fn   string         // the same check as a JavaScript function
}

// predicatePairs never hold on the benchmark's events, so every event
// evaluates them (a predicate is no longer evaluated once it held).
var predicatePairs = []predicatePair{
	{
		name: "fields",
		decl: map[string]any{"fields": []any{"decision", "reason", "next_step", "escalation"}},
		fn:   `(ctx) => ctx.state.decision != null && ctx.state.reason != null && ctx.state.next_step != null && ctx.state.escalation != null`,
	},
	{
		name: "text",
		decl: map[string]any{"text": `refund(ed)? approved`},
		fn:   `(ctx) => /refund(ed)? approved/.test(ctx.text)`,
	},
}

// jsPredicateOf evaluates src in the VU's runtime and converts the
// function as the module does.
func jsPredicateOf(b *testing.B, vu *js.VU, src string) sse.Predicate {
	b.Helper()
	rt := vu.Runtime()
	v, err := rt.RunString(src)
	if err != nil {
		b.Fatal(err)
	}
	p, err := sse.ParsePredicate(predicateSpec(rt, v, "useful", direct))
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPredicateEval measures one evaluation after an event, on a
// realistic context: three state fields, 200 characters of text, a text
// event. ns/op is ns per event.
func BenchmarkPredicateEval(b *testing.B) {
	vu := benchVU(b)
	ev := &sse.Event{Kind: sse.Text, Type: "message", Data: `{"delta": "days "}`, Text: "days "}
	ctx := &sse.PredicateContext{
		State:     map[string]any{"status": "thinking", "decision": "refund", "reason": "damaged on arrival"},
		Text:      strings.Repeat("your order can be returned within thirty days of delivery; ", 4)[:200],
		Event:     ev,
		ElapsedMS: 412.5,
	}
	for _, pp := range predicatePairs {
		decl, err := sse.ParsePredicate(pp.decl)
		if err != nil {
			b.Fatal(err)
		}
		fn := jsPredicateOf(b, vu, pp.fn)
		for _, c := range []struct {
			kind string
			p    sse.Predicate
		}{{"declarative", decl}, {"js", fn}} {
			b.Run(pp.name+"/"+c.kind, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if ok, err := c.p.Eval(ctx); ok || err != nil {
						b.Fatal(ok, err)
					}
				}
			})
		}
	}
}

// businessStream is a recorded stream of bench/sseserver: a heartbeat, 20
// business events (the last one done).
func businessStream() ([]byte, int) {
	var buf bytes.Buffer
	buf.WriteString(": ping\n\n")
	words := []string{"your ", "order ", "can ", "be ", "returned ", "within ", "thirty ", "days ", "of ", "delivery; "}
	const events = 20
	for i := 1; i <= events; i++ {
		delta, state := "", ""
		switch {
		case i == 1:
			delta, state = " ", `, "business_state": {"status": "thinking"}`
		case i == 2:
			delta = "Sure, "
		case i < events:
			delta = words[(i-3)%len(words)]
		default:
			state = `, "business_state": {"status": "done", "first_text_ms": 100.125}, "done": true`
		}
		switch i {
		case 8:
			state = `, "business_state": {"decision": "refund"}`
		case 12:
			state = `, "business_state": {"reason": "damaged on arrival"}`
		case 16:
			state = `, "business_state": {"next_step": "print the return label"}`
		}
		fmt.Fprintf(&buf, "data: {\"delta\": %q, \"server_ms\": %d.125%s}\n\n", delta, i*50, state)
	}
	return buf.Bytes(), events + 1
}

// BenchmarkPredicateStream measures the whole per-event path of a business
// stream (parse, classify, state merge, timeline, predicate) with the
// useful predicate declarative or a JavaScript function, the request built
// by buildRequest from JavaScript params as usefulsse.post builds it, the
// stream replayed by the client's Transport (no network).
// "default" is the business default useful predicate (it holds at the 16th
// event, so it is not evaluated after). Reports ns/event and allocs/event.
func BenchmarkPredicateStream(b *testing.B) {
	vu := benchVU(b)
	rt := vu.Runtime()
	stream, events := businessStream()
	cases := []struct{ name, params string }{{"default", `({dialect: 'business'})`}}
	for _, pp := range predicatePairs {
		spec := map[string]string{"fields": `{fields: ['decision', 'reason', 'next_step', 'escalation']}`, "text": `{text: 'refund(ed)? approved'}`}[pp.name]
		cases = append(cases,
			struct{ name, params string }{pp.name + "/declarative", `({dialect: 'business', useful: ` + spec + `})`},
			struct{ name, params string }{pp.name + "/js", `({dialect: 'business', useful: ` + pp.fn + `})`})
	}
	client := sse.NewClient(sse.ClientOptions{Transport: replay(stream)})
	for _, c := range cases {
		params, err := rt.RunString(c.params)
		if err != nil {
			b.Fatal(err)
		}
		built, err := buildRequest(rt, "POST", "http://127.0.0.1/chat", sobek.Undefined(), params, direct)
		if err != nil {
			b.Fatal(err)
		}
		req := built.req
		b.Run(c.name, func(b *testing.B) {
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			for b.Loop() {
				r := *req
				res := client.Do(context.Background(), &r)
				if res.Events != events || res.Failed() {
					b.Fatalf("events %d, %s %s", res.Events, res.ErrorCode, res.Error)
				}
			}
			runtime.ReadMemStats(&ms1)
			n := float64(b.N) * float64(events)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/event")
			b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/n, "allocs/event")
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/n, "B/event")
		})
	}
}

// replay is a Transport that answers every request with one recorded SSE
// body.
type replay []byte

// RoundTrip returns the recorded body as a 200 text/event-stream response.
func (r replay) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"text/event-stream"}},
		Body:    io.NopCloser(bytes.NewReader(r)),
		Request: req,
	}, nil
}
