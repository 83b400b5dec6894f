//go:build linux

package sockstamp

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// OOBSize is the room a read needs for its control messages: the receive
// timestamp's SCM_TIMESTAMPNS (32 bytes) and, on a socket with EnableTX's
// transmit stamps, the SCM_TIMESTAMPING (64 bytes) that SO_TIMESTAMPING's
// SOFTWARE reporting flag adds to every read.
const OOBSize = 128

// Enable asks the kernel to stamp every read of fd with the time the bytes
// were received (SO_TIMESTAMPNS).
func Enable(fd int) error {
	return os.NewSyscallError("setsockopt", unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1))
}

// Read reads from a non-blocking descriptor into b, with oob (OOBSize
// bytes) for the control messages; rx is the kernel's receive time of the
// bytes in Unix nanoseconds, 0 if it gave none; wouldBlock reports EAGAIN.
func Read(fd int, b, oob []byte) (n int, rx int64, wouldBlock bool, err error) {
	for {
		n, oobn, _, errno := recvmsg(fd, b, oob, 0)
		switch errno {
		case 0:
			return n, receiveTime(oob[:oobn]), false, nil
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return 0, 0, true, nil
		}
		return 0, 0, false, os.NewSyscallError("read", errno)
	}
}

// receiveTime finds SCM_TIMESTAMPNS in control messages, without
// allocating; 0 if absent.
func receiveTime(oob []byte) int64 {
	for len(oob) >= unix.SizeofCmsghdr {
		h, data, rest, valid := nextCmsg(oob)
		if !valid {
			return 0
		}
		if h.Level == unix.SOL_SOCKET && h.Type == unix.SCM_TIMESTAMPNS && len(data) >= int(unsafe.Sizeof(unix.Timespec{})) {
			return (*unix.Timespec)(unsafe.Pointer(&data[0])).Nano()
		}
		oob = rest
	}
	return 0
}
