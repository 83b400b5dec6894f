package mock

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// TestSeedReproducesStream sends the same body with the same seed twice, in
// every dialect: the event data are identical but for server_ms and
// queue_ms, and match the Plan.
func TestSeedReproducesStream(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	_, url := start(t, cfg)
	for _, c := range []struct {
		d    Dialect
		path string
		body string
	}{
		{Business, "/chat", `{"bucket":"multi_tool","tenant":"t","seed":123}`},
		{OpenAI, "/v1/chat/completions", `{"bucket":"single_tool","mock_seed":123,"reasoning_effort":"high","stream":true,"stream_options":{"include_usage":true}}`},
		{Completions, "/v1/completions", `{"bucket":"multi_tool","mock_seed":123,"prompt":"refund?","stream":true,"stream_options":{"include_usage":true}}`},
		{Anthropic, "/v1/messages", `{"metadata":{"bucket":"timeout_recovery","mock_seed":123},"thinking":{"type":"enabled"}}`},
	} {
		a, b := postT(t, url+c.path, c.body), postT(t, url+c.path, c.body)
		p, err := Plan(c.d, []byte(c.body), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.events) != len(b.events) || len(a.events) != len(p.Events) {
			t.Fatalf("%s: %d and %d events, plan %d", c.d, len(a.events), len(b.events), len(p.Events))
		}
		for i := range a.events {
			ea, eb := a.events[i], b.events[i]
			if stripVolatile(ea.data) != stripVolatile(eb.data) || ea.typ != eb.typ || ea.comment != eb.comment {
				t.Errorf("%s event %d differs:\n%s\n%s", c.d, i, ea.data, eb.data)
			}
			if want := p.Events[i].Kind == KindHeartbeat && p.Events[i].Type == "comment"; ea.isComment() != want {
				t.Errorf("%s event %d: comment %v, plan %+v", c.d, i, ea.isComment(), p.Events[i])
			}
		}
		if a.header.Get(SeedHeader) != "123" {
			t.Errorf("seed header %q", a.header.Get(SeedHeader))
		}
	}
}

// TestSeedHeaderReplays checks that a request without a seed can be
// replayed with the seed the server reports.
func TestSeedHeaderReplays(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	a := postT(t, url+"/chat", `{"bucket":"single_tool"}`)
	seed := a.header.Get(SeedHeader)
	if _, err := strconv.ParseInt(seed, 10, 64); err != nil {
		t.Fatalf("seed header %q", seed)
	}
	b := postT(t, url+"/chat", `{"bucket":"single_tool","seed":`+seed+`}`)
	c := postT(t, url+"/chat", `{"bucket":"single_tool"}`)
	da, db, dc := a.dataEvents(), b.dataEvents(), c.dataEvents()
	if len(da) != len(db) {
		t.Fatalf("replay: %d vs %d events", len(da), len(db))
	}
	for i := range da {
		if stripVolatile(da[i].data) != stripVolatile(db[i].data) {
			t.Fatalf("replay differs at %d: %s / %s", i, da[i].data, db[i].data)
		}
	}
	if c.header.Get(SeedHeader) == seed {
		t.Errorf("two requests without seed got the same seed %s", seed)
	}
	_ = dc
}

// TestServerMSMatchesArrivalAndPlan checks that server_ms grows
// monotonically, that the client receives each event shortly after its
// server_ms, and that server_ms is the planned offset plus the queue time.
func TestServerMSMatchesArrivalAndPlan(t *testing.T) {
	cfg := fastConfig()
	_, url := start(t, cfg)
	body := `{"bucket":"single_tool","seed":77}`
	p, _ := Plan(Business, []byte(body), cfg)
	x := postT(t, url+"/chat", body)
	if len(x.events) != len(p.Events) {
		t.Fatalf("%d events, plan %d", len(x.events), len(p.Events))
	}
	queue := path(x.events[0].obj(), "business_state.queue_ms").(float64)
	prev := -1.0
	var minLag, maxLag = math.Inf(1), math.Inf(-1)
	for i, e := range x.events {
		if e.isComment() {
			continue
		}
		sm := e.serverMS()
		if sm < prev {
			t.Errorf("event %d: server_ms %.3f after %.3f", i, sm, prev)
		}
		prev = sm
		arrived := float64(e.arrived) / 1e6
		lag := arrived - sm
		minLag, maxLag = min(minLag, lag), max(maxLag, lag)
		if lag < 0 || lag > 100 {
			t.Errorf("event %d: server_ms %.3f, arrived at %.3f ms", i, sm, arrived)
		}
		if late := sm - queue - durationMS(p.Events[i].At); late < -0.01 || late > 50 {
			t.Errorf("event %d: server_ms %.3f, planned %.3f + queue %.3f", i, sm, durationMS(p.Events[i].At), queue)
		}
	}
	t.Logf("client arrival − server_ms: %.3f … %.3f ms", minLag, maxLag)
}

