//go:build linux

package sockstamp

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The socket calls of this package never block: Go's descriptors are
// non-blocking, and the calls on the error queue pass MSG_DONTWAIT. They
// go through RawSyscall, without the scheduler's entersyscall and
// exitsyscall, which a call that returns at once does not need: after the
// process went idle, entersyscall wakes the runtime's monitor thread
// (sysmon), which then polls every 20 µs until the process is idle again —
// two or three context switches more per request at a few thousand
// requests a second, where a request costs a dozen.

// recvmsg is recvmsg(2) into b with control messages into oob, without a
// source address: unix.Recvmsg moves its address buffer to the heap on
// every call, this does not allocate. n is the bytes read, oobn the bytes
// of control messages, flags the message's flags (MSG_CTRUNC, …).
func recvmsg(fd int, b, oob []byte, flags int) (n, oobn, msgFlags int, errno unix.Errno) {
	return msgCall(unix.SYS_RECVMSG, fd, b, oob, flags)
}

// sendmsg is sendmsg(2) of b with the control messages oob; flags must
// hold MSG_DONTWAIT. It does not allocate.
func sendmsg(fd int, b, oob []byte, flags int) (n int, errno unix.Errno) {
	n, _, _, errno = msgCall(unix.SYS_SENDMSG, fd, b, oob, flags)
	return n, errno
}

// msgCall is recvmsg(2) or sendmsg(2) (trap) of one buffer b and the
// control messages oob; it returns the message's control length and flags
// as the kernel left them. Its header stays on the stack: no pointer to it
// or to its iovec leaves the function.
func msgCall(trap uintptr, fd int, b, oob []byte, flags int) (n, oobn, msgFlags int, errno unix.Errno) {
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
	r, _, errno := unix.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&msg)), uintptr(flags))
	if errno != 0 {
		return 0, 0, 0, errno
	}
	return int(r), int(msg.Controllen), int(msg.Flags), 0
}

// outq returns the bytes fd's send queue holds, sent or not, that the
// peer has not acknowledged (SIOCOUTQ).
func outq(fd int) (int, unix.Errno) {
	var v int32
	_, _, errno := unix.RawSyscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCOUTQ, uintptr(unsafe.Pointer(&v)))
	return int(v), errno
}
