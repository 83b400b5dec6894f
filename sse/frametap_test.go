package sse

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"testing"
	"time"
)

// frame encodes an HTTP/2 frame header and payload.
func frame(typ, flags byte, stream uint32, payload []byte) []byte {
	b := make([]byte, h2HeaderLen, h2HeaderLen+len(payload))
	b[0], b[1], b[2] = byte(len(payload)>>16), byte(len(payload)>>8), byte(len(payload))
	b[3], b[4] = typ, flags
	binary.BigEndian.PutUint32(b[5:], stream)
	return append(b, payload...)
}

// TestFrameTapStamps checks that the tap gives each DATA frame the stamp of
// the read that held its last byte, by body offset, with padding, frames
// split across reads, several frames in one read, header blocks continued,
// and other streams' and the connection's frames in between.
func TestFrameTapStamps(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	padded := append([]byte{3}, append([]byte("xyz"), 0, 0, 0)...) // 3 data bytes, 3 padding
	reads := []struct {
		b  []byte
		at time.Time
	}{
		{frame(0x4, 0, 0, make([]byte, 6)), at(1)}, // SETTINGS
		{append(frame(h2Headers, 0, 1, []byte("h")), frame(h2Continuation, h2FlagEndHdrs, 1, []byte("c"))...), at(2)},
		{frame(h2Data, 0, 1, []byte("abcd"))[:7], at(3)}, // a frame split across reads
		{frame(h2Data, 0, 1, []byte("abcd"))[7:], at(4)},
		{append(frame(h2Data, 0, 3, []byte("other")), frame(h2Data, h2FlagPadded, 1, padded)...), at(5)},
		{append(frame(h2Data, 0, 1, []byte("12")), frame(h2Data, 0, 1, []byte("34"))...), at(6)},
	}
	tap := &frameTap{streams: map[uint32]*streamStamps{}}
	for _, r := range reads {
		tap.scan(r.b, r.at)
	}
	if h, ok := tap.headersAt(1); !ok || !h.Equal(at(2)) {
		t.Errorf("headers at %v %v, want %v", h, ok, at(2))
	}
	for _, c := range []struct {
		off  int64
		want time.Time
	}{{1, at(4)}, {4, at(4)}, {5, at(5)}, {7, at(5)}, {8, at(6)}, {11, at(6)}} {
		if got, ok := tap.dataAt(1, c.off); !ok || !got.Equal(c.want) {
			t.Errorf("byte %d: %v %v, want %v", c.off, got, ok, c.want)
		}
	}
	if _, ok := tap.dataAt(1, 12); ok {
		t.Error("a stamp past the data received")
	}
	if got, ok := tap.dataAt(3, 5); !ok || !got.Equal(at(5)) {
		t.Errorf("stream 3: %v %v", got, ok)
	}
}

// TestFrameTapBounded checks that the stamps of streams nobody reads do not
// grow without bound.
func TestFrameTapBounded(t *testing.T) {
	tap := &frameTap{streams: map[uint32]*streamStamps{}}
	for id := uint32(1); id < 2*tapStreams; id += 2 {
		tap.scan(frame(h2Data, 0, id, []byte("x")), time.Now())
	}
	for range 2 * tapFrames {
		tap.scan(frame(h2Data, 0, 1<<20, []byte("x")), time.Now())
	}
	if n := len(tap.streams); n > tapStreams {
		t.Errorf("%d streams kept", n)
	}
	if n := len(tap.streams[1<<20].frames); n > tapFrames {
		t.Errorf("%d frames kept", n)
	}
}

