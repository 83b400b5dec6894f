package sse

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestWireStateMoves drives every pair of states (and one past the last)
// through wireConn.to: the moves of the documented table succeed, every
// other one panics and leaves the state as it was.
func TestWireStateMoves(t *testing.T) {
	legal := map[[2]wireState]bool{
		{wireIdle, wireSending}:           true,
		{wireIdle, wireClosed}:            true,
		{wireSending, wireSendingReading}: true,
		{wireSending, wireReading}:        true,
		{wireSending, wireClosed}:         true,
		{wireSendingReading, wireReading}: true,
		{wireSendingReading, wireParked}:  true,
		{wireReading, wireIdle}:           true,
		{wireReading, wireClosed}:         true,
		{wireParked, wireIdle}:            true,
		{wireParked, wireClosed}:          true,
	}
	bogus := wireClosed + 1
	for from := wireIdle; from <= bogus; from++ {
		for next := wireIdle; next <= bogus; next++ {
			want := legal[[2]wireState{from, next}]
			t.Run(fmt.Sprintf("%v→%v", from, next), func(t *testing.T) {
				c := &wireConn{state: from}
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
	for s := wireIdle; s <= wireClosed; s++ {
		if name := s.String(); name == "" || strings.HasPrefix(name, "wireState(") {
			t.Errorf("state %d has no name", s)
		}
	}
	if got := (wireClosed + 1).String(); got != "wireState(6)" {
		t.Errorf("unknown state prints %q", got)
	}
}

// pooledStates returns the states of the connections c's pool keeps.
func pooledStates(c *Client) []wireState {
	c.wire.mu.Lock()
	var cs []*wireConn
	for _, idle := range c.wire.idle {
		cs = append(cs, idle...)
	}
	c.wire.mu.Unlock()
	var states []wireState
	for _, wc := range cs {
		wc.mu.Lock()
		states = append(states, wc.state)
		wc.mu.Unlock()
	}
	return states
}

// TestReactorAnswerBeforeRequestWritten checks the parked path: the server
// answers as soon as it has the request's head and only then reads its
// large body, so the response ends while the request is still being
// written. The sender releases the connection after its write, the pool
// keeps it idle, and the next request reuses it.
func TestReactorAnswerBeforeRequestWritten(t *testing.T) {
	needReactor(t)
	url, conns := rawServerConns(t, func(_ int, c net.Conn, r *bufio.Reader) {
		for {
			req, err := http.ReadRequest(r)
			if err != nil {
				return
			}
			body := "data: early\n\n"
			if _, err := fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(body), body); err != nil {
				return
			}
			if _, err := io.Copy(io.Discard, req.Body); err != nil {
				return
			}
		}
	})
	c := NewClient(ClientOptions{})
	big := make([]byte, 16<<20) // more than loopback's socket buffers hold
	for i := range 2 {
		res := c.Do(context.Background(), &Request{URL: url, Dialect: DialectRaw, Method: http.MethodPost, Body: big})
		if res.Failed() || res.Text != "early" {
			t.Fatalf("request %d: %s %s text %q", i, res.ErrorCode, res.Error, res.Text)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections, want 1 (the first one reused)", n)
	}
	if got := pooledStates(c); len(got) != 1 || got[0] != wireIdle {
		t.Errorf("pooled connections in states %v, want one idle", got)
	}
}
