package k6http

import (
	"net"
	"testing"
	"time"
)

// pipeConn returns a directConn to addr over an in-memory pipe.
func pipeConn(t *testing.T, addr string) *directConn {
	t.Helper()
	a, b := net.Pipe()
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	return newDirectConn(a, addr)
}

// TestIdlePool checks the pool's order and bounds: the most recently kept
// connection is reused first, a host's bound refuses more, and the
// pool's bound evicts the connection idle for the longest.
func TestIdlePool(t *testing.T) {
	p := newIdlePool(3, 2, time.Minute)
	a1, a2, a3 := pipeConn(t, "a:80"), pipeConn(t, "a:80"), pipeConn(t, "a:80")
	b1, c1 := pipeConn(t, "b:80"), pipeConn(t, "c:80")
	if !p.put(a1) || !p.put(a2) {
		t.Fatal("refused a host's first two connections")
	}
	if p.put(a3) {
		t.Error("kept a third connection to a host bound to 2")
	}
	if !p.put(b1) || !p.put(c1) {
		t.Fatal("refused connections to other hosts")
	}
	if p.n != 3 {
		t.Errorf("%d idle connections, want 3 (the oldest evicted)", p.n)
	}
	if got := p.get("a:80"); got != a2 {
		t.Error("a:80 did not give its most recent connection")
	}
	if got := p.get("a:80"); got != nil {
		t.Error("a:80's oldest connection was not the one evicted")
	}
	if p.get("b:80") != b1 || p.get("c:80") != c1 || p.n != 0 {
		t.Error("b:80 and c:80 not kept")
	}
	if !a2.reused || a3.reused {
		t.Error("reused marks the connections that were kept")
	}
}
