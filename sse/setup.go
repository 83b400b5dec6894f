package sse

import (
	"context"
	"crypto/tls"
	"net"
	"net/http/httptrace"
	"sync"
	"time"
)

// connSetup is what opening one connection took: its TCP connect and,
// under TLS, its handshake. A point not reached was not measured (the
// handshake of a plain connection, a connect no dialer reported).
type connSetup struct {
	connect   point
	handshake point
}

// total is the set-up counted before the connection's first request: the
// exchange's times count from that request's kernel send time less it
// (exchange.Transmitted).
func (s connSetup) total() time.Duration { return s.connect.at + s.handshake.at }

// opened records the set-up of a connection the exchange's request opened.
// Only the first counts: a redirect that opens another connection adds
// nothing to Timings.Connecting or Timings.TLSHandshaking.
func (x *exchange) opened(s connSetup) {
	if x.openedConn {
		return
	}
	x.openedConn, x.conns = true, s
}

// dialTrace is what the program saw of the connections net/http dialed for
// one request: how long the TCP connect and the TLS handshake took between
// httptrace's hooks, and the stamping connection dialed (stampDialer notes
// it), whose handshake end it stamps before net/http's readers start. net/http
// may finish a dial after the request that started it ended, so the hooks
// take a lock.
type dialTrace struct {
	mu        sync.Mutex
	starts    map[string]time.Time // connects under way, by address
	connect   point
	tlsStart  time.Time
	handshake point
	sc        *stampConn
}

// dialTraceKey carries a request's dialTrace to stampDialer.
type dialTraceKey struct{}

// dialTraceOf returns the dialTrace of the request whose context ctx is,
// or nil.
func dialTraceOf(ctx context.Context) *dialTrace {
	d, _ := ctx.Value(dialTraceKey{}).(*dialTrace)
	return d
}

// trace returns the httptrace hooks that time the dial. A dual-stack dial
// races connects to several addresses: the one that succeeded counts.
func (d *dialTrace) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		ConnectStart: func(_, addr string) {
			d.mu.Lock()
			defer d.mu.Unlock()
			if d.starts == nil {
				d.starts = map[string]time.Time{}
			}
			d.starts[addr] = time.Now()
		},
		ConnectDone: func(_, addr string, err error) {
			d.mu.Lock()
			defer d.mu.Unlock()
			if start, ok := d.starts[addr]; ok && err == nil {
				d.connect = point{at: time.Since(start), ok: true}
			}
		},
		TLSHandshakeStart: func() {
			d.mu.Lock()
			defer d.mu.Unlock()
			d.tlsStart = time.Now()
		},
		TLSHandshakeDone: d.tlsDone,
	}
}

// tlsDone ends the handshake: the program's measure of it, and the stamp
// of the read that completed the server's last flight on the connection
// dialed.
func (d *dialTrace) tlsDone(_ tls.ConnectionState, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil || d.tlsStart.IsZero() {
		return
	}
	d.handshake = point{at: time.Since(d.tlsStart), ok: true}
	if d.sc != nil {
		d.sc.handshakeDone()
	}
}

// dialed notes the stamping connection a dial of the request returned.
func (d *dialTrace) dialed(sc *stampConn) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sc = sc
}

// setupOf returns the set-up of a new connection, speaking TLS or not: the
// kernel's measures where sc has them — the TCP handshake's round trip,
// and the time from the ClientHello's send to the arrival of the server's
// last handshake flight, which leave out a busy client's delays — else
// the program's (d's hooks). sc is nil where the connection is not
// stamped.
func (d *dialTrace) setupOf(sc *stampConn, tlsOn bool) connSetup {
	d.mu.Lock()
	s := connSetup{connect: d.connect, handshake: d.handshake}
	d.mu.Unlock()
	if sc != nil {
		if rtt, ok := sc.connectTime(); ok {
			s.connect = point{at: rtt, ok: true}
		}
		if hs, ok := sc.handshakeTime(); ok {
			s.handshake = point{at: hs, ok: true}
		}
	}
	if !tlsOn {
		s.handshake = point{}
	}
	return s
}

// tlsOf reports whether c, a connection net/http handed out, speaks TLS,
// and whether it negotiated HTTP/2.
func tlsOf(c net.Conn) (tlsOn, h2 bool) {
	tc, ok := c.(interface{ ConnectionState() tls.ConnectionState })
	if !ok {
		return false, false
	}
	return true, tc.ConnectionState().NegotiatedProtocol == "h2"
}
