package sse

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// do sends req to url with a fresh client.
func do(t testing.TB, url string, req Request) *Result {
	t.Helper()
	req.URL = url
	return NewClient(ClientOptions{}).Do(context.Background(), &req)
}

const (
	roleChunk = `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}` + "\n\n"
	doneChunk = "data: [DONE]\n\n"
)

// textChunk returns an OpenAI chunk adding s.
func textChunk(s string) string {
	return `data: {"choices":[{"index":0,"delta":{"content":"` + s + `"}}]}` + "\n\n"
}

// TestTimelineOpenAI checks first_event at the role chunk, first_text at the
// first visible text, useful, complete and max_gap against the server's
// schedule.
func TestTimelineOpenAI(t *testing.T) {
	srv, rec := serve(t, script{steps: []step{
		{0, roleChunk},
		{100 * time.Millisecond, textChunk("  ")},
		{100 * time.Millisecond, textChunk("Hello")},
		{50 * time.Millisecond, textChunk(" world")},
		{50 * time.Millisecond, doneChunk},
	}})
	var at []time.Duration
	res := do(t, srv.URL, Request{Dialect: DialectOpenAI, OnEvent: func(ev *Event) error {
		at = append(at, ev.At)
		return nil
	}})
	if res.Failed() {
		t.Fatalf("failed: %s %s", res.ErrorCode, res.Error)
	}
	if res.Text != "  Hello world" || res.EmptyEvents != 2 || res.Events != 5 || len(at) != 5 {
		t.Fatalf("text %q empty %d events %d, %d stamps", res.Text, res.EmptyEvents, res.Events, len(at))
	}
	// Each timing is the stamp of its event, on time by the schedule.
	late(t, "first_event", res.Timings.FirstEvent, 0)
	late(t, "first_text", res.Timings.FirstText, 200)
	late(t, "useful", res.Timings.Useful, 200)
	late(t, "complete", res.Timings.Complete, 300)
	same(t, "first_event", res.Timings.FirstEvent, at[0])
	same(t, "first_text", res.Timings.FirstText, at[2])
	same(t, "useful", res.Timings.Useful, at[2])
	same(t, "complete", res.Timings.Complete, at[4])
	same(t, "max_gap", res.Timings.MaxGap, maxGap(at))
	// Each event is stamped when it arrived: not before the server wrote it.
	server := rec.times()
	for i := range min(len(at), len(server)) {
		if d := ms(at[i] - server[i]); d < 0 || d > loadSlack {
			t.Errorf("event %d at %v, server sent at %v", i, at[i], server[i])
		}
	}
}

// maxGap returns the longest time between consecutive stamps.
func maxGap(at []time.Duration) time.Duration {
	var g time.Duration
	for i := 1; i < len(at); i++ {
		g = max(g, at[i]-at[i-1])
	}
	return g
}

// TestWireFormats reads the same stream over every line ending, with a BOM,
// and in one-byte chunks.
func TestWireFormats(t *testing.T) {
	body := ": hi\n\n" + roleChunk + ": ping\n" + textChunk("Hi") + "event: ping\ndata: x\n\n" + textChunk(" there") + doneChunk
	cases := []struct {
		name  string
		steps []step
	}{
		{"LF", now(body)},
		{"CRLF", now(lines(body, "\r\n"))},
		{"CR", now(lines(body, "\r"))},
		{"BOM", now("\xEF\xBB\xBF" + body)},
		{"LF bytewise", bytewise(body)},
		{"CRLF bytewise", bytewise(lines(body, "\r\n"))},
		{"CR bytewise", bytewise(lines(body, "\r"))},
		{"BOM bytewise", bytewise("\xEF\xBB\xBF" + lines(body, "\r\n"))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := serve(t, script{steps: tc.steps})
			var comments []string
			res := do(t, srv.URL, Request{OnEvent: func(ev *Event) error {
				if ev.Kind == Heartbeat && ev.Type == "" {
					comments = append(comments, ev.Comment)
				}
				return nil
			}})
			if res.Failed() || res.Text != "Hi there" || res.Heartbeats != 3 || res.Events != 7 {
				t.Errorf("%s %q text %q heartbeats %d events %d", res.ErrorCode, res.Error, res.Text, res.Heartbeats, res.Events)
			}
			if strings.Join(comments, ",") != "hi,ping" {
				t.Errorf("comments %q", comments)
			}
			if res.Dialect != DialectOpenAI {
				t.Errorf("dialect %q", res.Dialect)
			}
		})
	}
}

