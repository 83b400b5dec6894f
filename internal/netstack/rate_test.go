package netstack

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestReserve(t *testing.T) {
	t0 := time.Unix(100, 0)
	const iv = 100 * time.Millisecond
	tests := []struct {
		name            string
		now, next       time.Time
		slot, nextAfter time.Time
	}{
		{"idle: now", t0, time.Time{}, t0, t0.Add(iv)},
		{"busy: queued", t0, t0.Add(250 * time.Millisecond), t0.Add(250 * time.Millisecond), t0.Add(350 * time.Millisecond)},
		{"after a pause no burst", t0.Add(time.Hour), t0, t0.Add(time.Hour), t0.Add(time.Hour + iv)},
	}
	for _, tt := range tests {
		slot, next := reserve(tt.now, tt.next, iv)
		if !slot.Equal(tt.slot) || !next.Equal(tt.nextAfter) {
			t.Errorf("%s: reserve = %v, %v; want %v, %v", tt.name, slot, next, tt.slot, tt.nextAfter)
		}
	}
}

func TestRateLimitSpacesConcurrentCallers(t *testing.T) {
	l := NewRateLimit(50) // 20 ms apart
	start := time.Now()
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if err := l.Wait(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// The first starts at once, the tenth 9 intervals later.
	if el := time.Since(start); el < 180*time.Millisecond {
		t.Errorf("10 requests at 50 rps took %v, want at least 180ms", el)
	}
}

func TestRateLimitContext(t *testing.T) {
	l := NewRateLimit(0.5) // 2 s apart
	if err := l.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := l.Wait(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("Wait returned after %v, not when the context ended", el)
	}
	if NewRateLimit(0) != nil || (*RateLimit)(nil).Wait(context.Background()) != nil {
		t.Error("rps 0 is no limit")
	}
}
