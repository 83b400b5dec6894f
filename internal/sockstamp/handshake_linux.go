//go:build linux

package sockstamp

import (
	"time"

	"golang.org/x/sys/unix"
)

// HandshakeRTT returns the round trip of a TCP connection's handshake as
// the kernel measured it (TCP_INFO's smoothed RTT, which right after the
// handshake is its only sample: SYN sent to SYN-ACK received): how long
// connecting took on the network, without the time the program took to
// notice. Call it on a socket that has just connected.
func HandshakeRTT(fd int) (time.Duration, bool) {
	info, err := unix.GetsockoptTCPInfo(fd, unix.IPPROTO_TCP, unix.TCP_INFO)
	if err != nil || info.Rtt == 0 {
		return 0, false
	}
	return time.Duration(info.Rtt) * time.Microsecond, true
}
