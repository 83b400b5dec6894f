//go:build linux

package sockstamp

import (
	"errors"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// OOBSize is the room a read needs for its receive timestamp's control
// message.
const OOBSize = 64

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
		var oobn int
		n, oobn, _, _, err = unix.Recvmsg(fd, b, oob, 0)
		switch {
		case err == nil:
			return n, receiveTime(oob[:oobn]), false, nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EAGAIN):
			return 0, 0, true, nil
		}
		return 0, 0, false, os.NewSyscallError("read", err)
	}
}

// receiveTime finds SCM_TIMESTAMPNS in control messages, without
// allocating; 0 if absent.
func receiveTime(oob []byte) int64 {
	const hdr = unix.SizeofCmsghdr
	for len(oob) >= hdr {
		h := (*unix.Cmsghdr)(unsafe.Pointer(&oob[0]))
		l := int(h.Len)
		if l < hdr || l > len(oob) {
			return 0
		}
		if h.Level == unix.SOL_SOCKET && h.Type == unix.SCM_TIMESTAMPNS && l >= hdr+int(unsafe.Sizeof(unix.Timespec{})) {
			ts := (*unix.Timespec)(unsafe.Pointer(&oob[hdr]))
			return ts.Nano()
		}
		l = (l + 7) &^ 7
		if l >= len(oob) {
			return 0
		}
		oob = oob[l:]
	}
	return 0
}
