//go:build linux

package sockstamp

import (
	"errors"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TXOOBSize is the room ReadTX needs for the control messages of one
// transmit stamp: SCM_TIMESTAMPING (64 bytes), the sock_extended_err of
// IP_RECVERR or IPV6_RECVERR (48 or 64) and, on a socket with Enable's
// SO_TIMESTAMPNS, an SCM_TIMESTAMPNS (32): 160 bytes at most, with room
// to spare.
const TXOOBSize = 256

// txFlags are the SO_TIMESTAMPING flags of EnableTX: a software stamp when
// each send call's last byte leaves for the device (TX_SOFTWARE), reported
// (SOFTWARE), keyed by a byte counter (OPT_ID), without a copy of the
// packet (OPT_TSONLY, so unprivileged processes get it too).
const txFlags = unix.SOF_TIMESTAMPING_TX_SOFTWARE | unix.SOF_TIMESTAMPING_SOFTWARE |
	unix.SOF_TIMESTAMPING_OPT_ID | unix.SOF_TIMESTAMPING_OPT_TSONLY

// ErrTXTruncated reports an oob smaller than TXOOBSize: the kernel cut the
// control messages of a transmit stamp.
var ErrTXTruncated = errors.New("sockstamp: transmit stamp's control messages truncated (oob < TXOOBSize)")

// EnableTX asks the kernel to stamp the time each later send call on the
// connected TCP socket fd left for the device (SO_TIMESTAMPING, software
// transmit stamps), delivered on the socket's error queue for ReadTX.
//
// A stamp's key counts bytes: the key of a send call is the number of
// bytes sent on fd since EnableTX up to and including that call, minus
// one (modulo 2^32), so a 300-byte first write has key 299. The counter
// starts at the bytes written so far (SOF_TIMESTAMPING_OPT_ID_TCP); on
// kernels before 6.2 it starts at the bytes acknowledged so far, which is
// the same when nothing is in flight. It restarts only after DisableTX.
// fd must be connected or connecting (the kernel refuses a listening or
// closed socket).
//
// Enable's receive stamps keep working, but the SOFTWARE reporting flag
// adds an SCM_TIMESTAMPING control message to every read: Read's OOBSize
// has room for both. While stamps wait in the error queue, poll and epoll
// report POLLERR on fd; ReadTX until it reports none to clear it.
func EnableTX(fd int) error {
	err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPING, txFlags|unix.SOF_TIMESTAMPING_OPT_ID_TCP)
	if errors.Is(err, unix.EINVAL) {
		// Before Linux 6.2 there is no OPT_ID_TCP.
		err = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPING, txFlags)
	}
	return os.NewSyscallError("setsockopt", err)
}

// DisableTX turns EnableTX's transmit stamps off (SO_TIMESTAMPING 0); the
// receive stamps of Enable stay on. Stamps already queued stay queued but
// can no longer be read with their time: drain them with ReadTX first.
func DisableTX(fd int) error {
	return os.NewSyscallError("setsockopt", unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPING, 0))
}

// ReadTX takes one transmit stamp off fd's error queue with one
// non-blocking recvmsg(MSG_ERRQUEUE), with oob (TXOOBSize bytes) for its
// control messages; it does not allocate. key is the stamp's byte counter
// (see EnableTX), at the kernel's send time in Unix nanoseconds (wall
// clock; At places it on the monotonic clock). ok is false when the error
// queue is empty. Messages that are not software send stamps are skipped.
func ReadTX(fd int, oob []byte) (key uint32, at int64, ok bool, err error) {
	var one [1]byte // the stamps carry no payload (OPT_TSONLY)
	for {
		_, oobn, flags, errno := recvmsg(fd, one[:], oob, unix.MSG_ERRQUEUE|unix.MSG_DONTWAIT)
		switch errno {
		case 0:
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return 0, 0, false, nil
		default:
			return 0, 0, false, os.NewSyscallError("recvmsg", errno)
		}
		if flags&unix.MSG_CTRUNC != 0 {
			return 0, 0, false, ErrTXTruncated
		}
		if key, at, ok := sendStamp(oob[:oobn]); ok {
			return key, at, true, nil
		}
	}
}