// TestH2BodyStamped checks that an HTTP/2 response through the client is
// read through the tap: the body carries its stream's stamps (this guards
// the stream id read from golang.org/x/net/http2 by reflection), the
// stamps are dropped once the body is closed, and the result has a read
// lag.
func TestH2BodyStamped(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kernel receive stamps are read on Linux")
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, textChunk("h2")+doneChunk)
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	c := NewClient(ClientOptions{InsecureSkipTLSVerify: true})
	resp, err := c.hc.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := resp.Body.(*h2Body)
	if !ok {
		t.Fatalf("body %T, want *h2Body", resp.Body)
	}
	if _, err := io.ReadAll(b); err != nil {
		t.Fatal(err)
	}
	if b.arrival().IsZero() || b.id == 0 {
		t.Errorf("stream %d stamped %v", b.id, b.arrival())
	}
	b.Close()
	if _, ok := b.tap.dataAt(b.id, 1); ok {
		t.Error("stamps kept after Close")
	}
	res := c.Do(context.Background(), &Request{URL: srv.URL})
	if res.Failed() || res.ReadLag == nil {
		t.Errorf("%s %s, read lag %v", res.ErrorCode, res.Error, res.ReadLag)
	}
}

// h2Frame is one frame's bytes: header and payload.
func h2Frame(typ byte, stream uint32, payload int) []byte {
	b := make([]byte, h2HeaderLen+payload)
	b[0], b[1], b[2] = byte(payload>>16), byte(payload>>8), byte(payload)
	b[3] = typ
	binary.BigEndian.PutUint32(b[5:], stream)
	return b
}

// TestOutFramesFindHeaders finds the HEADERS frames a client writes after
// its preface, whatever the writes' boundaries.
func TestOutFramesFindHeaders(t *testing.T) {
	var wire []byte
	wire = append(wire, h2Preface...)
	wire = append(wire, h2Frame(0x4, 0, 18)...) // SETTINGS
	wire = append(wire, h2Frame(h2Headers, 1, 40)...)
	wire = append(wire, h2Frame(h2Data, 1, 100)...)
	wire = append(wire, h2Frame(0x8, 0, 4)...) // WINDOW_UPDATE
	wire = append(wire, h2Frame(h2Headers, 3, 0)...)
	wire = append(wire, h2Frame(h2Data, 3, 5)...)
	for _, size := range []int{len(wire), 1, 7, 24, 50} {
		var o outFrames
		o.preface = len(h2Preface)
		var got []uint32
		for b := wire; len(b) > 0; {
			k := min(size, len(b))
			o.scan(b[:k], func(id uint32) { got = append(got, id) })
			b = b[k:]
		}
		if !slices.Equal(got, []uint32{1, 3}) {
			t.Errorf("writes of %d bytes: HEADERS of streams %v, want [1 3]", size, got)
		}
	}
}

// TestFrameTapTakesLateSendStamp checks the HEADERS frame's send time on a
// device that stamps the send after the write returned: the write's offset
// is kept, and sentAt takes the stamp when the response asks for it.
func TestFrameTapTakesLateSendStamp(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kernel transmit stamps are read on Linux")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			_, _ = io.Copy(io.Discard, c)
			c.Close()
		}
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	nc, ok := newStampConn(raw)
	if !ok {
		t.Fatal("no kernel stamps on a loopback TCP connection")
	}
	defer nc.Close()
	sc := nc.(*stampConn)
	tap := newFrameTap(sc, sc)
	before := time.Now()
	off := sc.Mark()
	if _, err := sc.Write(h2Frame(h2Headers, 7, 3)); err != nil {
		t.Fatal(err)
	}
	// The write returned before its stamp came: only its offset is noted.
	tap.mu.Lock()
	tap.streamLocked(7).sentOff, tap.streamLocked(7).marked = off, true
	tap.mu.Unlock()
	at, ok := tap.sentAt(7)
	// A millisecond's room either side: the kernel's clock is mapped to
	// the program's.
	if !ok || at.Before(before.Add(-time.Millisecond)) || at.After(time.Now().Add(time.Millisecond)) {
		t.Fatalf("sentAt = %v %v, want the kernel's send time of the write after %v", at, ok, before)
	}
	if again, ok := tap.sentAt(7); !ok || !again.Equal(at) {
		t.Errorf("a second sentAt = %v %v, want %v", again, ok, at)
	}
	if _, ok := tap.sentAt(9); ok {
		t.Error("a send time for a stream never written")
	}
}
