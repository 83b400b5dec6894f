package k6timers

import (
	"container/heap"
	"math"
	"testing"
	"time"
)

func TestDelay(t *testing.T) {
	cases := []struct {
		name string
		ms   float64
		want time.Duration
	}{
		{"zero", 0, 0},
		{"negative is 0", -5, 0},
		{"NaN is 0", math.NaN(), 0},
		{"fraction kept", 1.5, 1500 * time.Microsecond},
		{"whole ms", 250, 250 * time.Millisecond},
		{"past 2^31-1 ms is capped", 1e12, maxDelay},
		{"+Inf is capped", math.Inf(1), maxDelay},
	}
	for _, tc := range cases {
		if got := Delay(tc.ms); got != tc.want {
			t.Errorf("%s: Delay(%v) = %v, want %v", tc.name, tc.ms, got, tc.want)
		}
	}
}

// TestQueueOrder checks that timers due at the same instant leave the
// queue by sequence and that popDue stops at the first timer not due.
func TestQueueOrder(t *testing.T) {
	base := time.Unix(0, 0)
	var q2 queue
	for i, at := range []time.Duration{5, 0, 5, 0, 9} {
		heap.Push(&q2, &timer{id: int64(i), at: base.Add(at), seq: uint64(i)})
	}
	var got []int64
	for _, tm := range q2.popDue(base.Add(5)) {
		got = append(got, tm.id)
	}
	want := []int64{1, 3, 0, 2}
	if len(got) != len(want) {
		t.Fatalf("popDue = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("popDue = %v, want %v", got, want)
		}
	}
	if h := q2.head(); h == nil || h.id != 4 {
		t.Fatalf("head after popDue = %v, want timer 4", h)
	}
}
