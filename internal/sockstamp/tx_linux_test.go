//go:build linux

package sockstamp

import (
	"bytes"
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// loopbacks are the addresses the transmit tests run on: IPv4 and IPv6.
var loopbacks = []struct{ name, network, addr string }{
	{"IPv4", "tcp4", "127.0.0.1:0"},
	{"IPv6", "tcp6", "[::1]:0"},
}

// loopbackPair connects a client to a server on addr and returns both
// with the client's descriptor; they close at the end of the test.
func loopbackPair(tb testing.TB, network, addr string) (client, server net.Conn, fd int) {
	tb.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		if network == "tcp6" {
			tb.Skipf("no IPv6 loopback: %v", err)
		}
		tb.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err = net.Dial(network, ln.Addr().String())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { client.Close() })
	server = <-accepted
	if server == nil {
		tb.Fatal("accept failed")
	}
	tb.Cleanup(func() { server.Close() })
	return client, server, fdOf(tb, client)
}

// fdOf returns c's descriptor, the way the reactor holds it: valid while c
// is open, non-blocking.
func fdOf(tb testing.TB, c net.Conn) int {
	tb.Helper()
	raw, err := c.(syscall.Conn).SyscallConn()
	if err != nil {
		tb.Fatal(err)
	}
	fd := -1
	if err := raw.Control(func(f uintptr) { fd = int(f) }); err != nil {
		tb.Fatal(err)
	}
	return fd
}

// awaitTX waits (poll for POLLERR, at most 5 s) for the next transmit
// stamp on fd.
func awaitTX(tb testing.TB, fd int, oob []byte) (key uint32, at int64) {
	tb.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		key, at, ok, err := ReadTX(fd, oob)
		if err != nil {
			tb.Fatalf("ReadTX: %v", err)
		}
		if ok {
			return key, at
		}
		pfd := []unix.PollFd{{Fd: int32(fd)}} // POLLERR needs no request
		if _, err := unix.Poll(pfd, 100); err != nil && !errors.Is(err, unix.EINTR) {
			tb.Fatalf("poll: %v", err)
		}
	}
	tb.Fatal("no transmit stamp within 5 s")
	return 0, 0
}

// pollErr reports whether poll sees POLLERR on fd right now.
func pollErr(t *testing.T, fd int) bool {
	t.Helper()
	pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		_, err := unix.Poll(pfd, 0)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			t.Fatalf("poll: %v", err)
		}
		return pfd[0].Revents&unix.POLLERR != 0
	}
}

// enableBoth turns on the receive stamps and the transmit stamps of fd, as
// the probe's reactor would.
func enableBoth(t *testing.T, fd int) {
	t.Helper()
	if err := Enable(fd); err != nil {
		t.Fatal(err)
	}
	if err := EnableTX(fd); err != nil {
		t.Fatal(err)
	}
}

// TestReadTXStampsEachWrite writes twice on a socket with transmit stamps
// and checks that each write's stamp lies between the times just before
// and just after its write call, and that the keys count the bytes: 300 −
// 1, then 300 + 200 − 1. Loopback transmits inside the write call; each
// write waits for the previous stamp, so the kernel holds neither back
// behind a packet in flight (TCP autocorking, see BenchmarkWriteTX).
func TestReadTXStampsEachWrite(t *testing.T) {
	for _, lb := range loopbacks {
		t.Run(lb.name, func(t *testing.T) {
			_, _, fd := loopbackPair(t, lb.network, lb.addr)
			enableBoth(t, fd)
			oob := make([]byte, TXOOBSize)
			sizes, keys := []int{300, 200}, []uint32{299, 499}
			for i, size := range sizes {
				before := time.Now().UnixNano()
				if n, err := unix.Write(fd, bytes.Repeat([]byte{'x'}, size)); err != nil || n != size {
					t.Fatalf("write %d: %d, %v", size, n, err)
				}
				after := time.Now().UnixNano()
				key, at := awaitTX(t, fd, oob)
				if key != keys[i] {
					t.Errorf("write %d: key %d, want %d (bytes sent so far − 1)", i, key, keys[i])
				}
				if at < before || at > after {
					t.Errorf("write %d: stamp %d outside its write call [%d, %d]", i, at, before, after)
				}
			}
			if _, _, ok, err := ReadTX(fd, oob); ok || err != nil {
				t.Errorf("a third stamp for two writes (ok %v, err %v)", ok, err)
			}
		})
	}
}

