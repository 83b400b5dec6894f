//go:build linux

package sockstamp

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// TestConnReadsStamped reads through a Conn: the bytes with a kernel
// stamp between the peer's write and the read, then io.EOF once the peer
// closed.
func TestConnReadsStamped(t *testing.T) {
	KeepOn()
	client, server, _ := loopbackPair(t, "tcp4", "127.0.0.1:0")
	c, ok := NewConn(client)
	if !ok {
		t.Fatal("NewConn refused a TCP connection")
	}
	before := time.Now().UnixNano()
	if _, err := server.Write([]byte("event")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, rx, err := c.ReadStamped(buf)
	after := time.Now().UnixNano()
	if err != nil || string(buf[:n]) != "event" {
		t.Fatalf("ReadStamped = %q, %v", buf[:n], err)
	}
	if rx < before || rx > after {
		t.Errorf("kernel stamp %d outside the write..read window [%d, %d]", rx, before, after)
	}
	server.Close()
	if n, err := c.Read(buf); n != 0 || !errors.Is(err, io.EOF) {
		t.Errorf("after the peer closed: %d bytes, %v; want io.EOF", n, err)
	}
	if _, ok := NewConn(&net.UnixConn{}); ok {
		t.Error("NewConn took a connection that is not TCP")
	}
}
