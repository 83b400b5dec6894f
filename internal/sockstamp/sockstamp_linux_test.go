//go:build linux

package sockstamp

import (
	"net"
	"syscall"
	"testing"
	"time"
)

// TestReadCarriesKernelStamp reads loopback bytes through Read and checks
// that the stamp lies between the write and the read.
func TestReadCarriesKernelStamp(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server := <-accepted
	defer server.Close()
	raw, err := client.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var serr error
	if err := raw.Control(func(fd uintptr) { serr = Enable(int(fd)) }); err != nil || serr != nil {
		t.Fatalf("Enable: %v %v", err, serr)
	}
	// The kernel turns receive stamping on for the whole machine when the
	// first socket asks, asynchronously: a read just after Enable may come
	// without a stamp. Bytes are sent again until one is stamped.
	buf, oob := make([]byte, 64), make([]byte, OOBSize)
	var n int
	var rx, before int64
	deadline := time.Now().Add(10 * time.Second)
	for rx == 0 {
		before = time.Now().UnixNano()
		if _, err := server.Write([]byte("event")); err != nil {
			t.Fatal(err)
		}
		var rerr error
		// The read waits in Go's poller; the descriptor is non-blocking, so
		// Read reports would-block until the bytes are there.
		if err := raw.Read(func(fd uintptr) bool {
			var wouldBlock bool
			n, rx, wouldBlock, rerr = Read(int(fd), buf, oob)
			return !wouldBlock
		}); err != nil || rerr != nil {
			t.Fatalf("Read: %v %v", err, rerr)
		}
		if time.Now().After(deadline) {
			t.Fatal("no read carried a kernel stamp for 10 s")
		}
	}
	after := time.Now().UnixNano()
	if string(buf[:n]) != "event" {
		t.Fatalf("read %q, want %q", buf[:n], "event")
	}
	if rx < before || rx > after {
		t.Errorf("kernel stamp %d outside the write..read window [%d, %d]", rx, before, after)
	}
}
