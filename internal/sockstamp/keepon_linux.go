//go:build linux

package sockstamp

import (
	"net"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

var keepOnce sync.Once

// KeepOn holds the kernel's receive stamping on for the life of the
// process. The kernel stamps arriving packets only while some socket asks
// for it: it turns stamping on, in deferred work, when the first socket
// asks and off when the last one closes, so the first bytes of a program's
// first stamped connection — or of any connection after all the others
// closed — could arrive unstamped and be timed when read. KeepOn opens one
// UDP socket that asks for stamps and never closes it; the first call
// waits until a TCP segment arrives stamped (a few milliseconds at most).
// It fails silently: without it, unstamped bytes are timed when read.
func KeepOn() {
	keepOnce.Do(func() {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, 0)
		if err != nil {
			return
		}
		if Enable(fd) != nil {
			unix.Close(fd)
			return
		}
		waitStamping()
	})
}

// waitStamping waits, for at most keepOnWait, until the kernel stamps
// arriving TCP segments: it sends a byte over a loopback TCP connection
// whose reading end asks for stamps until one is read stamped, the pause
// between tries doubling from 100 µs to 10 ms. The kernel switches
// stamping on in deferred work, which a busy or virtual machine may run
// many milliseconds later. A datagram can't tell: UDP stamps a datagram
// when it is read if it arrived unstamped, TCP does not.
func waitStamping() {
	ln, err := net.ListenTCP("tcp4", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return
	}
	defer ln.Close()
	client, err := net.DialTCP("tcp4", nil, ln.Addr().(*net.TCPAddr))
	if err != nil {
		return
	}
	defer client.Close()
	server, err := ln.AcceptTCP()
	if err != nil {
		return
	}
	defer server.Close()
	raw, err := client.SyscallConn()
	if err != nil {
		return
	}
	var serr error
	if raw.Control(func(fd uintptr) { serr = Enable(int(fd)) }) != nil || serr != nil {
		return
	}
	pause := 100 * time.Microsecond
	for deadline := time.Now().Add(keepOnWait); time.Now().Before(deadline); pause = min(2*pause, 10*time.Millisecond) {
		if stamped, ok := probe(server, raw); !ok || stamped {
			return
		}
		time.Sleep(pause) // a pause for the kernel's deferred switch, not synchronisation
	}
}

// probe writes one byte to server and reads it from the stamped raw end:
// whether it came with a kernel stamp, and false ok on a failure.
func probe(server *net.TCPConn, raw syscall.RawConn) (stamped, ok bool) {
	if _, err := server.Write([]byte{1}); err != nil {
		return false, false
	}
	buf, oob := make([]byte, 1), make([]byte, OOBSize)
	var rx int64
	var rerr error
	err := raw.Read(func(fd uintptr) bool {
		var wouldBlock bool
		_, rx, wouldBlock, rerr = Read(int(fd), buf, oob)
		return !wouldBlock
	})
	if err != nil || rerr != nil {
		return false, false
	}
	return rx != 0, true
}

// keepOnWait bounds how long KeepOn waits for the kernel to stamp.
const keepOnWait = 2 * time.Second
