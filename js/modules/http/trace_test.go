package k6http

import (
	"net"
	"net/http/httptrace"
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
