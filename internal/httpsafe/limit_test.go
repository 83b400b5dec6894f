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