// sendStamp finds a software send stamp in the control messages of one
// error-queue message, without allocating: the first timespec of
// SCM_TIMESTAMPING and the key of an IP_RECVERR or IPV6_RECVERR whose
// origin is SO_EE_ORIGIN_TIMESTAMPING and whose type is SCM_TSTAMP_SND.
func sendStamp(oob []byte) (key uint32, at int64, ok bool) {
	var isSend bool
	for len(oob) >= unix.SizeofCmsghdr {
		h, data, rest, valid := nextCmsg(oob)
		if !valid {
			break
		}
		switch {
		case h.Level == unix.SOL_SOCKET && h.Type == unix.SCM_TIMESTAMPING && len(data) >= int(unsafe.Sizeof(unix.ScmTimestamping{})):
			at = (*unix.ScmTimestamping)(unsafe.Pointer(&data[0])).Ts[0].Nano()
		case (h.Level == unix.SOL_IP && h.Type == unix.IP_RECVERR || h.Level == unix.SOL_IPV6 && h.Type == unix.IPV6_RECVERR) &&
			len(data) >= int(unsafe.Sizeof(unix.SockExtendedErr{})):
			ee := (*unix.SockExtendedErr)(unsafe.Pointer(&data[0]))
			isSend = ee.Origin == unix.SO_EE_ORIGIN_TIMESTAMPING && ee.Info == unix.SCM_TSTAMP_SND
			key = ee.Data
		}
		oob = rest
	}
	return key, at, isSend && at != 0
}

// reportFlags are EnableTXOnDemand's SO_TIMESTAMPING flags: the reporting
// and keying of EnableTX without its stamping of every send call.
const reportFlags = unix.SOF_TIMESTAMPING_SOFTWARE | unix.SOF_TIMESTAMPING_OPT_ID | unix.SOF_TIMESTAMPING_OPT_TSONLY

// EnableTXOnDemand prepares fd for WriteStamped: send calls are stamped
// only when they ask for it, keyed as EnableTX keys them.
func EnableTXOnDemand(fd int) error {
	err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPING, reportFlags|unix.SOF_TIMESTAMPING_OPT_ID_TCP)
	if errors.Is(err, unix.EINVAL) {
		err = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPING, reportFlags)
	}
	return os.NewSyscallError("setsockopt", err)
}

// minSendBuffer is a floor of any TCP socket's send buffer, in bytes: the
// kernel never sets one below SOCK_MIN_SNDBUF (twice the smallest buffer
// of a segment, about 4.5 KiB), even under memory pressure.
const minSendBuffer = 4096

// stampRequest is the control message that asks for a software transmit
// stamp of one send call.
var stampRequest = func() []byte {
	b := make([]byte, unix.CmsgSpace(4))
	h := (*unix.Cmsghdr)(unsafe.Pointer(&b[0]))
	h.Level, h.Type = unix.SOL_SOCKET, unix.SO_TIMESTAMPING
	h.SetLen(unix.CmsgLen(4))
	*(*uint32)(unsafe.Pointer(&b[unix.CmsgLen(0)])) = unix.SOF_TIMESTAMPING_TX_SOFTWARE
	return b
}()

// SendStamped sends p on the non-blocking socket fd (EnableTXOnDemand)
// with one sendmsg that asks for its transmit stamp, to be read with
// ReadTX — only when the socket stays writable after it: a stamp queued
// while it is not makes epoll report EPOLLERR alone, which Go's network
// poller takes for a broken descriptor (every later read on it fails).
// So it asks only when the bytes queued, p included, fill at most a
// quarter of the send buffer; otherwise stamped is false and nothing was
// sent. n may be short of len(p); wouldBlock reports EAGAIN.
func SendStamped(fd int, p []byte) (n int, stamped, wouldBlock bool, err error) {
	queued, errno := outq(fd)
	if errno != 0 {
		return 0, false, false, nil
	}
	// No send buffer is smaller than minSendBuffer, so a small send on a
	// nearly empty socket (a request) needs no look at its size.
	if need := 4 * (queued + len(p)); need > minSendBuffer {
		sndbuf, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF)
		if err != nil || need > sndbuf {
			return 0, false, false, nil
		}
	}
	for {
		n, errno := sendmsg(fd, p, stampRequest, unix.MSG_DONTWAIT|unix.MSG_NOSIGNAL)
		switch errno {
		case 0:
			return n, true, false, nil
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return 0, true, true, nil
		}
		return 0, true, false, os.NewSyscallError("sendmsg", errno)
	}
}
