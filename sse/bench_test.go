package sse

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// openAIChunk returns one OpenAI chunk event of exactly size bytes on the
// wire, the content padded to fit.
func openAIChunk(size int) string {
	const head = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"`
	const tail = `"},"finish_reason":null}]}` + "\n\n"
	pad := size - len(head) - len(tail)
	return head + strings.Repeat("w", pad) + tail
}

// openAIStream returns a stream of n chunks of size bytes and a [DONE].
func openAIStream(n, size int) []byte {
	var b bytes.Buffer
	b.WriteString(roleChunk)
	for range n {
		b.WriteString(openAIChunk(size))
	}
	b.WriteString(doneChunk)
	return b.Bytes()
}

// BenchmarkParseClassifyOpenAI measures parsing (go-sse plus the comment
// watcher) and classification of 130-byte OpenAI chunks, with text
// accumulation, the timeline and the default useful predicate: the whole
// per-event path of a stream, without the network. It reports MB/s and
// allocations per event.
func BenchmarkParseClassifyOpenAI(b *testing.B) {
	const events = 1000
	stream := openAIStream(events, 130)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	b.ResetTimer()
	for b.Loop() {
		res := readStream(bytes.NewReader(stream), &Request{Dialect: DialectOpenAI})
		if res.Events != events+2 {
			b.Fatalf("events %d: %s", res.Events, res.Error)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(b.N)/float64(events+2), "allocs/event")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(events+2), "ns/event")
}

// BenchmarkClassifyOpenAI measures classification alone, per chunk.
func BenchmarkClassifyOpenAI(b *testing.B) {
	chunk := openAIChunk(130)
	data := strings.TrimSuffix(strings.TrimPrefix(chunk, "data: "), "\n\n")
	c := NewClassifier(DialectOpenAI)
	var ev Event
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for b.Loop() {
		ev.reset()
		ev.Type, ev.Data = "message", data
		c.Classify(&ev)
	}
	if ev.Kind != Text {
		b.Fatal(ev.Kind)
	}
}

// BenchmarkPredicateDeclarative measures one evaluation of declarative
// predicates against a realistic context, per form.
func BenchmarkPredicateDeclarative(b *testing.B) {
	state := map[string]any{"decision": "refund", "reason": "damaged", "refund": map[string]any{"amount": 42.5}}
	tracker := NewJSONTracker([]string{"decision", "refund.amount"})
	text := `{"decision": "refund", "refund": {"amount": 42.5}, "reason": "` + strings.Repeat("because ", 40) + `"}`
	tracker.Write(text)
	ev := &Event{Kind: Text, Type: "message"}
	ctx := &PredicateContext{State: state, Text: text, Event: ev, JSON: tracker}
	specs := []struct {
		name string
		spec map[string]any
	}{
		{"fields", map[string]any{"fields": []any{"decision", "reason", "refund.amount"}}},
		{"field_equals", map[string]any{"field": "refund.amount", "equals": int64(42)}},
		{"text", map[string]any{"text": `next step|because`}},
		{"jsonFields", map[string]any{"jsonFields": []any{"decision", "refund.amount"}}},
		{"event", map[string]any{"event": "done"}},
		{"any_all", map[string]any{"any": []any{
			map[string]any{"event": "done"},
			map[string]any{"all": []any{map[string]any{"fields": []any{"decision"}}, map[string]any{"jsonFields": []any{"decision"}}}},
		}}},
	}
	for _, s := range specs {
		p, err := ParsePredicate(s.spec)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = p.Eval(ctx)
			}
		})
	}
}

// BenchmarkJSONTracker measures the incremental jsonFields tracker per
// byte of visible text, fed in 8-byte deltas.
func BenchmarkJSONTracker(b *testing.B) {
	text := `{"decision": "refund", "refund": {"amount": 42.5, "items": [1, 2, 3]}, "reason": "` + strings.Repeat("arrived damaged ", 60) + `", "next_step": "click"}`
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		t := NewJSONTracker([]string{"decision", "next_step"})
		for i := 0; i < len(text); i += 8 {
			t.Write(text[i:min(i+8, len(text))])
		}
		if !t.Complete("next_step") {
			b.Fatal("incomplete")
		}
	}
}

// BenchmarkPredicatePerEvent compares, per event of a stream, the cost of a
// declarative useful predicate with a Go function predicate doing the same
// check (the JS layer's function predicates add their runtime's call cost
// on top).
func BenchmarkPredicatePerEvent(b *testing.B) {
	stream := openAIStream(1000, 130)
	decl, _ := ParsePredicate(map[string]any{"text": `never-matches-\d{9}`})
	fn := FuncPredicate(func(c *PredicateContext) (bool, error) { return strings.Contains(c.Text, "never"), nil })
	for _, tc := range []struct {
		name string
		p    Predicate
	}{{"none", firstTextPredicate{}}, {"declarative_text", decl}, {"func", fn}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(stream)))
			for b.Loop() {
				readStream(bytes.NewReader(stream), &Request{Dialect: DialectOpenAI, Useful: tc.p})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1002, "ns/event")
		})
	}
}

// replay is a Transport that answers every request with one recorded SSE
// body.
type replay string

// RoundTrip returns the recorded body as a 200 text/event-stream response.
func (r replay) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"text/event-stream"}},
		Body:    io.NopCloser(strings.NewReader(string(r))),
		Request: req,
	}, nil
}

// ExampleClient_Do shows reading a recorded OpenAI stream, replayed by the
// client's Transport.
func ExampleClient_Do() {
	body := roleChunk + textChunk("Hello") + doneChunk
	c := NewClient(ClientOptions{Transport: replay(body)})
	res := c.Do(context.Background(), &Request{URL: "http://recorded.invalid/v1/chat/completions"})
	fmt.Println(res.Dialect, res.Text, res.EventsByKind.Map()["empty"], res.ErrorCode == "")
	// Output: openai Hello 1 true
}

// BenchmarkClientDo measures one whole request over loopback HTTP/1.1 with
// a kept-alive connection: 20 OpenAI chunks and a heartbeat comment, server
// included (both share the process).
func BenchmarkClientDo(b *testing.B) {
	body := ": ping\n\n" + string(openAIStream(20, 130))
	srv, _ := serve(b, script{steps: now(body)})
	c := NewClient(ClientOptions{})
	req := Request{URL: srv.URL, Dialect: DialectOpenAI}
	b.ReportAllocs()
	for b.Loop() {
		r := req
		if res := c.Do(context.Background(), &r); res.Failed() || res.Events != 23 {
			b.Fatalf("%s %s %d", res.ErrorCode, res.Error, res.Events)
		}
	}
}
