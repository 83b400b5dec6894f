//go:build linux && !noreactor

package reactor

import (
	"net"
	"syscall"
	"testing"

	"github.com/usefullatency/usefullatency/internal/sockstamp"
)

// BenchmarkSyscall is the cheapest system call (getpid): what entering the
// kernel costs on this machine, the unit of the reactor's budget.
func BenchmarkSyscall(b *testing.B) {
	for b.Loop() {
		syscall.Getpid()
	}
}

// BenchmarkLoopbackEvent is one 130-byte event over loopback TCP as the
// reactor receives it: the sender's write, then sockstamp.Read's recvmsg with the
// receive timestamp. Reports ns per event.
func BenchmarkLoopbackEvent(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	fd, err := takeFD(nc)
	if err != nil {
		b.Fatal(err)
	}
	defer closeFD(fd)
	if err := sockstamp.Enable(fd); err != nil {
		b.Fatal(err)
	}
	server := <-accepted
	defer server.Close()
	event := make([]byte, 130)
	buf, oob := make([]byte, readBufSize), make([]byte, sockstamp.OOBSize)
	stamped := 0
	for b.Loop() {
		if _, err := server.Write(event); err != nil {
			b.Fatal(err)
		}
		for got := 0; got < len(event); {
			n, rx, wouldBlock, err := sockstamp.Read(fd, buf, oob)
			if err != nil {
				b.Fatal(err)
			}
			if !wouldBlock {
				got += n
				if rx != 0 {
					stamped++
				}
			}
		}
	}
	if stamped == 0 {
		b.Error("no read carried a receive timestamp")
	}
}
