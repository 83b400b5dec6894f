//go:build linux

package sockstamp

import (
	"net"
	"syscall"
	"testing"
	"time"
)

// awaitRXStamps sends bytes from peer to the stamping connection behind
// raw until a read of them carries a kernel stamp. The first socket on
// the machine to ask for receive stamps turns them on in deferred kernel
// work (net_enable_timestamp), so the first packets after Enable may come
// unstamped.
func awaitRXStamps(tb testing.TB, raw syscall.RawConn, peer net.Conn) {
	tb.Helper()
	buf, oob := make([]byte, 64), make([]byte, OOBSize)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		if _, err := peer.Write([]byte("w")); err != nil {
			tb.Fatal(err)
		}
		var rx int64
		var rerr error
		if err := raw.Read(func(fd uintptr) bool {
			var wouldBlock bool
			_, rx, wouldBlock, rerr = Read(int(fd), buf, oob)
			return !wouldBlock
		}); err != nil || rerr != nil {
			tb.Fatalf("Read: %v %v", err, rerr)
		}
		if rx != 0 {
			return
		}
	}
	tb.Fatal("no kernel receive stamp within 5 s")
}

// TestReadCarriesKernelStamp reads loopback bytes through Read and checks
// that the stamp lies between the write and the read.
func TestReadCarriesKernelStamp(t *testing.T) {
	client, server, _ := loopbackPair(t, "tcp4", "127.0.0.1:0")
	raw, err := client.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var serr error
	if err := raw.Control(func(fd uintptr) { serr = Enable(int(fd)) }); err != nil || serr != nil {
		t.Fatalf("Enable: %v %v", err, serr)
	}
	awaitRXStamps(t, raw, server)
	before := time.Now().UnixNano()
	if _, err := server.Write([]byte("event")); err != nil {
		t.Fatal(err)
	}
	buf, oob := make([]byte, 64), make([]byte, OOBSize)
	var n int
	var rx int64
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
	after := time.Now().UnixNano()
	if string(buf[:n]) != "event" {
		t.Fatalf("read %q, want %q", buf[:n], "event")
	}
	if rx < before || rx > after {
		t.Errorf("kernel stamp %d outside the write..read window [%d, %d]", rx, before, after)
	}
}