// TestHeartbeatTiming checks that a comment heartbeat is stamped when it
// arrives and does not count as the first event.
func TestHeartbeatTiming(t *testing.T) {
	srv, _ := serve(t, script{steps: []step{
		{100 * time.Millisecond, ": keepalive\n\n"},
		{100 * time.Millisecond, ": keepalive\n\n"},
		{100 * time.Millisecond, textChunk("ok")},
		{0, doneChunk},
	}})
	var hb []time.Duration
	res := do(t, srv.URL, Request{OnEvent: func(ev *Event) error {
		if ev.Kind == Heartbeat {
			hb = append(hb, ev.At)
		}
		return nil
	}})
	if len(hb) != 2 {
		t.Fatalf("heartbeats %v", hb)
	}
	late(t, "heartbeat 1", new(ms(hb[0])), 100)
	late(t, "heartbeat 2", new(ms(hb[1])), 200)
	late(t, "first_event", res.Timings.FirstEvent, 300)
	late(t, "first_text", res.Timings.FirstText, 300)
}

// TestCommentOrder checks that comments and events reach OnEvent in stream
// order even when they arrive in one read.
func TestCommentOrder(t *testing.T) {
	body := "data: a\n\n: one\n\ndata: b\n: two\n\n: three\ndata: c\n\n"
	for _, steps := range [][]step{now(body), bytewise(body)} {
		srv, _ := serve(t, script{steps: steps})
		var seen []string
		do(t, srv.URL, Request{Dialect: DialectRaw, OnEvent: func(ev *Event) error {
			seen = append(seen, ev.Comment+ev.Data)
			return nil
		}})
		if got := strings.Join(seen, ","); got != "a,one,two,b,three,c" {
			t.Errorf("order %q", got)
		}
	}
}

// TestReasoningBeforeText checks that reasoning is not visible text.
func TestReasoningBeforeText(t *testing.T) {
	think := `data: {"choices":[{"index":0,"delta":{"reasoning_content":"hmm"}}]}` + "\n\n"
	srv, _ := serve(t, script{steps: []step{
		{0, roleChunk}, {50 * time.Millisecond, think}, {150 * time.Millisecond, textChunk("Yes")}, {0, doneChunk},
	}})
	res := do(t, srv.URL, Request{})
	late(t, "first_event", res.Timings.FirstEvent, 0)
	late(t, "first_text", res.Timings.FirstText, 200)
	if res.Reasoning != "hmm" || res.Text != "Yes" || res.EventsByKind[Reasoning] != 1 {
		t.Errorf("reasoning %q text %q kinds %v", res.Reasoning, res.Text, res.EventsByKind.Map())
	}
}

// TestBusinessUseful checks the business default useful predicate, marks,
// the queue field and deep-merged state against the fixture's schedule.
func TestBusinessUseful(t *testing.T) {
	events := strings.SplitAfter(readFixture(t, "business.sse"), "\n\n")
	steps := make([]step, 0, len(events))
	for _, e := range events {
		steps = append(steps, step{30 * time.Millisecond, e})
	}
	srv, rec := serve(t, script{steps: steps})
	decision, _ := ParsePredicate(map[string]any{"fields": []any{"decision"}})
	never, _ := ParsePredicate(map[string]any{"field": "decision", "equals": "deny"})
	var at []time.Duration
	res := do(t, srv.URL, Request{Marks: map[string]Predicate{"decision": decision, "never": never}, OnEvent: func(ev *Event) error {
		at = append(at, ev.At)
		return nil
	}})
	sentAt := rec.times()
	if res.Failed() || res.Dialect != DialectBusiness {
		t.Fatalf("%s %s dialect %s", res.ErrorCode, res.Error, res.Dialect)
	}
	if len(at) < 8 || len(sentAt) < 8 {
		t.Fatalf("%d events, %d writes", len(at), len(sentAt))
	}
	near(t, "queue", res.Timings.Queue, 85.5, 0.001)
	// One event per write: each timing is its event's stamp, on time.
	for i, w := range []struct {
		name string
		got  *float64
	}{3: {"first_text", res.Timings.FirstText}, 4: {"marks.decision", res.Marks["decision"]}, 7: {"useful", res.Timings.Useful}} {
		if w.name != "" {
			same(t, w.name, w.got, at[i])
			late(t, w.name, w.got, ms(sentAt[i]))
		}
	}
	null(t, "marks.never", res.Marks["never"])
	if !res.UsefulReached {
		t.Error("useful not reached")
	}
}

