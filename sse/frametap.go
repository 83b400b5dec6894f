package sse

import (
	"crypto/tls"
	"encoding/binary"
	"net"
	"sync"
	"time"
)

// Bounds of a frameTap's memory.
const (
	// tapStreams is how many streams a connection keeps stamps for; the
	// oldest are dropped beyond it (their readers fall back to the
	// connection's latest stamp).
	tapStreams = 1024
	// tapFrames is how many unread DATA frames a stream keeps stamps for.
	tapFrames = 4096
)

// HTTP/2 frame types and flags the tap reads (RFC 9113, section 6).
const (
	h2Data         = 0x0
	h2Headers      = 0x1
	h2Continuation = 0x9
	h2FlagEndHdrs  = 0x4
	h2FlagPadded   = 0x8
	h2HeaderLen    = 9
)

// frameTap sits between the TLS client and the HTTP/2 transport and
// watches the frames the server sends, without changing a byte. Each
// frame is stamped with the stamp of the TLS read that held its last byte
// — the frame is usable only from then on — which is the stampConn's
// latest stamp when the TLS read returns (crypto/tls reads the network
// only until it holds a whole record). The stamps of a stream's DATA
// frames are kept by the stream's byte offset, so the body reader maps the
// bytes it hands out back to the frame that delivered them (dataAt).
type frameTap struct {
	net.Conn // the TLS client
	sc       *stampConn

	// The frame being read, on the transport's read goroutine only.
	hdr     [h2HeaderLen]byte
	hdrN    int
	left    int // payload bytes of the frame still to come
	padLen  int // -1 until the pad length of a padded DATA frame is read
	padded  bool
	typ     byte
	flags   byte
	stream  uint32
	payload int

	// The frames the client writes and the streams whose HEADERS begin in
	// the current write, on the writer holding the HTTP/2 connection's
	// write lock.
	out    outFrames
	outIDs []uint32

	mu      sync.Mutex
	streams map[uint32]*streamStamps
	oldest  []uint32 // stream ids in the order they appeared
}

// streamStamps are the stamps of one stream's frames.
type streamStamps struct {
	sent    time.Time    // the kernel sent the request's HEADERS frame
	sentOff uint64       // the offset of that frame's write, its stamp not yet taken
	marked  bool         // sentOff holds a write's offset
	headers time.Time    // the last header block before the first DATA
	frames  []frameStamp // DATA frames not yet read past
	total   int64        // DATA payload bytes so far
}

// frameStamp is the end offset of a DATA frame in its stream's body and
// the stamp of its last byte.
type frameStamp struct {
	end int64
	at  time.Time
}

// newFrameTap taps tc, a TLS client over sc.
func newFrameTap(tc net.Conn, sc *stampConn) *frameTap {
	t := &frameTap{Conn: tc, sc: sc, streams: map[uint32]*streamStamps{}, out: outFrames{preface: len(h2Preface)}}
	sc.mu.Lock()
	sc.tap = t
	sc.mu.Unlock()
	return t
}

// Read implements net.Conn: it reads the TLS client and notes the frames
// the bytes complete.
func (t *frameTap) Read(p []byte) (int, error) {
	n, err := t.Conn.Read(p)
	if n > 0 {
		t.scan(p[:n], t.sc.at())
	}
	return n, err
}

// Write implements net.Conn: it writes to the TLS client and, when
// HEADERS frames begin in p, notes when the kernel sent them: the
// transmit stamp of the first TLS record of the write (see
// stampConn.mark). A device that queues the send stamps it after the write
// returned: the write's offset is kept and sentAt takes the stamp then.
func (t *frameTap) Write(p []byte) (int, error) {
	t.outIDs = t.outIDs[:0]
	t.out.scan(p, func(id uint32) { t.outIDs = append(t.outIDs, id) })
	if len(t.outIDs) == 0 {
		return t.Conn.Write(p)
	}
	off := t.sc.Mark()
	n, err := t.Conn.Write(p)
	at, ok := t.sc.SentAt(off)
	t.mu.Lock()
	for _, id := range t.outIDs {
		s := t.streamLocked(id)
		switch {
		case !s.sent.IsZero() || s.marked:
		case ok:
			s.sent = at
		default:
			s.sentOff, s.marked = off, true
		}
	}
	t.mu.Unlock()
	return n, err
}

// sentAt returns when the kernel sent the HEADERS frame of stream id. A
// stamp that had not come when the frame was written is taken now: the
// response began, so the request left long ago.
func (t *frameTap) sentAt(id uint32) (time.Time, bool) {
	t.mu.Lock()
	s := t.streams[id]
	if s == nil {
		t.mu.Unlock()
		return time.Time{}, false
	}
	sent, off, marked := s.sent, s.sentOff, s.marked
	t.mu.Unlock()
	if !sent.IsZero() {
		return sent, true
	}
	if !marked {
		return time.Time{}, false
	}
	at, ok := t.sc.SentAt(off)
	if ok {
		t.mu.Lock()
		s.sent, s.marked = at, false
		t.mu.Unlock()
	}
	return at, ok
}

