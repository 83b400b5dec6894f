//go:build linux

package pktcap

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestRingFrames reads frames the way the kernel hands them over, in
// memory of the ring's shape: a frame's packet from its network offset,
// the frame given back on release, the ring wrapping after its last
// frame, and a frame whose offsets point past it read as an empty packet,
// not past the ring's end.
func TestRingFrames(t *testing.T) {
	r := &ring{mem: make([]byte, ringFrames*ringFrame), head: ringFrames - 1}
	fill := func(i int, net, snap uint16, sec, nsec uint32) {
		h := r.frame(i)
		h.Net, h.Snaplen, h.Sec, h.Nsec = net, uint32(snap), sec, nsec
		h.Status = unix.TP_STATUS_USER
	}
	fill(ringFrames-1, 60000, 100, 1, 0) // offsets past the frame (and the ring)
	fill(0, 80, 3, 2, 5)
	copy(r.mem[80:], "abc")
	pkt, rx, _, ok := r.next()
	if !ok || len(pkt) != 0 || rx != 1e9 {
		t.Fatalf("a bad frame: %q %d %v, want an empty packet stamped 1 s", pkt, rx, ok)
	}
	r.release()
	if r.frame(ringFrames-1).Status != unix.TP_STATUS_KERNEL || r.head != 0 {
		t.Fatalf("after release: status %d, head %d; want the frame given back and the ring wrapped", r.frame(ringFrames-1).Status, r.head)
	}
	if pkt, rx, _, ok = r.next(); !ok || string(pkt) != "abc" || rx != 2e9+5 {
		t.Fatalf("frame 0: %q %d %v, want abc stamped 2 s 5 ns", pkt, rx, ok)
	}
	r.release()
	if _, _, _, ok = r.next(); ok {
		t.Error("a packet in a frame the kernel did not hand over")
	}
}