// TestToolCallsOverHTTP checks tool calls assembled across one-byte chunks.
func TestToolCallsOverHTTP(t *testing.T) {
	srv, _ := serve(t, script{steps: bytewise(readFixture(t, "openai_tools.sse"))})
	res := do(t, srv.URL, Request{})
	if len(res.ToolCalls) != 2 || res.ToolCalls[0].Arguments != `{"order_id": "A1"}` || res.EventsByKind[Tool] != 5 {
		t.Errorf("tools %+v kinds %v", res.ToolCalls, res.EventsByKind.Map())
	}
}

// TestUsageAndCost checks usage from the usage chunk and the cost formula.
func TestUsageAndCost(t *testing.T) {
	srv, _ := serve(t, script{steps: now(readFixture(t, "openai_chat.sse"))})
	res := do(t, srv.URL, Request{Pricing: &Pricing{InputPer1M: 2.5, OutputPer1M: 10, PerRequest: 0.001}})
	want := 19*2.5/1e6 + 10*10/1e6 + 0.001
	if res.Usage != (Usage{InputTokens: 19, OutputTokens: 10}) || abs(res.Cost-want) > 1e-12 {
		t.Errorf("usage %+v cost %v want %v", res.Usage, res.Cost, want)
	}
}

// abs returns |f|.
func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// TestHugeEvents checks events above go-sse's 64 KiB default up to
// MaxEventSize, and the failure beyond it with partial timings kept.
func TestHugeEvents(t *testing.T) {
	big := strings.Repeat("x", 200<<10)
	cases := []struct {
		name  string
		max   int
		code  string
		text  string
		steps []step
	}{
		{"200KiB under default", 0, "", big, now("data: "+big+"\n\n", doneChunk)},
		{"200KiB split", 0, "", big, now("data: "+big[:70000], big[70000:]+"\n\n", doneChunk)},
		{"2MiB over default", 0, CodeEventTooLarge, "a", now("data: a\n\n", "data: "+strings.Repeat("y", 2<<20)+"\n\n")},
		{"over custom", 1024, CodeEventTooLarge, "a", now("data: a\n\n", "data: "+strings.Repeat("y", 2048)+"\n\n")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := serve(t, script{steps: tc.steps})
			res := do(t, srv.URL, Request{Dialect: DialectRaw, MaxEventSize: tc.max})
			if res.ErrorCode != tc.code || res.Text != tc.text {
				t.Errorf("code %q (%s) text %d bytes", res.ErrorCode, res.Error, len(res.Text))
			}
			if res.Timings.FirstText == nil {
				t.Error("first_text lost")
			}
			if tc.code != "" {
				null(t, "complete", res.Timings.Complete)
			}
		})
	}
}