// scan walks the frames in b, whose last byte arrived at at.
func (t *frameTap) scan(b []byte, at time.Time) {
	for len(b) > 0 {
		if t.hdrN < h2HeaderLen {
			k := copy(t.hdr[t.hdrN:], b)
			t.hdrN += k
			b = b[k:]
			if t.hdrN == h2HeaderLen {
				t.startFrame()
				if t.left == 0 {
					t.endFrame(at)
				}
			}
			continue
		}
		k := min(len(b), t.left)
		if t.typ == h2Data && t.padded && t.padLen < 0 && k > 0 {
			t.padLen = int(b[0])
		}
		t.left -= k
		b = b[k:]
		if t.left == 0 {
			t.endFrame(at)
		}
	}
}

// startFrame decodes the frame header just read.
func (t *frameTap) startFrame() {
	t.payload = int(t.hdr[0])<<16 | int(t.hdr[1])<<8 | int(t.hdr[2])
	t.left = t.payload
	t.typ, t.flags = t.hdr[3], t.hdr[4]
	t.stream = binary.BigEndian.Uint32(t.hdr[5:]) & 0x7fffffff
	t.padded, t.padLen = t.flags&h2FlagPadded != 0, -1
}

// endFrame records the frame just completed at at and starts the next.
func (t *frameTap) endFrame(at time.Time) {
	t.hdrN = 0
	if t.stream == 0 {
		return
	}
	switch t.typ {
	case h2Data:
		data := t.payload
		if t.padded {
			data -= 1 + max(t.padLen, 0)
		}
		if data > 0 {
			t.addData(t.stream, int64(data), at)
		}
	case h2Headers, h2Continuation:
		if t.flags&h2FlagEndHdrs != 0 {
			t.addHeaders(t.stream, at)
		}
	}
}

// streamLocked returns the stamps of stream id, created on first sight;
// t.mu is held.
func (t *frameTap) streamLocked(id uint32) *streamStamps {
	s := t.streams[id]
	if s == nil {
		s = &streamStamps{}
		t.streams[id] = s
		t.oldest = append(t.oldest, id)
		for len(t.oldest) > tapStreams {
			delete(t.streams, t.oldest[0])
			t.oldest = t.oldest[1:]
		}
	}
	return s
}

// addHeaders notes a header block of stream id completed at at.
func (t *frameTap) addHeaders(id uint32, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.streamLocked(id); s.total == 0 {
		s.headers = at
	}
}

// addData notes a DATA frame of n body bytes of stream id completed at at.
func (t *frameTap) addData(id uint32, n int64, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.streamLocked(id)
	s.total += n
	if len(s.frames) >= tapFrames {
		s.frames = s.frames[1:]
	}
	s.frames = append(s.frames, frameStamp{end: s.total, at: at})
}

// headersAt returns when stream id's response headers were complete.
func (t *frameTap) headersAt(id uint32) (time.Time, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.streams[id]
	if s == nil || s.headers.IsZero() {
		return time.Time{}, false
	}
	return s.headers, true
}

// dataAt returns the stamp of the DATA frame of stream id that holds body
// byte off-1 (the last of the first off bytes), forgetting the frames
// before it.
func (t *frameTap) dataAt(id uint32, off int64) (time.Time, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.streams[id]
	if s == nil {
		return time.Time{}, false
	}
	i := 0
	for i < len(s.frames) && s.frames[i].end < off {
		i++
	}
	s.frames = s.frames[i:]
	if len(s.frames) == 0 {
		return time.Time{}, false
	}
	return s.frames[0].at, true
}

// frameEnd returns the end offset, in stream id's body, of the DATA frame
// that holds body byte off.
func (t *frameTap) frameEnd(id uint32, off int64) (int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.streams[id]
	if s == nil {
		return 0, false
	}
	for _, f := range s.frames {
		if f.end > off {
			return f.end, true
		}
	}
	return 0, false
}

// forget drops the stamps of stream id, once its body is read.
func (t *frameTap) forget(id uint32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.streams, id)
}

// NetConn returns the TLS client the tap reads.
func (t *frameTap) NetConn() net.Conn { return t.Conn }

// ConnectionState returns the TLS client's state, for Response.TLS.
func (t *frameTap) ConnectionState() tls.ConnectionState {
	if cs, ok := t.Conn.(interface{ ConnectionState() tls.ConnectionState }); ok {
		return cs.ConnectionState()
	}
	return tls.ConnectionState{}
}

// h2Preface is the client's connection preface (RFC 9113, section 3.4),
// written before its first frame.
const h2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// outFrames follows the frames a client writes, to find where each
// stream's HEADERS frame begins.
type outFrames struct {
	preface int // preface bytes still to come
	hdr     [h2HeaderLen]byte
	hdrN    int
	left    int // payload bytes of the current frame still to come
}

// scan walks the bytes b written next and calls headers with the stream
// of every HEADERS frame whose header ends in b.
func (o *outFrames) scan(b []byte, headers func(id uint32)) {
	if o.preface > 0 {
		k := min(len(b), o.preface)
		o.preface -= k
		b = b[k:]
	}
	for len(b) > 0 {
		if o.left > 0 {
			k := min(len(b), o.left)
			o.left -= k
			b = b[k:]
			continue
		}
		k := copy(o.hdr[o.hdrN:], b)
		o.hdrN += k
		b = b[k:]
		if o.hdrN < h2HeaderLen {
			continue
		}
		o.hdrN = 0
		o.left = int(o.hdr[0])<<16 | int(o.hdr[1])<<8 | int(o.hdr[2])
		if id := binary.BigEndian.Uint32(o.hdr[5:]) & 0x7fffffff; o.hdr[3] == h2Headers && id != 0 {
			headers(id)
		}
	}
}
