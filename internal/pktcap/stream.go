package pktcap

import (
	"net/netip"
	"time"
)

// Bounds of a Stream's memory.
const (
	// keepArrivals is how many arrivals a stream keeps that its reader has
	// not read past; the oldest go first.
	keepArrivals = 1 << 14
	// keepAhead is how many segments beyond a gap (lost or reordered
	// before them) a stream keeps until the gap is filled.
	keepAhead = 256
)

// Piece is the end of a run of a stream's bytes (an offset from the
// stream's first byte) and when they were all there to read.
type Piece struct {
	End uint64
	At  time.Time
}

// span is a segment's bytes [start, end) of the stream and when it passed.
type span struct {
	start, end uint64
	at         time.Time
}

// Stream is one tracked connection's received byte stream: the offsets at
// which its bytes became readable in order, and when. Its fields are held
// under the Capture's mutex.
type Stream struct {
	c        *Capture
	key      flow
	next     *Stream // the next stream on the same ports (Capture.streams)
	based    bool
	base     uint32  // sequence number of the stream's first byte
	edge     uint64  // bytes received in order so far
	arrivals []Piece // edge's advances the reader has not read past
	ahead    []span  // segments received beyond a gap
}

// flow names a connection's receiving direction: from remote to local.
type flow struct{ remote, local netip.AddrPort }

// portKey is the flow's two ports in one number.
func (k flow) portKey() uint32 { return uint32(k.remote.Port())<<16 | uint32(k.local.Port()) }

// start sets the stream's first byte: the one after the server's SYN. A
// SYN seen again (a retransmission, or the same packet seen on its way
// out and in on loopback) changes nothing.
func (s *Stream) start(isn uint32) {
	if !s.based {
		s.based, s.base = true, isn+1
	}
}

// offset maps a sequence number to a stream offset, the one nearest the
// bytes received so far.
func (s *Stream) offset(seq uint32) uint64 {
	rel := seq - s.base
	d := int64(int32(rel - uint32(s.edge)))
	if d < 0 && uint64(-d) > s.edge {
		return 0
	}
	return uint64(int64(s.edge) + d)
}

// add takes one data segment that passed at at. Bytes become readable in
// order: a segment beyond a gap waits until the gap is filled, and then
// its bytes count as arrived with the segment that filled it; bytes seen
// before (a retransmission) keep their first arrival.
func (s *Stream) add(seq uint32, n int, at time.Time) {
	if !s.based || n <= 0 {
		return
	}
	start := s.offset(seq)
	end := start + uint64(n)
	if end <= s.edge {
		return
	}
	if start > s.edge {
		if len(s.ahead) < keepAhead {
			s.ahead = append(s.ahead, span{start, end, at})
		}
		return
	}
	s.advance(end, at)
	for filled := true; filled; {
		filled = false
		for i := 0; i < len(s.ahead); i++ {
			sp := s.ahead[i]
			if sp.start > s.edge {
				continue
			}
			if sp.end > s.edge {
				s.advance(sp.end, at)
			}
			s.ahead = append(s.ahead[:i], s.ahead[i+1:]...)
			i--
			filled = true
		}
	}
}

// advance moves the in-order edge to end, reached at at.
func (s *Stream) advance(end uint64, at time.Time) {
	s.edge = end
	if len(s.arrivals) == keepArrivals {
		s.arrivals = append(s.arrivals[:0], s.arrivals[1:]...)
	}
	if n := len(s.arrivals); n > 0 && s.arrivals[n-1].At.After(at) {
		at = s.arrivals[n-1].At // never back in time
	}
	s.arrivals = append(s.arrivals, Piece{End: end, At: at})
}

// Split appends to dst the pieces of the bytes [off, off+n) of the stream
// a read returned: the ends of the runs of bytes that arrived together
// and when, the last piece ending at off+n (the arrival of the segment
// holding the read's last byte). ok is false when the capture has not
// seen all of those bytes (they came before it tracked the connection,
// or the packet socket dropped segments); dst is then returned as it was.
// Arrivals up to off are forgotten: reads come in order.
func (s *Stream) Split(off uint64, n int, dst []Piece) (pieces []Piece, ok bool) {
	s.c.drain()
	return s.splitLocked(off, n, dst)
}

// splitLocked is Split after the drain.
func (s *Stream) splitLocked(off uint64, n int, dst []Piece) (pieces []Piece, ok bool) {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	i := 0
	for i < len(s.arrivals) && s.arrivals[i].End <= off {
		i++
	}
	if i > 0 {
		// Moved to the front rather than resliced: the array keeps its
		// capacity, and the next arrival's append does not allocate.
		s.arrivals = append(s.arrivals[:0], s.arrivals[i:]...)
	}
	end := off + uint64(n)
	if n <= 0 || len(s.arrivals) == 0 || s.edge < end {
		return dst, false
	}
	pieces = dst
	for _, a := range s.arrivals {
		if a.End >= end {
			return append(pieces, Piece{End: end, At: a.At}), true
		}
		pieces = append(pieces, a)
	}
	return dst, false // not reached: edge ≥ end
}

// Close stops tracking the connection.
func (s *Stream) Close() {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	if s.c.streamLocked(s.key) == s {
		s.c.untrackLocked(s.key)
	}
}