// TestFailures checks each failure outcome and its partial timings.
func TestFailures(t *testing.T) {
	cases := []struct {
		name    string
		sc      script
		req     Request
		code    string
		errHas  string
		status  int
		hasText bool
	}{
		{"404", script{status: 404, header: map[string]string{"Content-Type": "application/json"}, steps: now(`{"error":"no such model"}`)},
			Request{}, CodeHTTPStatus, "no such model", 404, false},
		{"503", script{status: 503, steps: now("overloaded")}, Request{}, CodeHTTPStatus, "503 Service Unavailable: overloaded", 503, false},
		{"json content type", script{header: map[string]string{"Content-Type": "application/json"}, steps: now(`{}`)},
			Request{}, CodeContentType, `"application/json"`, 200, false},
		{"no content type", script{header: map[string]string{"Content-Type": ""}, steps: now(``)},
			Request{}, CodeContentType, "no Content-Type", 200, false},
		{"reset mid-stream", script{reset: true, steps: now(roleChunk, textChunk("Hel"))},
			Request{}, CodeReset, "", 200, true},
		{"idle timeout", script{steps: []step{{0, textChunk("a")}, {2 * time.Second, textChunk("b")}}},
			Request{IdleTimeout: 150 * time.Millisecond}, CodeIdleTimeout, "", 200, true},
		{"timeout", script{steps: []step{{0, textChunk("a")}, {100 * time.Millisecond, ": ping\n\n"}, {100 * time.Millisecond, ": ping\n\n"}, {100 * time.Millisecond, ": ping\n\n"}, {2 * time.Second, ""}}},
			Request{Timeout: 250 * time.Millisecond, IdleTimeout: 200 * time.Millisecond}, CodeTimeout, "", 200, true},
		{"timeout before headers", script{delay: 2 * time.Second}, Request{Timeout: 150 * time.Millisecond}, CodeTimeout, "", 0, false},
		{"stream error", script{steps: now(readFixture(t, "openai_error.sse"))},
			Request{}, CodeStreamError, "server_error: The server had an error", 200, true},
		{"anthropic error", script{steps: now(readFixture(t, "anthropic_error.sse"))},
			Request{}, CodeStreamError, "overloaded_error: Overloaded", 200, false},
		{"onEvent error", script{steps: now(textChunk("a"), doneChunk)},
			Request{OnEvent: func(*Event) error { return errors.New("boom") }}, CodeCallback, "onEvent callback failed: boom", 200, true},
		{"onEvent panic", script{steps: now(textChunk("a"), doneChunk)},
			Request{OnEvent: func(*Event) error { panic("kaboom") }}, CodeCallback, "panic: kaboom", 200, true},
		{"predicate error", script{steps: now(textChunk("a"), doneChunk)},
			Request{Useful: FuncPredicate(func(*PredicateContext) (bool, error) { return false, errors.New("bad ctx") })},
			CodeCallback, "useful callback failed: bad ctx", 200, true},
		{"invalid dialect", script{}, Request{Dialect: "xml"}, CodeInvalidRequest, "unknown dialect", 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := serve(t, tc.sc)
			res := do(t, srv.URL, tc.req)
			if res.ErrorCode != tc.code || !strings.Contains(res.Error, tc.errHas) || res.Status != tc.status {
				t.Errorf("got %q %q status %d; want %q containing %q status %d", res.ErrorCode, res.Error, res.Status, tc.code, tc.errHas, tc.status)
			}
			if (res.Timings.FirstText != nil) != tc.hasText {
				t.Errorf("first_text %v, want reached=%v", res.Timings.FirstText, tc.hasText)
			}
			if (tc.status != 0) != (res.Timings.Headers != nil) {
				t.Errorf("headers timing %v with status %d", res.Timings.Headers, tc.status)
			}
			null(t, "complete", res.Timings.Complete)
		})
	}
}

// TestTimeoutTimings checks the deadlines fire when they should.
func TestTimeoutTimings(t *testing.T) {
	srv, _ := serve(t, script{steps: []step{{0, textChunk("a")}, {3 * time.Second, textChunk("b")}}})
	start := time.Now()
	res := do(t, srv.URL, Request{IdleTimeout: 200 * time.Millisecond})
	if res.ErrorCode != CodeIdleTimeout {
		t.Fatalf("code %q", res.ErrorCode)
	}
	late(t, "idle", new(ms(time.Since(start))), 200) // far below the next event's 3 s
}

// TestErrorBodyLimit checks that only the first 4 KiB of an error body is kept.
func TestErrorBodyLimit(t *testing.T) {
	srv, _ := serve(t, script{status: 500, steps: now(strings.Repeat("e", 10000))})
	res := do(t, srv.URL, Request{})
	if n := strings.Count(res.Error, "e"); n < 4096 || n > 4096+10 {
		t.Errorf("error holds %d e's", n)
	}
}

// TestAcceptContentTypes checks extra accepted types.
func TestAcceptContentTypes(t *testing.T) {
	srv, _ := serve(t, script{header: map[string]string{"Content-Type": "application/x-ndjson; charset=utf-8"}, steps: now("data: hi\n\n")})
	for _, accept := range []string{"application/x-ndjson", "application/*", "*/*"} {
		res := do(t, srv.URL, Request{AcceptContentTypes: []string{accept}, Dialect: DialectRaw})
		if res.Failed() || res.Text != "hi" {
			t.Errorf("%s: %s %s", accept, res.ErrorCode, res.Error)
		}
	}
}

