package k6http

import (
	"context"
	"crypto/tls"
	"net"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"time"
)

// phases are the moments of one exchange, as net/http/httptrace reports
// them; on a stamped connection wrote, firstByte and lastByte are the
// kernel's (see stamps.go). A zero time is a moment never reached.
type phases struct {
	getConn, connectStart, connectDone time.Time
	tlsStart, tlsDone, gotConn         time.Time
	wrote, firstByte, lastByte, done   time.Time
	// connectRTT is the kernel's round trip of the TCP handshake of the
	// connection the exchange dialed; 0 when unknown, and then connecting
	// is the dial's span.
	connectRTT time.Duration
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
// the DNS lookup), or to getting a pooled connection; connecting is the
// handshake's round trip, or the dial's span; sending runs from getting
// the connection to the request written; waiting from there to the first
// response byte; receiving from there to the body's last byte. A phase
// whose end was not reached counts 0.
func (p phases) timings() timings {
	t := timings{
		Connecting:     p.connecting(),
		TLSHandshaking: span(p.tlsStart, p.tlsDone),
		Sending:        span(p.gotConn, p.wrote),
		Waiting:        span(p.wrote, p.firstByte),
		Receiving:      span(p.firstByte, p.lastByte),
	}
	if !p.connectStart.IsZero() {
		t.Blocked = span(p.getConn, p.connectStart)
	} else {
		t.Blocked = span(p.getConn, p.gotConn)
	}
	t.Duration = t.Sending + t.Waiting + t.Receiving
	return t
}

// connecting returns the kernel's round trip of the TCP handshake when it
// is known, else the span of the dial, in milliseconds.
func (p phases) connecting() float64 {
	if p.connectRTT > 0 {
		return float64(p.connectRTT) / float64(time.Millisecond)
	}
	return span(p.connectStart, p.connectDone)
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
// Its hooks may run on the transport's dialing, reading and writing
// goroutines, hence the lock.
type tracer struct {
	mu   sync.Mutex
	p    phases
	conn net.Conn
	// wire is the connection under conn, whose kernel stamps time the
	// exchange; nil for one this package did not dial.
	wire *wireConn
	// base holds the connection's byte counts (sent, received) when the
	// exchange got it: zero for a new connection.
	base [2]int64
	// hooks are the httptrace hooks that fill the tracer, made on first
	// use and kept while the tracer is reused.
	hooks *httptrace.ClientTrace
	// late is set once the hooks may run after the exchange: it was
	// handed to net/http, or dialed (a dial racing several addresses
	// reports the loser's connect later). A late tracer is not reused.
	late bool
}

// clientTrace returns the httptrace hooks that fill t.
func (t *tracer) clientTrace() *httptrace.ClientTrace {
	if t.hooks == nil {
		t.hooks = &httptrace.ClientTrace{
			GetConn:              func(string) { t.mark(&t.p.getConn, false) },
			ConnectStart:         func(string, string) { t.mark(&t.p.connectStart, true) },
			ConnectDone:          func(string, string, error) { t.mark(&t.p.connectDone, false) },
			TLSHandshakeStart:    func() { t.mark(&t.p.tlsStart, true) },
			TLSHandshakeDone:     func(tls.ConnectionState, error) { t.mark(&t.p.tlsDone, false) },
			GotConn:              t.gotConn,
			WroteRequest:         func(httptrace.WroteRequestInfo) { t.wroteRequest() },
			GotFirstResponseByte: t.firstResponseByte,
		}
	}
	return t.hooks
}

// tracerKey is the context key of an exchange's tracer.
type tracerKey struct{}

// withTracer returns ctx carrying t, where the direct transport finds it
// (tracerOf): it fires t's hooks itself, without the two context layers
// and the hooks of the dialer that httptrace.WithClientTrace adds; what
// it hands to net/http or dials gets them then (netContext).
func withTracer(ctx context.Context, t *tracer) context.Context {
	return context.WithValue(ctx, tracerKey{}, t)
}

// tracerOf returns the tracer ctx carries, nil when none.
func tracerOf(ctx context.Context) *tracer {
	t, _ := ctx.Value(tracerKey{}).(*tracer)
	return t
}

// netContext returns ctx with t's hooks where net/http and the dialer
// look for them (httptrace), and marks t late.
func (t *tracer) netContext(ctx context.Context) context.Context {
	t.late = true
	return httptrace.WithClientTrace(ctx, t.clientTrace())
}

// tracerSlot keeps one tracer of a VU for its next exchange, so that an
// exchange makes no tracer and no hooks: a tracer goes back once its
// exchange ended, unless it is late. Exchanges sent at once (http.batch)
// take the kept one or make their own, without a lock. A nil slot keeps
// nothing.
type tracerSlot struct {
	kept atomic.Pointer[tracer]
}

// take returns the kept tracer, reset, or a new one.
func (s *tracerSlot) take() *tracer {
	if s == nil {
		return &tracer{}
	}
	t := s.kept.Swap(nil)
	if t == nil {
		return &tracer{}
	}
	t.p, t.conn, t.wire, t.base = phases{}, nil, nil, [2]int64{}
	return t
}

// give keeps t for a next exchange, unless it is late: its exchange
// ended, and nothing runs its hooks any more.
func (s *tracerSlot) give(t *tracer) {
	if s != nil && !t.late {
		s.kept.Store(t)
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

// gotConn notes the connection the exchange got: the byte counts of a
// reused one, the handshake's round trip of one it dialed. A request
// retried on another connection gets one again: the last counts.
func (t *tracer) gotConn(info httptrace.GotConnInfo) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.p.gotConn, t.conn, t.wire, t.base = time.Now(), info.Conn, wireOf(info.Conn), [2]int64{}
	switch {
	case info.Reused:
		t.base[0], t.base[1] = counts(info.Conn)
	case t.wire != nil && !t.p.connectStart.IsZero():
		t.p.connectRTT = t.wire.rtt
	}
}

// wroteRequest marks the request written: when the kernel sent its last
// byte, or now.
func (t *tracer) wroteRequest() {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	if t.wire == nil {
		t.p.wrote = now
		return
	}
	at, ok := t.wire.sentAt()
	t.p.wrote = stamped(at, ok, t.p.gotConn, now)
}

// firstResponseByte marks the first response byte (of the first response,
// 1xx included): when the kernel received the read that delivered it, or
// now. net/http calls it right after that read, on the reading goroutine.
func (t *tracer) firstResponseByte() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.p.firstByte.IsZero() {
		return
	}
	now := time.Now()
	if t.wire == nil {
		t.p.firstByte = now
		return
	}
	at, ok := t.wire.readAt()
	t.p.firstByte = stamped(at, ok, t.p.gotConn, now)
}

// finish records the end of the exchange and of its body (when the kernel
// received the read that delivered the body's last byte, or now) and
// returns the phases, the connection the exchange used (nil when none was
// obtained) and its byte counts when the exchange got it.
func (t *tracer) finish() (phases, net.Conn, [2]int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	t.p.done, t.p.lastByte = now, now
	if t.wire != nil && !t.p.firstByte.IsZero() {
		at, ok := t.wire.readAt()
		t.p.lastByte = stamped(at, ok, t.p.firstByte, now)
	}
	return t.p, t.conn, t.base
}