// TestQueueGrowsUnderLoad gives a tenant one worker slot: a second request
// of the same tenant waits for the first to finish (its queue_ms is the
// first's remaining time) and gets heartbeats meanwhile; another tenant does
// not wait.
func TestQueueGrowsUnderLoad(t *testing.T) {
	cfg := fastConfig()
	cfg.TenantSlots = 1
	_, url := start(t, cfg)
	var a, c *exchange
	var wg sync.WaitGroup
	aStarted := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		a = postWatch(t, context.Background(), url+"/chat", `{"bucket":"single_tool","tenant":"busy","seed":1}`, aStarted)
	}()
	<-aStarted // the first request holds the slot: its stream is under way
	wg.Add(1)
	go func() { defer wg.Done(); c = postT(t, url+"/chat", `{"bucket":"qa","tenant":"other","seed":2}`) }()
	b := postT(t, url+"/chat", `{"bucket":"qa","tenant":"busy","seed":3}`)
	wg.Wait()
	got := path(b.dataEvents()[0].obj(), "business_state.queue_ms").(float64)
	lo, hi, want := queueBounds(t, a, b)
	t.Logf("second queued %.1f ms (expected %.1f, bounds %.1f … %.1f)", got, want, lo, hi)
	if got < lo || got > hi {
		t.Errorf("queue_ms %.1f, want about %.1f, within %.1f … %.1f", got, want, lo, hi)
	}
	if first := b.events[0]; !first.isComment() {
		t.Errorf("no heartbeat while queued: first event %s", first.data)
	}
	// Another tenant's request does not wait for the busy slot, which is
	// held for the first request's remaining time.
	if q := path(c.dataEvents()[0].obj(), "business_state.queue_ms").(float64); q > want/2 {
		t.Errorf("other tenant queued %.1f ms; the busy tenant's slot was held %.1f ms more", q, want)
	}
}

// queueBounds returns the bounds of the queue time of b, sent while a held
// its tenant's only slot, from the moments both were sent (one clock: the
// server runs in the test's process) and the server_ms of a's last event
// and b's first data event. b's wait ends when a frees the slot, after a's
// last event was written at or after a.sent + aEnd; b arrived by
// b.sent + (arrival − server_ms of its first data event). So
// queue ≥ want − lag, with want = aEnd − (b.sent − a.sent) and lag ≥ 0 the
// transit time of b's request and first event. b's wait ended before its
// first data event was written, so it cannot exceed the time that event
// took to reach the client. Both bounds hold however loaded the machine.
func queueBounds(t *testing.T, a, b *exchange) (lo, hi, want float64) {
	t.Helper()
	da, db := a.dataEvents(), b.dataEvents()
	if len(da) == 0 || len(db) == 0 {
		t.Fatalf("no data events: %d and %d", len(da), len(db))
	}
	aEnd := da[len(da)-1].serverMS()
	want = aEnd - durationMS(b.sent.Sub(a.sent))
	lag := durationMS(db[0].arrived) - db[0].serverMS()
	return want - lag - 0.01, durationMS(db[0].arrived) + 0.01, want
}

// TestHoldHeadersUntilDequeue checks the Server-Timing mode: headers of a
// queued request arrive only when it gets its slot, with queue;dur, and no
// queue_ms in the first event.
func TestHoldHeadersUntilDequeue(t *testing.T) {
	cfg := fastConfig()
	cfg.TenantSlots = 1
	cfg.HoldHeadersUntilDequeue = true
	_, url := start(t, cfg)
	var a *exchange
	done, aStarted := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		a = postWatch(t, context.Background(), url+"/chat", `{"bucket":"single_tool","seed":1}`, aStarted)
	}()
	<-aStarted // the first request holds the slot: its stream is under way
	b := postT(t, url+"/chat", `{"bucket":"qa","seed":2}`)
	<-done
	st := b.header.Get("Server-Timing")
	dur, err := strconv.ParseFloat(strings.TrimPrefix(st, "queue;dur="), 64)
	if err != nil || !strings.HasPrefix(st, "queue;dur=") {
		t.Fatalf("Server-Timing %q", st)
	}
	if lo, hi, want := queueBounds(t, a, b); dur < lo || dur > hi {
		t.Errorf("queue;dur=%.1f, want about %.1f, within %.1f … %.1f", dur, want, lo, hi)
	}
	if ms := float64(b.headers) / 1e6; ms < dur {
		t.Errorf("headers arrived at %.1f ms, before the dequeue at %.1f ms", ms, dur)
	}
	first := b.dataEvents()[0]
	if first.data != `{"delta":"","server_ms":`+strconv.FormatFloat(first.serverMS(), 'f', 3, 64)+`}` {
		t.Errorf("first event %s, want an empty delta without queue_ms", first.data)
	}
	if b.events[0].isComment() {
		t.Errorf("a heartbeat before the first event: headers were out before dequeue")
	}
}