// TestReadKeepsRXStampWithTX checks that Read still gets its receive stamp,
// with every control message in OOBSize, on a socket whose error queue
// holds a transmit stamp.
func TestReadKeepsRXStampWithTX(t *testing.T) {
	for _, lb := range loopbacks {
		t.Run(lb.name, func(t *testing.T) {
			client, server, fd := loopbackPair(t, lb.network, lb.addr)
			enableBoth(t, fd)
			raw, err := client.(syscall.Conn).SyscallConn()
			if err != nil {
				t.Fatal(err)
			}
			awaitRXStamps(t, raw, server)
			if _, err := unix.Write(fd, []byte("request")); err != nil {
				t.Fatal(err)
			}
			before := time.Now().UnixNano()
			if _, err := server.Write([]byte("event")); err != nil {
				t.Fatal(err)
			}
			// Peek first: the read's control messages must fit in OOBSize
			// (SCM_TIMESTAMPNS and SO_TIMESTAMPING's SCM_TIMESTAMPING).
			buf, oob := make([]byte, 64), make([]byte, OOBSize)
			var n, oobn, flags int
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
				n, oobn, flags, _, err = unix.Recvmsg(fd, buf, oob, unix.MSG_PEEK)
				if !errors.Is(err, unix.EAGAIN) {
					break
				}
				pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
				_, _ = unix.Poll(pfd, 100)
			}
			if err != nil || n != len("event") {
				t.Fatalf("peek: %d bytes, %v", n, err)
			}
			if flags&unix.MSG_CTRUNC != 0 {
				t.Errorf("a read's control messages (%d bytes) were truncated in OOBSize %d", oobn, OOBSize)
			}
			n, rx, wouldBlock, err := Read(fd, buf, oob)
			after := time.Now().UnixNano()
			if err != nil || wouldBlock || string(buf[:n]) != "event" {
				t.Fatalf("Read: %q, would block %v, %v", buf[:n], wouldBlock, err)
			}
			if rx < before || rx > after {
				t.Errorf("receive stamp %d outside the write..read window [%d, %d]", rx, before, after)
			}
			if key, _ := awaitTX(t, fd, make([]byte, TXOOBSize)); key != uint32(len("request")-1) {
				t.Errorf("transmit stamp key %d after the read, want %d", key, len("request")-1)
			}
		})
	}
}

// TestDrainedErrQueueClearsPOLLERR checks that a queued transmit stamp
// raises POLLERR and that reading the error queue empty clears it: a
// level-triggered epoll set would otherwise wake for it forever.
func TestDrainedErrQueueClearsPOLLERR(t *testing.T) {
	for _, lb := range loopbacks {
		t.Run(lb.name, func(t *testing.T) {
			_, _, fd := loopbackPair(t, lb.network, lb.addr)
			enableBoth(t, fd)
			for range 3 {
				if _, err := unix.Write(fd, []byte("x")); err != nil {
					t.Fatal(err)
				}
			}
			oob := make([]byte, TXOOBSize)
			awaitTX(t, fd, oob)
			if !pollErr(t, fd) {
				// Two stamps remain queued after the first.
				t.Fatal("no POLLERR with transmit stamps queued")
			}
			n := 1
			for {
				_, _, ok, err := ReadTX(fd, oob)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				n++
			}
			if n != 3 {
				t.Errorf("%d stamps for 3 writes", n)
			}
			if pollErr(t, fd) {
				t.Error("POLLERR after the error queue was read empty")
			}
		})
	}
}

