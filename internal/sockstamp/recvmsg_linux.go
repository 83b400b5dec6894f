//go:build linux

package sockstamp

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// recvmsg is recvmsg(2) into b with control messages into oob, without a
// source address: unix.Recvmsg moves its address buffer to the heap on
// every call, this does not allocate. n is the bytes read, oobn the bytes
// of control messages, flags the message's flags (MSG_CTRUNC, …).
func recvmsg(fd int, b, oob []byte, flags int) (n, oobn, msgFlags int, errno unix.Errno) {
	var iov unix.Iovec
	var msg unix.Msghdr
	if len(b) > 0 {
		iov.Base = &b[0]
		iov.SetLen(len(b))
		msg.Iov = &iov
		msg.SetIovlen(1)
	}
	if len(oob) > 0 {
		msg.Control = &oob[0]
		msg.SetControllen(len(oob))
	}
	r, _, errno := unix.Syscall(unix.SYS_RECVMSG, uintptr(fd), uintptr(unsafe.Pointer(&msg)), uintptr(flags))
	if errno != 0 {
		return 0, 0, 0, errno
	}
	return int(r), int(msg.Controllen), int(msg.Flags), 0
}

// nextCmsg splits the first control message off oob: its header, its data
// and the messages after it; valid is false when the header is malformed.
func nextCmsg(oob []byte) (h *unix.Cmsghdr, data, rest []byte, valid bool) {
	const hdr = unix.SizeofCmsghdr
	h = (*unix.Cmsghdr)(unsafe.Pointer(&oob[0]))
	l := int(h.Len)
	if l < hdr || l > len(oob) {
		return nil, nil, nil, false
	}
	next := min((l+7)&^7, len(oob))
	return h, oob[hdr:l], oob[next:], true
}
