//go:build linux && !noreactor

package reactor

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// poller is the operating system's readiness interface under the reactor:
// an epoll set (level-triggered) and an eventfd to wake it. The epoll set
// itself is registered with Go's network poller, so the reactor goroutine
// parks and wakes like any goroutine reading a socket.
type poller struct {
	epfd   int
	wakefd int
	file   *os.File
	raw    syscall.RawConn
	events []unix.EpollEvent
}

// newPoller creates the epoll set and its wake-up eventfd.
func newPoller() (*poller, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("epoll_create1", err)
	}
	wakefd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		unix.Close(epfd)
		return nil, os.NewSyscallError("eventfd", err)
	}
	p := &poller{epfd: epfd, wakefd: wakefd, events: make([]unix.EpollEvent, 256)}
	if err := p.add(wakefd); err != nil {
		p.closeFDs()
		return nil, err
	}
	if err := unix.SetNonblock(epfd, true); err != nil {
		p.closeFDs()
		return nil, os.NewSyscallError("fcntl", err)
	}
	p.file = os.NewFile(uintptr(epfd), "usefulsse-epoll")
	if p.raw, err = p.file.SyscallConn(); err != nil {
		p.closeFDs()
		return nil, err
	}
	return p, nil
}

// closeFDs releases the descriptors of a poller that failed to start.
func (p *poller) closeFDs() {
	unix.Close(p.wakefd)
	unix.Close(p.epfd)
}

// add watches fd for reading. EPOLLRDHUP tells, with the bytes a wait
// reports, that the peer's end of stream is queued behind them (run).
func (p *poller) add(fd int) error {
	ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(fd)}
	return os.NewSyscallError("epoll_ctl", unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, fd, &ev))
}

// watch turns reading readiness of fd on or off (a connection whose reader
// is behind, or at its end, is not read until it catches up). Off takes fd
// out of the epoll set: EPOLLHUP and EPOLLERR can't be masked, so a closed
// or reset connection left in the set with no events would still be
// reported at every wait.
func (p *poller) watch(fd int, on bool) {
	if on {
		_ = p.add(fd) // EEXIST when it was never taken out
		return
	}
	p.remove(fd)
}

// remove stops watching fd.
func (p *poller) remove(fd int) {
	_ = unix.EpollCtl(p.epfd, unix.EPOLL_CTL_DEL, fd, nil)
}

// wake makes the reactor goroutine run its pending commands.
func (p *poller) wake() {
	var one = [8]byte{1}
	_, _ = rawWrite(p.wakefd, one[:])
}

// run calls ready with the descriptors that can be read and their epoll
// events, forever: it parks in Go's network poller until the epoll set has
// something, then takes events without blocking and parks again.
//
// The set is level-triggered, and Go's poller wakes the goroutine only
// when something new arrives on one of its descriptors: a descriptor left
// readable after its turn (its read filled the buffer, or the peer's end
// of stream or an error is queued behind the bytes read) would wait for
// the next arrival. ready says so by returning true, and so does a full
// batch: then run looks once more before parking. Otherwise every
// descriptor reported was read to its end, and whatever arrives from now
// on wakes the goroutine again: parking at once saves an empty epoll_wait
// per wake-up.
func (p *poller) run(ready func(fd int, events uint32) (again bool), woken func()) {
	_ = p.raw.Read(func(uintptr) bool {
		for {
			n, errno := pollEvents(p.epfd, p.events)
			if errno != 0 && errno != unix.EINTR {
				return false
			}
			if n <= 0 {
				return false
			}
			again := n == len(p.events)
			for _, ev := range p.events[:n] {
				if int(ev.Fd) == p.wakefd {
					var b [8]byte
					_, _ = rawRead(p.wakefd, b[:])
					woken()
					continue
				}
				if ready(int(ev.Fd), ev.Events) {
					again = true
				}
			}
			if !again {
				return false
			}
		}
	})
}

// Epoll's conditions, for ready: an error (a queued transmit stamp raises
// it too), and the peer's end of stream.
const (
	pollFailed = unix.EPOLLERR
	pollEnded  = unix.EPOLLHUP | unix.EPOLLRDHUP
)

// writeFD writes all of b to a non-blocking descriptor, waiting for room
// up to timeoutMs milliseconds at a time; written counts the bytes that
// went out before an error.
func writeFD(fd int, b []byte, timeoutMs int) (written int, err error) {
	for written < len(b) {
		n, errno := rawWrite(fd, b[written:])
		switch errno {
		case 0:
			written += n
			continue
		case unix.EINTR:
			continue
		case unix.EAGAIN:
		default:
			return written, os.NewSyscallError("write", errno)
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
		k, err := unix.Poll(fds, timeoutMs)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return written, os.NewSyscallError("poll", err)
		}
		if k == 0 {
			return written, os.NewSyscallError("write", unix.ETIMEDOUT)
		}
	}
	return written, nil
}

// closeFD closes a descriptor.
func closeFD(fd int) { _ = unix.Close(fd) }

// dupFD duplicates a descriptor, close-on-exec.
func dupFD(fd int) (int, error) {
	nfd, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1, os.NewSyscallError("fcntl", err)
	}
	return nfd, nil
}