// TestInvalidEventsContinue checks that unparseable JSON is an invalid
// event and the stream goes on.
func TestInvalidEventsContinue(t *testing.T) {
	srv, _ := serve(t, script{steps: now(roleChunk, "data: {\"choices\": [\n\n", textChunk("ok"), doneChunk)})
	res := do(t, srv.URL, Request{Dialect: DialectOpenAI})
	if res.Failed() || res.EventsByKind[Invalid] != 1 || res.Text != "ok" || res.Timings.Complete == nil {
		t.Errorf("%s kinds %v text %q", res.ErrorCode, res.EventsByKind.Map(), res.Text)
	}
}

// TestCleanEndWithoutDone checks that the end of the body completes a
// stream without a terminal event.
func TestCleanEndWithoutDone(t *testing.T) {
	srv, _ := serve(t, script{steps: []step{{0, textChunk("a")}, {100 * time.Millisecond, textChunk("b")}, {100 * time.Millisecond, ": bye\n\n"}}})
	var at []time.Duration
	res := do(t, srv.URL, Request{OnEvent: func(ev *Event) error {
		if ev.Kind != Heartbeat {
			at = append(at, ev.At)
		}
		return nil
	}})
	if res.Failed() || len(at) != 2 {
		t.Fatalf("%s, %d events", res.Error, len(at))
	}
	late(t, "complete", res.Timings.Complete, 200)
	// The gaps are a → b and b → the clean end.
	end := time.Duration(*res.Timings.Complete * float64(time.Millisecond))
	same(t, "max_gap", res.Timings.MaxGap, max(at[1]-at[0], end-at[1]))
}

// TestCompression checks gzip and deflate bodies, streamed with flushes,
// and that BytesReceived counts the compressed bytes.
func TestCompression(t *testing.T) {
	srv, _ := serve(t, script{gzip: true, steps: []step{{0, roleChunk}, {150 * time.Millisecond, textChunk(strings.Repeat("z", 5000))}, {0, doneChunk}}})
	res := do(t, srv.URL, Request{})
	if res.Failed() || len(res.Text) != 5000 {
		t.Fatalf("%s %s text %d", res.ErrorCode, res.Error, len(res.Text))
	}
	late(t, "first_text", res.Timings.FirstText, 150)
	if res.BytesReceived <= 0 || res.BytesReceived > 2000 {
		t.Errorf("bytes received %d, want the compressed size", res.BytesReceived)
	}

	deflate := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "deflate")
		zw := zlib.NewWriter(w)
		fmt.Fprint(zw, textChunk("deflated")+doneChunk)
		zw.Close()
	}))
	defer deflate.Close()
	if res := do(t, deflate.URL, Request{}); res.Text != "deflated" {
		t.Errorf("deflate: %s %s %q", res.ErrorCode, res.Error, res.Text)
	}
}

// TestCorruptGzip checks that undecodable bodies fail as protocol errors.
func TestCorruptGzip(t *testing.T) {
	srv, _ := serve(t, script{header: map[string]string{"Content-Encoding": "gzip"}, steps: now("not gzip at all")})
	if res := do(t, srv.URL, Request{}); res.ErrorCode != CodeProtocol {
		t.Errorf("code %q %s", res.ErrorCode, res.Error)
	}
}

// TestConnectErrors checks refused connections and unknown hosts.
func TestConnectErrors(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	for _, url := range []string{"http://" + addr + "/", "http://does-not-exist.invalid/"} {
		res := do(t, url, Request{Timeout: 5 * time.Second})
		if res.ErrorCode != CodeConnect || res.Status != 0 || res.Timings.Headers != nil {
			t.Errorf("%s: %q %s", url, res.ErrorCode, res.Error)
		}
	}
}

// TestMalformedResponse checks a server that answers garbage.
func TestMalformedResponse(t *testing.T) {
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		_, _ = r.ReadString('\n')
		fmt.Fprint(c, "SPDY/9 what\r\n\r\n")
	})
	if res := do(t, url, Request{}); res.ErrorCode != CodeProtocol {
		t.Errorf("code %q %s", res.ErrorCode, res.Error)
	}
	url = rawServer(t, func(c net.Conn, r *bufio.Reader) { _, _ = r.ReadString('\n') })
	if res := do(t, url, Request{}); res.ErrorCode != CodeReset {
		t.Errorf("closed before headers: code %q %s", res.ErrorCode, res.Error)
	}
}

