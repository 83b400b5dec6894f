//go:build linux

package sockstamp

import (
	"syscall"
	"testing"
)

// TestKeepOnStampsFirstRead checks that after KeepOn the very first read
// of a new connection carries a kernel stamp: stamping is already on, so
// nothing waits for the kernel's deferred switch.
func TestKeepOnStampsFirstRead(t *testing.T) {
	KeepOn()
	for i := range 3 {
		client, server, _ := loopbackPair(t, "tcp4", "127.0.0.1:0")
		raw, err := client.(syscall.Conn).SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var serr error
		if err := raw.Control(func(fd uintptr) { serr = Enable(int(fd)) }); err != nil || serr != nil {
			t.Fatalf("Enable: %v %v", err, serr)
		}
		if _, err := server.Write([]byte("first")); err != nil {
			t.Fatal(err)
		}
		buf, oob := make([]byte, 64), make([]byte, OOBSize)
		var rx int64
		var rerr error
		if err := raw.Read(func(fd uintptr) bool {
			var wouldBlock bool
			_, rx, wouldBlock, rerr = Read(int(fd), buf, oob)
			return !wouldBlock
		}); err != nil || rerr != nil {
			t.Fatalf("Read: %v %v", err, rerr)
		}
		if rx == 0 {
			t.Errorf("connection %d: its first read came without a kernel stamp", i)
		}
		client.Close()
		server.Close()
	}
}
