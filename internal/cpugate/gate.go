// Package cpugate bounds how many virtual users run JavaScript at once, so
// that the goroutines reading the network always find a free scheduler
// slot: a runner on n cores runs with GOMAXPROCS n+1 and n JavaScript
// turns, and the extra slot is left to the readers, stamping and parsing,
// however many VUs spin.
//
// A VU holds its turn while its JavaScript runs and gives it up while it
// waits: for its event loop, a sleep, a request. Turns are handed out in
// the order they were asked for.
//
// n+1 is the widest the process runs: Width narrows GOMAXPROCS while the
// load leaves slots idle, which cost CPU, and widens it again as soon as
// the slots are busy or goroutines wait — the n+1st slot, which adds no
// CPU, only when goroutines waited long, and on trial.
package cpugate

import (
	"context"
	"os"
	"runtime"
	"strconv"
)

// Gate hands out a fixed number of turns to run JavaScript. A nil Gate
// hands out turns without bound.
type Gate struct {
	slots chan struct{}
}

// New returns a gate of n turns; nil when n < 1.
func New(n int) *Gate {
	if n < 1 {
		return nil
	}
	return &Gate{slots: make(chan struct{}, n)}
}

// Turn returns one VU's turn at g. A Turn is used by its VU's goroutine
// only.
func (g *Gate) Turn() *Turn {
	if g == nil {
		return nil
	}
	return &Turn{g: g}
}

// Turn is one VU's right to run JavaScript. Its methods do nothing on a
// nil Turn.
type Turn struct {
	g    *Gate
	held bool
}

// Acquire waits for a turn, or until ctx ends: a VU stopped while it
// waits goes on without one, so that its interrupted JavaScript can
// return. Acquiring a turn already held does nothing.
func (t *Turn) Acquire(ctx context.Context) {
	if t == nil || t.held {
		return
	}
	select {
	case t.g.slots <- struct{}{}:
		t.held = true
	case <-ctx.Done():
	}
}

// Release gives the turn back; releasing a turn not held does nothing.
func (t *Turn) Release() {
	if t == nil || !t.held {
		return
	}
	t.held = false
	<-t.g.slots
}

// Held reports whether the turn is held.
func (t *Turn) Held() bool { return t != nil && t.held }

// Blocking runs wait, which blocks without running JavaScript (a request,
// a sleep), with the turn given up, and takes it back before returning.
func (t *Turn) Blocking(ctx context.Context, wait func()) {
	if t == nil || !t.held {
		wait()
		return
	}
	t.Release()
	defer t.Acquire(ctx)
	wait()
}

// startProcs is the GOMAXPROCS the process started with: the CPUs it may
// use (its affinity and container limit), or the user's GOMAXPROCS.
var startProcs = runtime.GOMAXPROCS(0)

// Plan returns the GOMAXPROCS a runner should use and the JavaScript turns
// that leave one scheduler slot to the network: on n usable CPUs, n+1 and
// n. A GOMAXPROCS the user set in the environment is kept, with one turn
// fewer than it (at least one). USEFULLATENCY_JS_TURNS sets the turns (a
// positive number) or turns the gate off ("off": turns 0, the process's
// own GOMAXPROCS).
func Plan() (procs, turns int) {
	procs, turns = startProcs+1, startProcs
	if v, err := strconv.Atoi(os.Getenv("GOMAXPROCS")); err == nil && v > 0 {
		procs, turns = v, max(v-1, 1)
	}
	switch v := os.Getenv("USEFULLATENCY_JS_TURNS"); {
	case v == "off":
		return startProcs, 0
	case v != "":
		if k, err := strconv.Atoi(v); err == nil && k > 0 {
			turns = k
		}
	}
	return procs, turns
}

// Hold runs fn, a callback of a request the VU is blocked in (an event
// handler, a predicate), at once: with a turn if one is free, else
// without. Such callbacks are the reading of a stream the VU waits for, so
// they never queue behind other VUs' JavaScript; they are short. With the
// turn already held it just runs fn.
func (t *Turn) Hold(fn func() error) error {
	if t == nil || t.held {
		return fn()
	}
	select {
	case t.g.slots <- struct{}{}:
		t.held = true
		defer t.Release()
	default:
	}
	return fn()
}
