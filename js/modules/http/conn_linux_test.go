//go:build linux

package k6http

import (
	"context"
	"io"
	"net"
	"testing"
	"time"
)

// TestWireConnStamps dials a loopback server through wireDial and checks
// that the connection is stamped: the handshake's round trip is known,
// the request's write carries the kernel's send time and the response's
// read its receive time, each inside the window of the call that made it.
func TestWireConnStamps(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 64)
		if _, err := c.Read(buf); err == nil {
			_, _ = io.WriteString(c, "HTTP/1.1 204 No Content\r\n\r\n")
		}
		_, _ = c.Read(buf) // until the client closes
	}()
	dial := wireDial((&net.Dialer{}).DialContext)
	c, err := dial(context.Background(), "tcp4", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := wireOf(c)
	if w == nil || w.st == nil {
		t.Fatal("the connection is not stamped")
	}
	if w.rtt <= 0 || w.rtt > time.Second {
		t.Errorf("handshake round trip %v", w.rtt)
	}
	if _, ok := w.readAt(); ok {
		t.Error("a read stamp before any read")
	}
	before := time.Now()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	sent, ok := w.sentAt()
	if !ok || sent.Before(before) || sent.After(after) {
		t.Errorf("send stamp %v (ok %v) outside the write's window [%v, %v]", sent, ok, before, after)
	}
	buf := make([]byte, 64)
	n, err := c.Read(buf)
	read := time.Now()
	if err != nil || string(buf[:n]) != "HTTP/1.1 204 No Content\r\n\r\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	got, ok := w.readAt()
	if !ok || got.Before(sent) || got.After(read) {
		t.Errorf("receive stamp %v (ok %v) outside [send stamp, read] = [%v, %v]", got, ok, sent, read)
	}
	if s, r := counts(c); s != 27 || r != int64(n) {
		t.Errorf("counts = %d sent, %d received; want 27, %d", s, r, n)
	}
}
