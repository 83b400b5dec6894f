//go:build linux

package pktcap

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// openCapture opens a capture for a test; without CAP_NET_RAW (not root)
// the test is skipped with the reason, as root it must open.
func openCapture(t *testing.T) *Capture {
	t.Helper()
	c, err := Open()
	if errors.Is(err, ErrNotPermitted) && os.Geteuid() != 0 {
		t.Skip("opening a packet socket needs CAP_NET_RAW (run as root)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestLateReadSplitsBySegment: a server answers a client's byte with four
// 9-byte events 50 ms apart; the client reads them in one read after all
// arrived. The socket stamps the read with the last segment's time; the
// capture gives each event the time its own segment passed, on IPv4 and
// IPv6.
func TestLateReadSplitsBySegment(t *testing.T) {
	c := openCapture(t)
	for _, network := range []struct{ name, addr string }{{"tcp4", "127.0.0.1:0"}, {"tcp6", "[::1]:0"}} {
		t.Run(network.name, func(t *testing.T) {
			ln, err := net.Listen(network.name, network.addr)
			if err != nil {
				if network.name == "tcp6" {
					t.Skipf("no IPv6 loopback: %v", err)
				}
				t.Fatal(err)
			}
			defer ln.Close()
			sent := make(chan []time.Time, 1)
			go func() {
				conn, err := ln.Accept()
				if err != nil {
					sent <- nil
					return
				}
				defer conn.Close()
				if _, err := conn.Read(make([]byte, 1)); err != nil { // the request: as in HTTP, the client speaks first
					sent <- nil
					return
				}
				var at []time.Time
				for i := range 4 {
					if i > 0 {
						time.Sleep(50 * time.Millisecond) // the pace under test: events 50 ms apart
					}
					at = append(at, time.Now())
					if _, err := conn.Write([]byte("data: ab\n")); err != nil {
						break
					}
				}
				sent <- at
				_, _ = io.Copy(io.Discard, conn)
			}()
			conn, err := net.Dial(network.name, ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			seg0, _ := c.Stats()
			s, ok := c.Track(conn)
			if !ok {
				t.Fatal("a TCP connection was not tracked")
			}
			defer s.Close()
			if _, err := conn.Write([]byte{'?'}); err != nil {
				t.Fatal(err)
			}
			at := <-sent // all four were written: the read below is late for the first three
			if len(at) != 4 {
				t.Fatal("the server failed")
			}
			buf := make([]byte, 64)
			n, err := io.ReadAtLeast(conn, buf, 36)
			if err != nil || n != 36 {
				t.Fatalf("read %d bytes: %v", n, err)
			}
			pieces, ok := s.Split(0, n, nil)
			if !ok || len(pieces) != 4 {
				t.Fatalf("pieces %v, ok %v: want four", pieces, ok)
			}
			// A segment passes the device during its write or, when the
			// kernel defers it on a busy machine, later; never before (0.5 ms
			// for placing the kernel's wall-clock stamp on the monotonic
			// clock), and before the next event is written.
			for i, p := range pieces {
				if p.End != uint64(9*(i+1)) {
					t.Errorf("piece %d ends at %d, want %d", i, p.End, 9*(i+1))
				}
				if p.At.Before(at[i].Add(-500 * time.Microsecond)) {
					t.Errorf("event %d stamped %v before its write", i, at[i].Sub(p.At))
				}
				if i+1 < len(at) && !p.At.Before(at[i+1]) {
					t.Errorf("event %d stamped %v after the next event's write", i, p.At.Sub(at[i+1]))
				}
			}
			// Each event is one segment, seen once: on its way in (on
			// loopback a packet also passes on its way out, not captured).
			if seg, drops := c.Stats(); seg-seg0 != 4 || drops != 0 {
				t.Errorf("stats: %d segments, %d drops; want 4 and 0", seg-seg0, drops)
			}
		})
	}
}

// TestSplitAfterClose: a connection still read after its capture closed
// gets no pieces, and the closed ring is not touched.
func TestSplitAfterClose(t *testing.T) {
	c := openCapture(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s, ok := c.Track(conn)
	if !ok {
		t.Fatal("a TCP connection was not tracked")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if pieces, ok := s.Split(0, 10, nil); ok || len(pieces) != 0 {
		t.Errorf("after Close: pieces %v, ok %v; want none", pieces, ok)
	}
}
