//go:build linux && !noreactor

package reactor

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The reactor's calls on its non-blocking descriptors return at once, so
// they go through RawSyscall, without the scheduler's entersyscall: after
// the process went idle, entersyscall wakes the runtime's monitor thread,
// which then polls every 20 µs until the process is idle again (see
// internal/sockstamp, whose reads the reactor uses too).

// pollEvents takes the ready events of the epoll set epfd into events
// without waiting.
func pollEvents(epfd int, events []unix.EpollEvent) (int, unix.Errno) {
	n, _, errno := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])),
		uintptr(len(events)), 0, 0, 0)
	return int(n), errno
}

// rawRead reads a non-blocking descriptor.
func rawRead(fd int, b []byte) (int, unix.Errno) {
	n, _, errno := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return int(n), errno
}

// rawWrite writes to a non-blocking descriptor.
func rawWrite(fd int, b []byte) (int, unix.Errno) {
	n, _, errno := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return int(n), errno
}
