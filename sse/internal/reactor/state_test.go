package reactor

import (
	"fmt"
	"strings"
	"testing"
)

// TestWireStateMoves drives every pair of states (and one past the last)
// through Conn.to: the moves of the documented table succeed, every
// other one panics and leaves the state as it was.
func TestWireStateMoves(t *testing.T) {
	legal := map[[2]State]bool{
		{Idle, Sending}:           true,
		{Idle, Closed}:            true,
		{Sending, SendingReading}: true,
		{Sending, Reading}:        true,
		{Sending, Closed}:         true,
		{SendingReading, Reading}: true,
		{SendingReading, Parked}:  true,
		{Reading, Idle}:           true,
		{Reading, Closed}:         true,
		{Parked, Idle}:            true,
		{Parked, Closed}:          true,
	}
	bogus := Closed + 1
	for from := Idle; from <= bogus; from++ {
		for next := Idle; next <= bogus; next++ {
			want := legal[[2]State{from, next}]
			t.Run(fmt.Sprintf("%v→%v", from, next), func(t *testing.T) {
				c := &Conn{state: from}
				panicked := func() (p bool) {
					defer func() { p = recover() != nil }()
					c.to(next)
					return false
				}()
				switch {
				case want && (panicked || c.state != next):
					t.Errorf("legal move refused: panicked %v, state %v", panicked, c.state)
				case !want && (!panicked || c.state != from):
					t.Errorf("illegal move allowed: panicked %v, state %v", panicked, c.state)
				}
			})
		}
	}
	if n := len(legal); n != 11 {
		t.Fatalf("%d legal moves in the test's table", n)
	}
}

// TestWireStateNames checks that every state has a name and an unknown
// one still prints.
func TestWireStateNames(t *testing.T) {
	for s := Idle; s <= Closed; s++ {
		if name := s.String(); name == "" || strings.HasPrefix(name, "State(") {
			t.Errorf("state %d has no name", s)
		}
	}
	if got := (Closed + 1).String(); got != "State(6)" {
		t.Errorf("unknown state prints %q", got)
	}
}