// TestCanceled checks that the caller's context ends a request as canceled.
func TestCanceled(t *testing.T) {
	srv, _ := serve(t, script{steps: []step{{0, textChunk("a")}, {5 * time.Second, textChunk("b")}}})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res := NewClient(ClientOptions{}).Do(ctx, &Request{URL: srv.URL})
	if res.ErrorCode != CodeCanceled || res.Timings.FirstText == nil {
		t.Errorf("code %q %s", res.ErrorCode, res.Error)
	}
}

// TestHTTP2AndTLS checks HTTP/2 over TLS through ALPN and TLS failures.
func TestHTTP2AndTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, textChunk("h2")+doneChunk)
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	c := NewClient(ClientOptions{InsecureSkipTLSVerify: true})
	for range 2 {
		res := c.Do(context.Background(), &Request{URL: srv.URL})
		if res.Proto != "HTTP/2.0" || res.Text != "h2" {
			t.Errorf("proto %q text %q %s", res.Proto, res.Text, res.Error)
		}
	}
	res := NewClient(ClientOptions{InsecureSkipTLSVerify: true, DisableHTTP2: true}).Do(context.Background(), &Request{URL: srv.URL})
	if res.Proto != "HTTP/1.1" {
		t.Errorf("DisableHTTP2: proto %q", res.Proto)
	}
	res = NewClient(ClientOptions{}).Do(context.Background(), &Request{URL: srv.URL})
	if res.ErrorCode != CodeTLS {
		t.Errorf("unverified certificate: %q %s", res.ErrorCode, res.Error)
	}
}

// TestConnectionReuse checks that one client keeps its connection alive
// across requests, also after a terminal event.
func TestConnectionReuse(t *testing.T) {
	var conns atomic.Int32
	srv, _ := serve(t, script{steps: now(textChunk("a"), doneChunk), onConn: func(s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}})
	c := NewClient(ClientOptions{})
	for range 5 {
		if res := c.Do(context.Background(), &Request{URL: srv.URL}); res.Failed() {
			t.Fatal(res.Error)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections for 5 requests", n)
	}
}

// TestRequestHeadersAndBody checks defaults, the body, and the byte counts.
func TestRequestHeadersAndBody(t *testing.T) {
	// The handler hands what it saw over a channel: bytes on a socket
	// order nothing for the race detector.
	type seen struct {
		r    *http.Request
		body []byte
	}
	saw := make(chan seen, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := readAll(r)
		saw <- seen{r, b}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Server-Timing", `db;dur=3, queue;dur=12.5;desc="tenant"`)
		fmt.Fprint(w, "data: x\n\n")
	}))
	defer srv.Close()
	res := do(t, srv.URL, Request{Body: []byte(`{"q":1}`), Header: http.Header{"X-Tenant": {"t1"}, "Host": {"assistant.test"}}})
	s := <-saw
	got, body := s.r, s.body
	if got.Method != "POST" || got.Host != "assistant.test" || got.Header.Get("Accept") != "text/event-stream" || got.Header.Get("X-Tenant") != "t1" || string(body) != `{"q":1}` {
		t.Errorf("method %s headers %v body %q", got.Method, got.Header, body)
	}
	near(t, "queue", res.Timings.Queue, 12.5, 0.001)
	if res.BytesSent < int64(len(`{"q":1}`))+50 || res.BytesReceived < 60 {
		t.Errorf("bytes sent %d received %d", res.BytesSent, res.BytesReceived)
	}
}

// readAll reads a request body.
func readAll(r *http.Request) ([]byte, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(r.Body)
	return b.Bytes(), err
}

// TestScheduleLag checks the lag from ScheduledAt to the send.
func TestScheduleLag(t *testing.T) {
	srv, _ := serve(t, script{steps: now("data: x\n\n")})
	res := do(t, srv.URL, Request{ScheduledAt: time.Now().Add(-120 * time.Millisecond)})
	late(t, "schedule_lag", res.Timings.ScheduleLag, 120)
	res = do(t, srv.URL, Request{})
	null(t, "schedule_lag", res.Timings.ScheduleLag)
}

