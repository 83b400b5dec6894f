//go:build linux

package pktcap

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// openSocket opens the packet socket: every interface, network header on,
// non-blocking, the filter attached before any packet can come in, and its
// receive ring, where segments wait, stamped, until a reader or the
// background drain takes them.
func openSocket() (int, *ring, error) {
	// Protocol 0 receives nothing until bind names one: the filter is in
	// place before the first packet.
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) {
			return -1, nil, ErrNotPermitted
		}
		return -1, nil, os.NewSyscallError("socket", err)
	}
	r, err := setup(fd)
	if err != nil {
		unix.Close(fd)
		return -1, nil, err
	}
	return fd, r, nil
}

// setup attaches the filter, maps the ring and binds.
func setup(fd int) (*ring, error) {
	raw, err := bpf.Assemble(kernelFilter())
	if err != nil {
		return nil, fmt.Errorf("pktcap: filter: %w", err)
	}
	ins := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		ins[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	prog := unix.SockFprog{Len: uint16(len(ins)), Filter: &ins[0]}
	if err := unix.SetsockoptSockFprog(fd, unix.SOL_SOCKET, unix.SO_ATTACH_FILTER, &prog); err != nil {
		return nil, os.NewSyscallError("setsockopt SO_ATTACH_FILTER", err)
	}
	r, err := newRing(fd)
	if err != nil {
		return nil, err
	}
	sa := &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL)}
	if err := unix.Bind(fd, sa); err != nil {
		r.close()
		return nil, os.NewSyscallError("bind", err)
	}
	return r, nil
}

// htons puts a 16-bit protocol number in network byte order.
func htons(v uint16) uint16 {
	var b [2]byte
	b[0], b[1] = byte(v>>8), byte(v)
	return *(*uint16)(unsafe.Pointer(&b[0]))
}

// dropped returns the packets the kernel dropped for want of buffer since
// the last call (PACKET_STATISTICS).
func dropped(fd int) uint64 {
	st, err := unix.GetsockoptTpacketStats(fd, unix.SOL_PACKET, unix.PACKET_STATISTICS)
	if err != nil {
		return 0
	}
	return uint64(st.Drops)
}

// closeFD closes the packet socket.
func closeFD(fd int) error { return unix.Close(fd) }
