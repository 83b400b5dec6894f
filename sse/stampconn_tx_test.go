package sse

import (
	"encoding/binary"
	"slices"
	"testing"
)

// TestTxEnd maps a transmit stamp's 32-bit key back to the write's end on
// the connection, across the counter's wrap.
func TestTxEnd(t *testing.T) {
	for _, tc := range []struct {
		written uint64
		key     uint32
		want    uint64
	}{
		{300, 299, 300},                       // the latest write
		{800, 299, 300},                       // an earlier one
		{1<<32 + 100, 99, 1<<32 + 100},        // after the wrap
		{1<<32 + 100, 1<<32 - 51, 1<<32 - 50}, // before the wrap
	} {
		if got := txEnd(tc.written, tc.key); got != tc.want {
			t.Errorf("txEnd(%d, %d) = %d, want %d", tc.written, tc.key, got, tc.want)
		}
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
