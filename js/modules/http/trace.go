package k6http

import (
	"crypto/tls"
	"net"
	"net/http/httptrace"
	"sync"
	"time"
)

// phases are the moments of one exchange, as net/http/httptrace reports
// them. A zero time is a moment never reached.
type phases struct {
	getConn, connectStart, connectDone time.Time
	tlsStart, tlsDone, gotConn         time.Time
	wrote, firstByte, done             time.Time
}

// timings are the k6 durations of one exchange, in milliseconds.
type timings struct {
	Blocked, Connecting, TLSHandshaking float64
	Sending, Waiting, Receiving         float64
	// Duration is Sending + Waiting + Receiving, as k6 defines
	// http_req_duration: the time spent on the request once a connection
	// was obtained.
	Duration float64
}

// timings returns the durations between the phases: blocked runs from the
// request's wish for a connection to the start of dialing (so it includes
// the DNS lookup), or to getting a pooled connection; sending from getting
// the connection to the request written; waiting from there to the first
// response byte; receiving from there to the end of the body. A phase whose
// end was not reached counts 0.
func (p phases) timings() timings {
	t := timings{
		Connecting:     span(p.connectStart, p.connectDone),
		TLSHandshaking: span(p.tlsStart, p.tlsDone),
		Sending:        span(p.gotConn, p.wrote),
		Waiting:        span(p.wrote, p.firstByte),
		Receiving:      span(p.firstByte, p.done),
	}
	if !p.connectStart.IsZero() {
		t.Blocked = span(p.getConn, p.connectStart)
	} else {
		t.Blocked = span(p.getConn, p.gotConn)
	}
	t.Duration = t.Sending + t.Waiting + t.Receiving
	return t
}

// span returns b-a in milliseconds, or 0 when either is missing or b is
// before a.
func span(a, b time.Time) float64 {
	if a.IsZero() || b.IsZero() || b.Before(a) {
		return 0
	}
	return float64(b.Sub(a)) / float64(time.Millisecond)
}

// tracer records the phases of one exchange and the connection it used.
// Its hooks may run on the transport's dialing goroutines, hence the lock.
type tracer struct {
	mu   sync.Mutex
	p    phases
	conn net.Conn
	// base holds the connection's byte counts (sent, received) when the
	// exchange got it: zero for a new connection.
	base [2]int64
}

// clientTrace returns the httptrace hooks that fill t.
func (t *tracer) clientTrace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		GetConn:           func(string) { t.mark(&t.p.getConn, false) },
		ConnectStart:      func(string, string) { t.mark(&t.p.connectStart, true) },
		ConnectDone:       func(string, string, error) { t.mark(&t.p.connectDone, false) },
		TLSHandshakeStart: func() { t.mark(&t.p.tlsStart, true) },
		TLSHandshakeDone:  func(tls.ConnectionState, error) { t.mark(&t.p.tlsDone, false) },
		GotConn: func(info httptrace.GotConnInfo) {
			t.mu.Lock()
			defer t.mu.Unlock()
			t.p.gotConn, t.conn = time.Now(), info.Conn
			if info.Reused {
				t.base[0], t.base[1] = counts(info.Conn)
			}
		},
		WroteRequest:         func(httptrace.WroteRequestInfo) { t.mark(&t.p.wrote, false) },
		GotFirstResponseByte: func() { t.mark(&t.p.firstByte, true) },
	}
}

// mark sets *at to now; a first-only mark keeps the earliest time (dialing
// several addresses starts several connects).
func (t *tracer) mark(at *time.Time, firstOnly bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if firstOnly && !at.IsZero() {
		return
	}
	*at = time.Now()
}

// finish records the end of the body and returns the phases, the
// connection the exchange used (nil when none was obtained) and its byte
// counts when the exchange got it.
func (t *tracer) finish() (phases, net.Conn, [2]int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.p.done = time.Now()
	return t.p, t.conn, t.base
}
