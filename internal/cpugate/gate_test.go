package cpugate

import (
	"context"
	"testing"
)

// TestTurnsAreBounded: n turns are held at once; the next waits until one
// is given back.
func TestTurnsAreBounded(t *testing.T) {
	g := New(2)
	a, b, c := g.Turn(), g.Turn(), g.Turn()
	ctx := context.Background()
	a.Acquire(ctx)
	b.Acquire(ctx)
	got := make(chan struct{})
	go func() {
		c.Acquire(ctx)
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("a third turn was handed out while two were held")
	default:
	}
	a.Release()
	<-got
	if !c.Held() || a.Held() || !b.Held() {
		t.Fatalf("held: a %v b %v c %v, want false true true", a.Held(), b.Held(), c.Held())
	}
}

// TestAcquireEndsWithTheContext: a VU stopped while it waits goes on
// without a turn, and giving back a turn it does not hold is harmless.
func TestAcquireEndsWithTheContext(t *testing.T) {
	g := New(1)
	a, b := g.Turn(), g.Turn()
	a.Acquire(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b.Acquire(ctx)
	if b.Held() {
		t.Fatal("a canceled wait took a turn")
	}
	b.Release()
	a.Release()
	b.Acquire(context.Background()) // the slot a gave back is free
	if !b.Held() {
		t.Fatal("no turn after the holder gave it back")
	}
}

// TestBlockingLendsTheTurn: while a VU blocks, another takes its turn; a
// callback inside the wait runs at once, with a turn when one is free.
func TestBlockingLendsTheTurn(t *testing.T) {
	g := New(1)
	a, b := g.Turn(), g.Turn()
	ctx := context.Background()
	a.Acquire(ctx)
	a.Blocking(ctx, func() {
		b.Acquire(ctx) // would wait forever if a kept its turn
		_ = a.Hold(func() error {
			if a.Held() {
				t.Error("a callback took a turn another VU holds")
			}
			return nil
		})
		b.Release()
		_ = a.Hold(func() error {
			if !a.Held() {
				t.Error("a callback ran without the free turn")
			}
			return nil
		})
		if a.Held() {
			t.Error("the callback kept the turn")
		}
	})
	if !a.Held() {
		t.Fatal("the turn was not taken back after the wait")
	}
	if err := a.Hold(func() error { return nil }); err != nil || !a.Held() {
		t.Fatal("Hold with the turn held gave it up")
	}
}

// TestNilGate: no gate hands out turns without bound.
func TestNilGate(t *testing.T) {
	var g *Gate
	if g.Turn() != nil || New(0) != nil {
		t.Fatal("a gate of no turns is not nil")
	}
	var turn *Turn
	turn.Acquire(context.Background())
	turn.Release()
	ran := false
	turn.Blocking(context.Background(), func() { ran = true })
	if !ran || turn.Held() {
		t.Fatal("a nil turn did not just run the wait")
	}
}

// TestPlan: one scheduler slot more than turns, the user's GOMAXPROCS
// kept, and the variable that sets or removes the turns.
func TestPlan(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	t.Setenv("USEFULLATENCY_JS_TURNS", "")
	if p, n := Plan(); p != startProcs+1 || n != startProcs {
		t.Errorf("default: %d procs %d turns, want %d and %d", p, n, startProcs+1, startProcs)
	}
	t.Setenv("GOMAXPROCS", "5")
	if p, n := Plan(); p != 5 || n != 4 {
		t.Errorf("GOMAXPROCS=5: %d procs %d turns, want 5 and 4", p, n)
	}
	t.Setenv("GOMAXPROCS", "1")
	if p, n := Plan(); p != 1 || n != 1 {
		t.Errorf("GOMAXPROCS=1: %d procs %d turns, want 1 and 1", p, n)
	}
	t.Setenv("USEFULLATENCY_JS_TURNS", "3")
	if _, n := Plan(); n != 3 {
		t.Errorf("USEFULLATENCY_JS_TURNS=3: %d turns", n)
	}
	t.Setenv("USEFULLATENCY_JS_TURNS", "off")
	if p, n := Plan(); p != startProcs || n != 0 {
		t.Errorf("off: %d procs %d turns, want %d and 0", p, n, startProcs)
	}
}
