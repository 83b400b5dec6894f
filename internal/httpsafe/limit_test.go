package httpsafe

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestBodyLimit reads bodies at, below and above the limit, and one whose
// decoded size runs far ahead of its encoded size.
func TestBodyLimit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		size    int
		max     int64
		encoded int64 // -1: not encoded
		err     string
	}{
		{"below", 99, 100, -1, ""},
		{"at", 100, 100, -1, ""},
		{"above", 101, 100, -1, "100 bytes (maxResponseSize)"},
		{"ratio under floor", RatioFloor, 64 << 20, 1, ""},
		{"ratio above", 2 * RatioFloor, 64 << 20, 1000, "decompression ratio above 100:1"},
		{"ratio fine", 2 * RatioFloor, 64 << 20, 2 * RatioFloor / 50, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &BodyLimit{R: strings.NewReader(strings.Repeat("x", tc.size)), Max: tc.max}
			if tc.encoded >= 0 {
				b.Encoded = func() int64 { return tc.encoded }
			}
			var out bytes.Buffer
			_, err := io.Copy(&out, b)
			if tc.err == "" && err != nil || tc.err != "" && (!errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("err %v, want %q", err, tc.err)
			}
			if int64(out.Len()) > tc.max {
				t.Errorf("handed out %d bytes past a limit of %d", out.Len(), tc.max)
			}
		})
	}
}

// TestExpansionCountsEveryStage checks that the ratio guard adds up what
// every decoding stage hands out: a middle stage that expands the body
// trips it even when the last stage's output is small.
func TestExpansionCountsEveryStage(t *testing.T) {
	for _, tc := range []struct {
		name         string
		middle, last int
		encoded      int64
		trips        bool
	}{
		{"one honest stage", 0, 2 * RatioFloor, 2 * RatioFloor / 10, false},
		{"a middle stage expanding 200:1", 2 * RatioFloor, 100, 2 * RatioFloor / 200, true},
		{"stages adding up past 100:1", RatioFloor, RatioFloor, 2 * RatioFloor / 150, true},
		{"stages adding up under 100:1", RatioFloor, RatioFloor, 2 * RatioFloor / 50, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &Expansion{Encoded: func() int64 { return tc.encoded }}
			// The middle stage is read to its end by the last one, which
			// then hands out its own bytes.
			middle := e.Stage(strings.NewReader(strings.Repeat("m", tc.middle)))
			last := e.Stage(io.MultiReader(readerFunc(func(p []byte) (int, error) {
				_, err := io.Copy(io.Discard, middle)
				if err != nil {
					return 0, err
				}
				return 0, io.EOF
			}), strings.NewReader(strings.Repeat("l", tc.last))))
			_, err := io.Copy(io.Discard, last)
			if tripped := errors.Is(err, ErrTooLarge) && errors.Is(e.Err(), ErrTooLarge); tripped != tc.trips {
				t.Fatalf("err %v, guard %v after %d bytes; want tripped %v", err, e.Err(), e.Total(), tc.trips)
			}
			if tc.trips && !strings.Contains(err.Error(), "decompression ratio above 100:1") {
				t.Fatalf("err %v", err)
			}
		})
	}
}

// readerFunc is a function as an io.Reader.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