// TestReadsAllocateNothing checks that ReadTX and Read, on a socket with
// both kinds of stamps, allocate nothing.
func TestReadsAllocateNothing(t *testing.T) {
	client, server, fd := loopbackPair(t, "tcp4", "127.0.0.1:0")
	enableBoth(t, fd)
	raw, err := client.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	awaitRXStamps(t, raw, server)
	sfd := fdOf(t, server)
	msg, buf, oob, txoob := make([]byte, 300), make([]byte, 512), make([]byte, OOBSize), make([]byte, TXOOBSize)
	var failed error
	// Each run writes 300 bytes each way and reads them back with their
	// stamps, waiting in poll when they are not there yet.
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := unix.Write(fd, msg); err != nil {
			failed = err
			return
		}
		if _, err := unix.Write(sfd, msg); err != nil {
			failed = err
			return
		}
		pfd := [1]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for tx, got := false, 0; !tx || got < len(msg); {
			if !tx {
				_, _, ok, err := ReadTX(fd, txoob)
				tx, failed = ok, err
			}
			if got < len(msg) {
				n, _, _, err := Read(fd, buf, oob)
				got, failed = got+n, err
			}
			if failed != nil {
				return
			}
			if !tx || got < len(msg) {
				_, _ = unix.Poll(pfd[:], 100)
			}
		}
		failed = drainBytes(sfd, buf)
	})
	if failed != nil {
		t.Fatal(failed)
	}
	if allocs != 0 {
		t.Errorf("write, ReadTX and Read allocated %.1f times", allocs)
	}
}

// TestReadTXReportsTruncation checks that an oob too small for a stamp's
// control messages is an error, not a missing stamp.
func TestReadTXReportsTruncation(t *testing.T) {
	_, _, fd := loopbackPair(t, "tcp4", "127.0.0.1:0")
	enableBoth(t, fd)
	if _, err := unix.Write(fd, []byte("x")); err != nil {
		t.Fatal(err)
	}
	pfd := [1]unix.PollFd{{Fd: int32(fd)}}
	if _, err := unix.Poll(pfd[:], 5000); err != nil || pfd[0].Revents&unix.POLLERR == 0 {
		t.Fatalf("no stamp queued: revents %#x, %v", pfd[0].Revents, err)
	}
	if _, _, _, err := ReadTX(fd, make([]byte, 64)); !errors.Is(err, ErrTXTruncated) {
		t.Errorf("ReadTX with 64 bytes of oob: %v, want ErrTXTruncated", err)
	}
}

// TestDisableTXRestartsKeys checks that DisableTX stops the stamps and a
// later EnableTX counts bytes from there again.
func TestDisableTXRestartsKeys(t *testing.T) {
	_, _, fd := loopbackPair(t, "tcp4", "127.0.0.1:0")
	enableBoth(t, fd)
	oob := make([]byte, TXOOBSize)
	if _, err := unix.Write(fd, make([]byte, 100)); err != nil {
		t.Fatal(err)
	}
	awaitTX(t, fd, oob)
	if err := DisableTX(fd); err != nil {
		t.Fatal(err)
	}
	if _, err := unix.Write(fd, make([]byte, 50)); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := ReadTX(fd, oob); ok || err != nil {
		t.Errorf("a stamp after DisableTX (ok %v, err %v)", ok, err)
	}
	if err := EnableTX(fd); err != nil {
		t.Fatal(err)
	}
	if _, err := unix.Write(fd, make([]byte, 20)); err != nil {
		t.Fatal(err)
	}
	if key, _ := awaitTX(t, fd, oob); key != 19 {
		t.Errorf("key %d after re-enabling and 20 bytes, want 19", key)
	}
}

// FuzzSendStamp feeds arbitrary control messages to the parser: it must
// not panic or read outside them.
func FuzzSendStamp(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 160))
	f.Fuzz(func(t *testing.T, oob []byte) {
		sendStamp(oob)
		receiveTime(oob)
	})
}

