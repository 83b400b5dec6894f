package pktcap

import (
	"net/netip"
	"testing"
	"time"
)

// newTestStream returns a stream of a capture without a socket, its first
// byte after isn.
func newTestStream(isn uint32) *Stream {
	c := &Capture{fd: -1, streams: map[uint32]*Stream{}, syns: map[flow]uint32{}}
	s := &Stream{c: c}
	s.start(isn)
	return s
}

// ms is a time t milliseconds after a fixed origin.
func ms(t float64) time.Time {
	return time.Unix(1_000_000, 0).Add(time.Duration(t * float64(time.Millisecond)))
}

// split runs Split without the drain (there is no socket).
func split(s *Stream, off uint64, n int) ([]Piece, bool) {
	return s.splitLocked(off, n, nil)
}

// TestStreamPiecesOfALateRead: four segments that arrived 50 ms apart and
// were read in one late read come back as four pieces with their own
// times; a read that ends inside a segment takes that segment's time.
func TestStreamPiecesOfALateRead(t *testing.T) {
	s := newTestStream(1000)
	for i := range 4 {
		s.add(1001+uint32(9*i), 9, ms(float64(50*i)))
	}
	got, ok := split(s, 0, 36)
	want := []Piece{{9, ms(0)}, {18, ms(50)}, {27, ms(100)}, {36, ms(150)}}
	if !ok || !equalPieces(got, want) {
		t.Fatalf("pieces %v %v, want %v", got, ok, want)
	}
	s = newTestStream(1000)
	for i := range 4 {
		s.add(1001+uint32(9*i), 9, ms(float64(50*i)))
	}
	if got, ok := split(s, 0, 12); !ok || !equalPieces(got, []Piece{{9, ms(0)}, {12, ms(50)}}) {
		t.Errorf("a read ending inside the second segment: %v %v", got, ok)
	}
	if got, ok := split(s, 12, 24); !ok || !equalPieces(got, []Piece{{18, ms(50)}, {27, ms(100)}, {36, ms(150)}}) {
		t.Errorf("the next read: %v %v", got, ok)
	}
	if _, ok := split(s, 36, 10); ok {
		t.Error("bytes the capture never saw were given times")
	}
}

// TestStreamInOrder: a segment beyond a gap counts as arrived when the gap
// is filled; a retransmission keeps the first arrival; sequence numbers
// wrap.
func TestStreamInOrder(t *testing.T) {
	s := newTestStream(0xfffffff0) // the first byte's sequence number is 0xfffffff1
	first := uint32(0xfffffff1)
	s.add(first, 10, ms(0))     // [0, 10)
	s.add(first+20, 10, ms(10)) // [20, 30): beyond a gap
	s.add(first, 10, ms(15))    // a retransmission of [0, 10)
	s.add(first+10, 10, ms(40)) // [10, 20) fills the gap, wrapping past 2^32
	got, ok := split(s, 0, 30)
	want := []Piece{{10, ms(0)}, {20, ms(40)}, {30, ms(40)}}
	if !ok || !equalPieces(got, want) {
		t.Fatalf("pieces %v %v, want %v", got, ok, want)
	}
}

// equalPieces compares pieces.
func equalPieces(a, b []Piece) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].End != b[i].End || !a[i].At.Equal(b[i].At) {
			return false
		}
	}
	return true
}

// Flows on the same two ports but other addresses are told apart: each
// segment goes to its own flow's stream, and closing one stream leaves the
// others tracked.
func TestStreamsOnTheSamePorts(t *testing.T) {
	c := &Capture{fd: -1, streams: map[uint32]*Stream{}, syns: map[flow]uint32{}}
	flowOf := func(remote string) flow {
		return flow{remote: netip.MustParseAddrPort(remote), local: netip.MustParseAddrPort("127.0.0.1:40000")}
	}
	keys := []flow{flowOf("127.0.0.1:8080"), flowOf("127.0.0.2:8080"), flowOf("[::1]:8080")}
	var streams []*Stream
	for _, k := range keys {
		s := &Stream{c: c, key: k}
		s.start(1000)
		c.mu.Lock()
		c.trackLocked(s)
		c.mu.Unlock()
		streams = append(streams, s)
	}
	for i, k := range keys {
		c.mu.Lock()
		c.takeLocked(segment{src: k.remote, dst: k.local, seq: 1001, payload: 10 * (i + 1)}, ms(float64(i)))
		c.mu.Unlock()
	}
	for i, s := range streams {
		if want := uint64(10 * (i + 1)); s.edge != want {
			t.Fatalf("stream %d has %d bytes, want %d: a segment went to another flow's stream", i, s.edge, want)
		}
	}
	streams[1].Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, k := range keys {
		if got := c.streamLocked(k); (got == nil) != (i == 1) {
			t.Fatalf("after closing stream 1, the lookup of flow %d gives %v", i, got)
		}
	}
}