// TestSlowCallbackKeepsStamps checks that a slow OnEvent callback does not
// delay the stamps of events that arrive while it runs.
func TestSlowCallbackKeepsStamps(t *testing.T) {
	const slow = 400 * time.Millisecond
	srv, _ := serve(t, script{steps: []step{
		{0, textChunk("a")}, {50 * time.Millisecond, textChunk("b")}, {50 * time.Millisecond, ": ping\n\n"}, {0, doneChunk},
	}})
	var at []time.Duration
	res := do(t, srv.URL, Request{OnEvent: func(ev *Event) error {
		if ev.Seq == 1 {
			time.Sleep(slow) // the slow callback under test
		}
		at = append(at, ev.At)
		return nil
	}})
	if res.Failed() || len(at) != 4 {
		t.Fatalf("%s %s, %d events", res.ErrorCode, res.Error, len(at))
	}
	late(t, "event 2", new(ms(at[1])), 50)
	late(t, "heartbeat", new(ms(at[2])), 100)
	late(t, "complete", res.Timings.Complete, 100)
	same(t, "complete", res.Timings.Complete, at[3])
	same(t, "max_gap", res.Timings.MaxGap, max(at[1]-at[0], at[3]-at[1]))
	// Stamps taken after the callback would be at least slow after the first.
	for i, a := range at[1:] {
		if a-at[0] >= slow {
			t.Errorf("event %d stamped %v after the first: stamps wait for the callback", i+2, a-at[0])
		}
	}
}

// TestStopAndOpen checks OnOpen and ending a stream cleanly with ErrStop,
// from an event, from a comment, and from OnOpen.
func TestStopAndOpen(t *testing.T) {
	cases := []struct {
		name     string
		open     func(int, http.Header) error
		stopAt   func(*Event) bool
		events   int
		text     string
		code     string
		complete bool
	}{
		{"no stop", nil, func(*Event) bool { return false }, 5, "ab", "", true},
		{"stop at text", nil, func(ev *Event) bool { return ev.Kind == Text }, 3, "a", "", false},
		{"stop at comment", nil, func(ev *Event) bool { return ev.Comment == "c" }, 2, "", "", false},
		{"stop at done", nil, func(ev *Event) bool { return ev.Kind == Done }, 5, "ab", "", true},
		{"stop at open", func(int, http.Header) error { return ErrStop }, nil, 0, "", "", false},
		{"open error", func(int, http.Header) error { return errors.New("nope") }, nil, 0, "", CodeCallback, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A stream stopped early must not wait for its rest: the server
			// holds "b" back until Do has returned (or for 10 s).
			held := make(chan struct{})
			var release sync.Once
			letGo := func() { release.Do(func() { close(held) }) }
			defer letGo()
			sc := script{steps: []step{{0, roleChunk + ": c\n\n" + textChunk("a")}, {0, textChunk("b")}, {0, doneChunk}}}
			if !tc.complete {
				sc.gates = map[int]<-chan struct{}{1: held}
				time.AfterFunc(10*time.Second, letGo)
			}
			srv, rec := serve(t, sc)
			opened := 0
			open := tc.open
			if open == nil {
				open = func(status int, h http.Header) error {
					if status == 200 && h.Get("Content-Type") == "text/event-stream" {
						opened++
					}
					return nil
				}
			}
			req := Request{OnOpen: open}
			if tc.stopAt != nil {
				req.OnEvent = func(ev *Event) error {
					if tc.stopAt(ev) {
						return ErrStop
					}
					return nil
				}
			}
			res := do(t, srv.URL, req)
			written := len(rec.times())
			letGo()
			if res.ErrorCode != tc.code || res.Events != tc.events || res.Text != tc.text || (res.Timings.Complete != nil) != tc.complete {
				t.Errorf("code %q (%s) events %d text %q complete %v", res.ErrorCode, res.Error, res.Events, res.Text, res.Timings.Complete)
			}
			if tc.open == nil && opened != 1 {
				t.Errorf("OnOpen called %d times", opened)
			}
			if !tc.complete && written > 1 {
				t.Errorf("stopping waited for the rest of the stream: %d writes", written)
			}
			if strings.Contains(tc.name, "error") && !strings.Contains(res.Error, "onOpen callback failed: nope") {
				t.Errorf("error %q", res.Error)
			}
		})
	}
}
