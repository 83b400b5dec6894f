package k6http

import (
	"context"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"testing"
	"time"
)

func TestPhaseTimings(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	cases := []struct {
		name string
		p    phases
		want timings
	}{
		{"new TLS connection", phases{
			getConn: at(0), connectStart: at(5), connectDone: at(8), tlsStart: at(8), tlsDone: at(20),
			gotConn: at(20), wrote: at(21), firstByte: at(31), lastByte: at(34), done: at(34),
		}, timings{Blocked: 5, Connecting: 3, TLSHandshaking: 12, Sending: 1, Waiting: 10, Receiving: 3, Duration: 14}},
		{"new connection, the kernel's handshake round trip", phases{
			getConn: at(0), connectStart: at(5), connectDone: at(9), gotConn: at(9), wrote: at(10), firstByte: at(15), lastByte: at(16), done: at(20),
			connectRTT: 250 * time.Microsecond,
		}, timings{Blocked: 5, Connecting: 0.25, Sending: 1, Waiting: 5, Receiving: 1, Duration: 7}},
		{"reused connection", phases{getConn: at(0), gotConn: at(1), wrote: at(2), firstByte: at(7), lastByte: at(9), done: at(9)},
			timings{Blocked: 1, Sending: 1, Waiting: 5, Receiving: 2, Duration: 8}},
		{"refused", phases{getConn: at(0), connectStart: at(2), connectDone: at(3), done: at(3)},
			timings{Blocked: 2, Connecting: 1}},
		{"no response", phases{getConn: at(0), gotConn: at(0), wrote: at(1), done: at(50)},
			timings{Sending: 1, Duration: 1}},
	}
	for _, c := range cases {
		if got := c.p.timings(); got != c.want {
			t.Errorf("%s: timings = %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestStamped checks which moment a phase takes: the kernel's stamp when
// there is one between the phase's lower bound and now, else now.
func TestStamped(t *testing.T) {
	now := time.Now()
	from := now.Add(-10 * time.Millisecond)
	cases := []struct {
		name string
		at   time.Time
		ok   bool
		from time.Time
		want time.Time
	}{
		{"stamp inside the window", now.Add(-3 * time.Millisecond), true, from, now.Add(-3 * time.Millisecond)},
		{"stamp at the lower bound", from, true, from, from},
		{"no stamp", time.Time{}, false, from, now},
		{"stamp of an earlier exchange", from.Add(-time.Microsecond), true, from, now},
		{"stamp after now (a clock's quirk)", now.Add(time.Microsecond), true, from, now},
		{"no lower bound", now.Add(-time.Hour), true, time.Time{}, now.Add(-time.Hour)},
	}
	for _, c := range cases {
		if got := stamped(c.at, c.ok, c.from, now); !got.Equal(c.want) {
			t.Errorf("%s: stamped = %v before now, want %v", c.name, now.Sub(got), now.Sub(c.want))
		}
	}
}

// TestTracerRetriedOnNewConnection checks that a request retried on a new
// connection after a reused one failed counts the new connection's bytes
// from zero, not from the reused one's counts.
func TestTracerRetriedOnNewConnection(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	reused, fresh := &wireConn{Conn: a}, &wireConn{Conn: b}
	reused.sent.Store(1000)
	reused.received.Store(5000)
	fresh.sent.Store(80)
	fresh.received.Store(300)
	tr := &tracer{}
	trace := tr.clientTrace()
	trace.GotConn(httptrace.GotConnInfo{Conn: reused, Reused: true})
	trace.GotConn(httptrace.GotConnInfo{Conn: fresh})
	_, conn, base := tr.finish()
	ex := &exchange{}
	ex.connection(conn, base)
	if conn != fresh || ex.sent != 80 || ex.received != 300 {
		t.Errorf("sent %d, received %d, want 80 and 300 on the new connection", ex.sent, ex.received)
	}
}

// TestTracerSlot checks that a slot hands back the tracer it kept, reset
// but with its hooks, keeps no late one, and that a nil slot keeps
// nothing.
func TestTracerSlot(t *testing.T) {
	var s tracerSlot
	tr := s.take()
	hooks := tr.clientTrace()
	hooks.GetConn("h:80")
	hooks.ConnectStart("tcp", "h:80")
	s.give(tr)
	again := s.take()
	if again != tr || again.clientTrace() != hooks || again.p != (phases{}) || again.conn != nil {
		t.Errorf("kept tracer: same %v, same hooks %v, phases %+v", again == tr, again.clientTrace() == hooks, again.p)
	}
	if other := s.take(); other == tr {
		t.Error("a tracer in use was handed out twice")
	}
	again.late = true
	s.give(again)
	if s.kept.Load() != nil {
		t.Error("a late tracer was kept")
	}
	var none *tracerSlot
	none.give(none.take())
}

// TestTracerReusedOnlyWhenDone checks which exchanges give their tracer
// back for the next: one on a pooled connection, whose hooks all ran
// before it ended; not one that dialed (a dial racing several addresses
// reports the loser later), nor one net/http carried. An exchange on a
// reused tracer has the timings of its own phases.
func TestTracerReusedOnlyWhenDone(t *testing.T) {
	srv := newRawServer(t, answerAll("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	tr := newTestTransport(t, false)
	var slot tracerSlot
	get := func(raw string) *exchange {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		return send(context.Background(), tr, http.MethodGet, newHopURL(u), http.Header{}, nil, bodyReading{limit: 1 << 20}, &slot)
	}
	base := "http://" + srv.addr + "/"
	if ex := get(base); ex.errorCode != 0 || string(ex.body) != "ok" || slot.kept.Load() != nil {
		t.Fatalf("first exchange: %d %q, tracer kept %v; want it dialed and its tracer not kept", ex.errorCode, ex.body, slot.kept.Load() != nil)
	}
	if ex := get(base); ex.errorCode != 0 || slot.kept.Load() == nil {
		t.Fatalf("second exchange: %d, tracer kept %v; want it pooled and its tracer kept", ex.errorCode, slot.kept.Load() != nil)
	}
	kept := slot.kept.Load()
	ex := get(base)
	if slot.kept.Load() != kept || ex.timings.Connecting != 0 || ex.timings.Duration <= 0 || ex.sent <= 0 || ex.remoteIP != "127.0.0.1" {
		t.Errorf("third exchange on the kept tracer: timings %+v, sent %d, remote %q", ex.timings, ex.sent, ex.remoteIP)
	}
	if ex := get("https://" + srv.addr + "/"); ex.errorCode == 0 || slot.kept.Load() != nil {
		t.Errorf("an exchange net/http carried (error %d) left its tracer kept", ex.errorCode)
	}
}
