//go:build linux

package sockstamp

import (
	"sync"
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
// waits until stamping is on (a few milliseconds at most). It fails
// silently: without it, unstamped bytes are timed when read.
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
		waitStamping(fd)
	})
}

// waitStamping sends datagrams to fd, bound to loopback, until one arrives
// stamped, for at most keepOnWait; fd stays open. The kernel switches
// stamping on in deferred work, which a busy or virtual machine may run
// many milliseconds later: the pause between tries doubles from 100 µs
// to 10 ms (100 tries of 100 µs were once not enough, and every first
// read of the process came unstamped).
func waitStamping(fd int) {
	if unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}) != nil {
		return
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return
	}
	buf, oob := make([]byte, 1), make([]byte, OOBSize)
	pause := 100 * time.Microsecond
	for deadline := time.Now().Add(keepOnWait); time.Now().Before(deadline); pause = min(2*pause, 10*time.Millisecond) {
		if unix.Sendto(fd, buf, 0, sa) != nil {
			return
		}
		for {
			_, rx, wouldBlock, err := Read(fd, buf, oob)
			if err != nil {
				return
			}
			if wouldBlock {
				ts := unix.NsecToTimespec(int64(pause)) // loopback delivers within the send; a pause for the kernel's switch
				unix.Nanosleep(&ts, nil)
				break
			}
			if rx != 0 {
				return
			}
		}
	}
}

// keepOnWait bounds how long KeepOn waits for the kernel to stamp.
const keepOnWait = 2 * time.Second
