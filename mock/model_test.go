package mock

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// TestModelSlotQueue checks that a request of another tenant waits for the
// only model slot while a first request holds it, and reports that wait as
// its queue time: queue_ms in the first event, with heartbeats meanwhile,
// or Server-Timing queue;dur with held headers.
func TestModelSlotQueue(t *testing.T) {
	for _, hold := range []bool{false, true} {
		t.Run("hold="+strconv.FormatBool(hold), func(t *testing.T) {
			t.Parallel()
			cfg := fastConfig()
			cfg.ModelSlots = 1
			cfg.HoldHeadersUntilDequeue = hold
			_, url := start(t, cfg)
			var a *exchange
			done, aStarted := make(chan struct{}), make(chan struct{})
			go func() {
				defer close(done)
				a = postWatch(t, context.Background(), url+"/chat", `{"bucket":"single_tool","tenant":"one","seed":1}`, aStarted)
			}()
			<-aStarted // a holds the model slot: its stream is under way
			b := postT(t, url+"/chat", `{"bucket":"qa","tenant":"two","seed":2}`)
			<-done
			got := -1.0
			if hold {
				st := b.header.Get("Server-Timing")
				d, err := strconv.ParseFloat(strings.TrimPrefix(st, "queue;dur="), 64)
				if err != nil || !strings.HasPrefix(st, "queue;dur=") {
					t.Fatalf("Server-Timing %q", st)
				}
				got = d
			} else {
				got = path(b.dataEvents()[0].obj(), "business_state.queue_ms").(float64)
				if !b.events[0].isComment() {
					t.Errorf("no heartbeat while waiting for the model: first event %s", b.events[0].data)
				}
			}
			lo, hi, want := queueBounds(t, a, b)
			t.Logf("queued %.1f ms for the model slot (expected %.1f, bounds %.1f … %.1f)", got, want, lo, hi)
			if got < lo || got > hi {
				t.Errorf("queue time %.1f ms, want about %.1f, within %.1f … %.1f", got, want, lo, hi)
			}
		})
	}
}

// fixedConfig is a configuration where a qa request takes a fixed time:
// no routing or safety latency, a 300 ms first token and 1 ms between
// tokens; with one seed, every request has the same schedule.
func fixedConfig() Config {
	c := fastConfig()
	c.Buckets.QA = Bucket{FirstToken: Dist{MedianMS: 300}}
	c.InterToken = Dist{MedianMS: 1}
	return c
}