// TestBadRequests checks that invalid input gets 400 with a one-line JSON
// error naming the problem, in each dialect's error shape.
func TestBadRequests(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	for _, c := range []struct{ path, body, want, shape string }{
		{"/chat", `{"bucket":`, "invalid JSON body", "error.message"},
		{"/chat", `{"bucket":"gossip"}`, `unknown bucket \"gossip\"`, "error.message"},
		{"/chat", `{"faults":["stall","explode"]}`, `unknown fault \"explode\"`, "error.message"},
		{"/v1/chat/completions", `{"metadata":{"faults":"explode"}}`, `unknown fault \"explode\"`, "error.message"},
		{"/v1/messages", `{"seed":"soon"}`, "seed must be an integer", "error.message"},
		{"/v1/chat/completions", `{"stream":"yes"}`, "stream must be a boolean", "error.message"},
		{"/v1/completions", `{"stream":1,"prompt":"hi"}`, "stream must be a boolean", "error.message"},
		{"/v1/completions", `{"max_tokens":0,"prompt":"hi"}`, "max_tokens must be a positive integer", "error.message"},
	} {
		x := postT(t, url+c.path, c.body)
		if x.status != http.StatusBadRequest || x.header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: status %d, type %q", c.path, c.body, x.status, x.header.Get("Content-Type"))
		}
		body := string(x.body)
		var m map[string]any
		if strings.Count(body, "\n") != 1 || !strings.HasSuffix(body, "\n") || json.Unmarshal(x.body, &m) != nil {
			t.Errorf("%s: body %q is not one line of JSON", c.body, body)
		}
		if !strings.Contains(body, c.want) || path(m, c.shape) == nil {
			t.Errorf("%s: body %q, want %q at %s", c.body, body, c.want, c.shape)
		}
	}
}

// TestClientLeaving checks that a stream stops at once when its client
// leaves, even in a 30 s stall, and frees its tenant slot.
func TestClientLeaving(t *testing.T) {
	cfg := fastConfig()
	cfg.StallMS = 30000
	cfg.TenantSlots = 1
	s, url := start(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started, done := make(chan struct{}), make(chan *exchange)
	go func() {
		done <- postWatch(t, ctx, url+"/chat", `{"bucket":"qa","faults":["stall"],"seed":4}`, started)
	}()
	// Under way, the stream has the 30 s stall ahead of it, or is in it.
	<-started
	cancel()
	if x := <-done; x.err == nil {
		t.Fatal("stream ended without error despite the stall")
	}
	eventually.True(t, "the stream ends after the client left", func() bool { return s.Stats().Active == 0 })
	// A slot still held would make the next request wait for the 30 s stall.
	y := postT(t, url+"/chat", `{"bucket":"qa","seed":5}`)
	if q := path(y.dataEvents()[0].obj(), "business_state.queue_ms").(float64); q > 1000 {
		t.Errorf("slot not freed: next request queued %.1f ms", q)
	}
}

func TestHealthz(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	resp, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || m["status"] != "ok" || resp.StatusCode != 200 {
		t.Errorf("healthz: %d %v %v", resp.StatusCode, m, err)
	}
}

func TestInvalidConfigServer(t *testing.T) {
	cfg := fastConfig()
	cfg.TenantSlots = 0
	cfg.Faults = []string{"bogus"}
	s := New(cfg)
	if _, err := s.Start("127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), "tenant_slots") || !strings.Contains(err.Error(), `"bogus"`) {
		t.Errorf("Start error %v, want both problems", err)
	}
	rec := &recorder{header: http.Header{}}
	s.Handler().ServeHTTP(rec, &http.Request{Method: "GET"})
	if rec.status != 500 {
		t.Errorf("status %d", rec.status)
	}
}

// recorder is a minimal http.ResponseWriter.
type recorder struct {
	header http.Header
	status int
	body   []byte
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(s int)           { r.status = s }
func (r *recorder) Write(p []byte) (int, error) { r.body = append(r.body, p...); return len(p), nil }