// TestEnableTXRefusesListener checks that EnableTX fails cleanly on a
// listening socket (the kernel keys TCP stamps by connection bytes).
func TestEnableTXRefusesListener(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	raw, err := ln.(*net.TCPListener).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var eerr error
	if err := raw.Control(func(fd uintptr) { eerr = EnableTX(int(fd)) }); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(eerr, unix.EINVAL) {
		t.Errorf("EnableTX on a listener: %v, want EINVAL", eerr)
	}
}

// BenchmarkWriteTX measures a 300-byte write followed by the ReadTX of
// its stamp against the plain write, on loopback TCP. The benchmark's
// goroutine also drains the peer every 64 writes (both variants alike),
// so no other thread runs. Run with -cpu 1.
func BenchmarkWriteTX(b *testing.B) {
	for _, tx := range []bool{false, true} {
		name := "plain"
		if tx {
			name = "tx"
		}
		b.Run(name, func(b *testing.B) {
			_, server, fd := loopbackPair(b, "tcp4", "127.0.0.1:0")
			if err := Enable(fd); err != nil {
				b.Fatal(err)
			}
			if tx {
				if err := EnableTX(fd); err != nil {
					b.Fatal(err)
				}
			}
			sfd := fdOf(b, server)
			msg, oob, sink := make([]byte, 300), make([]byte, TXOOBSize), make([]byte, 64<<10)
			stamps, late := 0, 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := unix.Write(fd, msg); err != nil {
					b.Fatal(err)
				}
				for n := 0; tx; n++ {
					_, _, ok, err := ReadTX(fd, oob)
					if err != nil {
						b.Fatal(err)
					}
					if !ok {
						if n == 0 {
							late++
						}
						break
					}
					stamps++
				}
				if i%64 == 63 {
					if err := drainBytes(sfd, sink); err != nil {
						b.Fatal(err)
					}
				}
			}
			if tx {
				// A write the kernel held back (TCP autocorking behind a
				// packet still in flight) is stamped when it leaves, after
				// its write call, sometimes together with the next write.
				b.ReportMetric(float64(stamps)/float64(b.N), "stamps/write")
				b.ReportMetric(float64(late)/float64(b.N), "late/write")
			}
		})
	}
}

// drainBytes reads the non-blocking descriptor fd until it would block.
func drainBytes(fd int, sink []byte) error {
	for {
		_, err := unix.Read(fd, sink)
		switch {
		case errors.Is(err, unix.EAGAIN):
			return nil
		case err != nil && !errors.Is(err, unix.EINTR):
			return err
		}
	}
}

// TestWriteStampsOnDemand: only the write after Mark is stamped, its stamp
// lies between the moments around the write, and a write too large for
// the socket to stay writable is sent whole without a stamp.
func TestWriteStampsOnDemand(t *testing.T) {
	client, server, _ := loopbackPair(t, "tcp4", "127.0.0.1:0")
	c, ok := NewConn(client)
	if !ok || !c.EnableTX() {
		t.Fatal("no stamps on a loopback TCP connection")
	}
	go func() { _, _ = io.Copy(io.Discard, server) }()
	if _, err := c.Write([]byte("unmarked")); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.SentAt(0); ok {
		t.Error("a write before Mark was stamped")
	}
	off := c.Mark()
	before := time.Now()
	if _, err := c.Write([]byte("GET / HTTP/1.1\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	at, ok := c.SentAt(off)
	if !ok {
		t.Fatal("the write after Mark has no stamp")
	}
	// The kernel's wall-clock stamp is placed on the monotonic clock: 0.2 ms for that.
	if at.Before(before.Add(-200*time.Microsecond)) || at.After(after.Add(200*time.Microsecond)) {
		t.Errorf("stamp %v outside the write [%v, %v]", at.Sub(before), time.Duration(0), after.Sub(before))
	}
	if _, ok := c.SentAt(off + 100); ok {
		t.Error("a byte never written has a stamp")
	}
	big := make([]byte, 8<<20)
	off = c.Mark()
	if n, err := c.Write(big); err != nil || n != len(big) {
		t.Fatalf("wrote %d of %d: %v", n, len(big), err)
	}
	if _, ok := c.SentAt(off); ok {
		t.Error("a write that fills the socket asked for a stamp")
	}
}
