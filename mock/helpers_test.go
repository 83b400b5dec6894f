package mock

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// fastConfig is DefaultConfig with every latency cut so streams last a few
// hundred milliseconds at most; the stall lasts 300 ms.
func fastConfig() Config {
	c := DefaultConfig()
	scale := func(f float64, ds ...*Dist) {
		for _, d := range ds {
			d.MedianMS, d.P95MS, d.MinMS, d.MaxMS = d.MedianMS*f, d.P95MS*f, d.MinMS*f, d.MaxMS*f
		}
	}
	for _, n := range BucketNames {
		b := c.Buckets.get(n)
		scale(0.05, &b.Routing, &b.Retrieval, &b.OrderLookup, &b.Permission, &b.FirstToken, &b.Tool, &b.Safety)
	}
	scale(0.1, &c.InterToken, &c.Fallback)
	c.SlowFallback = Dist{MedianMS: 1150, P95MS: 1250, MinMS: 1100}
	c.HeartbeatMS = 20
	c.ToolTimeoutMS = 100
	c.StallMS = 300
	return c
}

// start starts a server with cfg on a free loopback port.
func start(t testing.TB, cfg Config) (*Server, string) {
	t.Helper()
	s := New(cfg)
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, url
}

// sseEvent is one event as a test client saw it.
type sseEvent struct {
	comment string // the comment text of a comment line (": ping" → "ping")
	typ     string // the event: field
	data    string
	arrived time.Duration // since the request was sent
}

// isComment reports whether the event is a comment line.
func (e sseEvent) isComment() bool { return e.data == "" && e.typ == "" }

// obj decodes the data as a JSON object (nil if it is not one).
func (e sseEvent) obj() map[string]any {
	var m map[string]any
	if json.Unmarshal([]byte(e.data), &m) != nil {
		return nil
	}
	return m
}

// serverMS returns the event's server_ms, -1 when absent.
func (e sseEvent) serverMS() float64 {
	if v, ok := e.obj()["server_ms"].(float64); ok {
		return v
	}
	return -1
}

// exchange is one request and the stream it got.
type exchange struct {
	status  int
	header  http.Header
	body    []byte // the body of a non-stream answer
	events  []sseEvent
	sent    time.Time     // when the request was sent
	headers time.Duration // when the response headers arrived
	err     error         // the error that ended the stream early
}

// post sends body to url and reads the SSE stream with a minimal line
// reader (comments, event and data fields, blank-line dispatch).
func post(t testing.TB, ctx context.Context, url, body string) *exchange {
	t.Helper()
	return postWatch(t, ctx, url, body, nil)
}

// postWatch is post that also closes first (unless nil) as soon as the
// first event (comment or data) of the stream has been read, or the
// exchange ended without one, so that a test can wait for a stream to be
// under way.
func postWatch(t testing.TB, ctx context.Context, url, body string, first chan<- struct{}) *exchange {
	t.Helper()
	return postHeader(t, ctx, url, body, nil, first)
}

// postHeader is postWatch with extra request headers h.
func postHeader(t testing.TB, ctx context.Context, url, body string, h http.Header, first chan<- struct{}) *exchange {
	t.Helper()
	var once sync.Once
	signal := func() {
		if first != nil {
			once.Do(func() { close(first) })
		}
	}
	defer signal()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	sent := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return &exchange{err: err, sent: sent}
	}
	defer resp.Body.Close()
	x := &exchange{status: resp.StatusCode, header: resp.Header, sent: sent, headers: time.Since(sent)}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		x.body, x.err = io.ReadAll(resp.Body)
		return x
	}
	r := bufio.NewReader(resp.Body)
	var cur sseEvent
	var data []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if !errors.Is(err, io.EOF) || line != "" {
				x.err = err
			}
			return x
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			if len(data) > 0 {
				cur.data = strings.Join(data, "\n")
				cur.arrived = time.Since(sent)
				x.events = append(x.events, cur)
				signal()
			}
			cur, data = sseEvent{}, nil
		case strings.HasPrefix(line, ":"):
			x.events = append(x.events, sseEvent{comment: strings.TrimSpace(line[1:]), arrived: time.Since(sent)})
			signal()
		case strings.HasPrefix(line, "event: "):
			cur.typ = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data = append(data, line[len("data: "):])
		default:
			t.Errorf("unexpected SSE line %q", line)
		}
	}
}

// postT is post with a background context.
func postT(t testing.TB, url, body string) *exchange {
	t.Helper()
	return post(t, context.Background(), url, body)
}

// dataEvents returns the non-comment events.
func (x *exchange) dataEvents() []sseEvent {
	var out []sseEvent
	for _, e := range x.events {
		if !e.isComment() {
			out = append(out, e)
		}
	}
	return out
}

// comments counts the comment lines.
func (x *exchange) comments() int {
	n := 0
	for _, e := range x.events {
		if e.isComment() {
			n++
		}
	}
	return n
}

// path returns the value at a dotted path of a decoded JSON object.
func path(m any, p string) any {
	for _, k := range strings.Split(p, ".") {
		o, ok := m.(map[string]any)
		if !ok {
			return nil
		}
		m = o[k]
	}
	return m
}

// merge deep-merges src into dst.
func merge(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				merge(dm, sm)
				continue
			}
			cp := map[string]any{}
			merge(cp, sm)
			dst[k] = cp
			continue
		}
		dst[k] = v
	}
}

// stripVolatile returns the data with the server_ms, queue_ms and created
// members (which vary from run to run) removed.
func stripVolatile(data string) string {
	var m map[string]any
	if json.Unmarshal([]byte(data), &m) != nil {
		return data
	}
	delete(m, "server_ms")
	delete(m, "queue_ms")
	delete(m, "created")
	if bs, ok := m["business_state"].(map[string]any); ok {
		delete(bs, "queue_ms")
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// mustJSON marshals v.
func mustJSON(v any) string {
	var b bytes.Buffer
	json.NewEncoder(&b).Encode(v)
	return strings.TrimSpace(b.String())
}