// TestModelSlotsFIFO runs two requests on two model slots, queues three
// more (one after the other, each from its own tenant) and checks that the
// slots go to the waiters in arrival order: the first two waiters get the
// slots freed by the first round, the third waits for a second round.
func TestModelSlotsFIFO(t *testing.T) {
	t.Parallel()
	cfg := fixedConfig()
	cfg.ModelSlots = 2
	const body = `{"bucket":"qa","tenant":"t%d","seed":7}`
	sched, err := Plan(Business, []byte(`{"bucket":"qa","seed":7}`), cfg)
	if err != nil {
		t.Fatal(err)
	}
	service := sched.Marks["complete"]
	srv, url := start(t, cfg)
	xs := make([]*exchange, 5)
	var wg sync.WaitGroup
	send := func(i int, started chan struct{}) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			xs[i] = postWatch(t, context.Background(), url+"/chat", strings.Replace(body, "%d", strconv.Itoa(i), 1), started)
		}()
	}
	for i := range 2 { // the first round holds both slots
		started := make(chan struct{})
		send(i, started)
		<-started
	}
	for i := 2; i < 5; i++ { // waiters arrive in order 2, 3, 4
		send(i, nil)
		eventually.True(t, "request "+strconv.Itoa(i)+" waits for a model slot", func() bool {
			return srv.Stats().Queued == int64(i-1)
		})
	}
	wg.Wait()
	// A request's dequeue, on the test's clock, lies between its sending
	// plus its queue time (arrival is no earlier than sending) and the
	// arrival of its first data event minus that event's server_ms plus its
	// queue time (arrival is no later).
	type span struct{ lo, hi time.Time }
	deq := make([]span, 5)
	for i, x := range xs {
		if x.err != nil || len(x.dataEvents()) == 0 {
			t.Fatalf("request %d: %v, %d events", i, x.err, len(x.dataEvents()))
		}
		first := x.dataEvents()[0]
		q := 0.0
		if i >= 2 {
			q = path(first.obj(), "business_state.queue_ms").(float64)
		}
		d := msDuration(q)
		deq[i] = span{x.sent.Add(d), x.sent.Add(first.arrived - msDuration(first.serverMS()) + d)}
		t.Logf("request %d: queue_ms %.1f", i, q)
	}
	// The first waiters took the slots freed by the first round, so each
	// waited at least until a first-round request could have ended.
	for i := 2; i < 4; i++ {
		if end := deq[0].lo.Add(service); deq[i].hi.Before(end) && deq[i].hi.Before(deq[1].lo.Add(service)) {
			t.Errorf("request %d dequeued before any model slot was freed", i)
		}
		// … and before the last waiter, who had to wait for them.
		if !deq[i].hi.Before(deq[4].lo) {
			t.Errorf("request %d (arrived before request 4) dequeued at %v, not before request 4 at %v",
				i, deq[i].hi.Sub(xs[0].sent), deq[4].lo.Sub(xs[0].sent))
		}
	}
	// The last waiter needed a second-round slot: a request of the second
	// round had to end first.
	first2 := deq[2].lo
	if deq[3].lo.Before(first2) {
		first2 = deq[3].lo
	}
	if d := deq[4].hi.Sub(first2); d < service {
		t.Errorf("request 4 dequeued %v after the second round began, less than a service time (%v)", d, service)
	}
	eventually.True(t, "every stream has ended", func() bool { return srv.Stats().Active == 0 })
}

// TestDefaultModelCapacity measures the throughput of the default
// configuration saturated by a closed loop of 130 clients sending the
// bucket mix of examples/aftersales.js (qa 4, retrieval 2, single_tool 3,
// multi_tool 2, timeout_recovery 1): completions per second once the first
// round is over must be the documented capacity, ModelSlots ÷ mean service
// time of the mix ≈ 100 ÷ 3.04 s ≈ 33 requests/s, within 20 %.
func TestDefaultModelCapacity(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("a 10 s load run")
	}
	cfg := DefaultConfig()
	// The mean service time of the mix, from the plans.
	mix := []string{BucketQA, BucketQA, BucketQA, BucketQA, BucketRetrieval, BucketRetrieval,
		BucketSingleTool, BucketSingleTool, BucketSingleTool, BucketMultiTool, BucketMultiTool, BucketTimeoutRecovery}
	var total time.Duration
	const plans = 1200
	for i := range plans {
		s, err := Plan(Business, []byte(`{"bucket":"`+mix[i%len(mix)]+`","seed":`+strconv.Itoa(i+1)+`}`), cfg)
		if err != nil {
			t.Fatal(err)
		}
		total += s.Marks["complete"]
	}
	mean := total / plans
	want := float64(cfg.ModelSlots) / mean.Seconds()
	if want < 30 || want > 36 {
		t.Errorf("planned capacity %.1f requests/s (mean service %v), documented about 33", want, mean)
	}
	srv, url := start(t, cfg)
	const clients, from, until = 130, 4 * time.Second, 10 * time.Second
	tr := &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	began := time.Now()
	var counted, failed atomic.Int64
	var lag stats
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; time.Since(began) < until; n++ {
				b := `{"bucket":"` + mix[n%len(mix)] + `","tenant":"t` + strconv.Itoa(i%10) + `"}`
				ok, _ := stream1(ctx, client, url+"/chat", b, &lag)
				at := time.Since(began)
				switch {
				case !ok && ctx.Err() == nil:
					failed.Add(1)
				case ok && at >= from && at < until:
					counted.Add(1)
				}
			}
		}()
	}
	// Sample the queue every 50 ms through the window: it must never empty.
	saturated := true
	tick := time.NewTicker(50 * time.Millisecond)
	for now := range tick.C {
		el := now.Sub(began)
		if el >= until {
			break
		}
		if el > from && el < until-time.Second && srv.Stats().Queued == 0 {
			saturated = false
		}
	}
	tick.Stop()
	cancel()
	wg.Wait()
	got := float64(counted.Load()) / (until - from).Seconds()
	t.Logf("throughput %.1f requests/s, documented capacity %.1f (mean service %v); %d failed", got, want, mean, failed.Load())
	if failed.Load() > 0 {
		t.Errorf("%d streams failed", failed.Load())
	}
	if !saturated {
		t.Errorf("the model queue emptied during the window: the run did not saturate the model slots")
	}
	if got < 0.8*want || got > 1.2*want {
		t.Errorf("throughput %.1f requests/s, want the capacity %.1f ± 20 %%", got, want)
	}
}

