package sockstamp

import "testing"

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