// TestSlotsHandOver checks the FIFO semaphore alone: slots go to waiters in
// arrival order, a waiter that leaves gives up its place, and one that
// leaves after the slot was handed to it passes the slot on.
func TestSlotsHandOver(t *testing.T) {
	if newSlots(0) != nil {
		t.Fatal("0 slots should mean no limit (nil)")
	}
	s := newSlots(1)
	if s.take() != nil {
		t.Fatal("a free slot was not taken at once")
	}
	a, b, c := s.take(), s.take(), s.take()
	closed := func(ch chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	s.leave(b) // b gives up its place before any slot is free
	s.put()
	if !closed(a) || closed(c) {
		t.Fatalf("after one release: a got the slot %v, c %v; want a only", closed(a), closed(c))
	}
	d := s.take()
	s.leave(a) // a leaves after the slot was handed to it: c gets it, not d
	if !closed(c) || closed(d) {
		t.Fatalf("after a left holding the slot: c %v, d %v; want c only", closed(c), closed(d))
	}
	s.put()
	if !closed(d) {
		t.Fatal("d did not get the slot c released")
	}
	s.put()
	if s.take() != nil || s.take() == nil {
		t.Error("one slot should be free again, and only one")
	}
}

// TestModelSlotClientLeaving checks that requests whose clients leave, one
// while it waits for the only model slot and one while it holds it, free
// their places: the next request gets the slot at once.
func TestModelSlotClientLeaving(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	cfg.StallMS = 30000
	cfg.ModelSlots = 1
	s, url := start(t, cfg)
	ctxA, cancelA := context.WithCancel(context.Background())
	defer cancelA()
	ctxB, cancelB := context.WithCancel(context.Background())
	defer cancelB()
	started, done := make(chan struct{}), make(chan *exchange, 2)
	go func() {
		done <- postWatch(t, ctxA, url+"/chat", `{"bucket":"qa","tenant":"a","faults":["stall"],"seed":4}`, started)
	}()
	<-started // a holds the model slot, with a 30 s stall ahead
	go func() { done <- post(t, ctxB, url+"/chat", `{"bucket":"qa","tenant":"b","seed":5}`) }()
	eventually.True(t, "b waits for the model slot", func() bool { return s.Stats().Queued == 1 })
	cancelB()
	<-done
	eventually.True(t, "b has left the queue", func() bool { return s.Stats().Queued == 0 })
	cancelA()
	<-done
	eventually.True(t, "both streams have ended", func() bool { return s.Stats().Active == 0 })
	// A slot still held (or handed to b, gone) would make c wait forever.
	ctxC, cancelC := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelC()
	y := post(t, ctxC, url+"/chat", `{"bucket":"qa","tenant":"c","seed":6}`)
	if y.err != nil || len(y.dataEvents()) == 0 {
		t.Fatalf("model slot not freed: the next request got %d data events in 5 s (%v)", len(y.dataEvents()), y.err)
	}
	if q := path(y.dataEvents()[0].obj(), "business_state.queue_ms").(float64); q > 1000 {
		t.Errorf("model slot not freed: next request queued %.1f ms", q)
	}
}
