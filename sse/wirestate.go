package sse

import "fmt"

// wireState is where a wireConn is in its life. Every change goes through
// wireConn.to, under the connection's mu, and only along these edges:
//
//	from            to              when
//	idle            sending         attach: an exchange takes the connection
//	idle            closed          the pool's reaper or closeIdle closes it, or the
//	                                server closed it (or sent unasked bytes) while idle
//	sending         sendingReading  the parser runs before the write ends (response
//	                                bytes or an interruption arrived)
//	sending         reading         the request is written
//	sending         closed          the write failed before any response was parsed
//	sendingReading  reading         the write ended (done or failed: the parser goes on)
//	sendingReading  parked          the exchange ended during the write
//	reading         idle            release: the exchange ended, the pool keeps it
//	reading         closed          release: not reusable, or the pool is full
//	parked          idle, closed    the write ended: the sender releases it, as above
//	closed          -               final
//
// Where the parser is within the response (head or body) is not part of
// the state: it belongs to whoever parses (the coroutine, or a handoff's
// reader goroutine, which reads without the connection's mu).
type wireState uint8

const (
	// wireIdle has no exchange: freshly connected, or in the pool.
	wireIdle wireState = iota
	// wireSending has an exchange whose request the caller is writing; its
	// response parser has not run yet.
	wireSending
	// wireSendingReading is still writing the request, but the parser has
	// run (response bytes or an interruption arrived): a failed write no
	// longer ends the exchange, the parser sees it through.
	wireSendingReading
	// wireReading has its request written; the response is being read.
	wireReading
	// wireParked is an exchange that ended while its request was still
	// being written: the sender releases the connection after its write.
	wireParked
	// wireClosed is closed and forgotten by the reactor; final.
	wireClosed
)

// wireStateNames names each state, for messages and tests.
var wireStateNames = [...]string{"idle", "sending", "sendingReading", "reading", "parked", "closed"}

// String implements fmt.Stringer.
func (s wireState) String() string {
	if int(s) < len(wireStateNames) {
		return wireStateNames[s]
	}
	return fmt.Sprintf("wireState(%d)", s)
}

// wireMoves lists, per state, the states it may move to (the table above).
var wireMoves = [...][]wireState{
	wireIdle:           {wireSending, wireClosed},
	wireSending:        {wireSendingReading, wireReading, wireClosed},
	wireSendingReading: {wireReading, wireParked},
	wireReading:        {wireIdle, wireClosed},
	wireParked:         {wireIdle, wireClosed},
	wireClosed:         nil,
}

// canMove reports whether a connection in state from may move to state to.
func canMove(from, to wireState) bool {
	if int(from) >= len(wireMoves) {
		return false
	}
	for _, s := range wireMoves[from] {
		if s == to {
			return true
		}
	}
	return false
}

// to moves c to state next; c.mu is held. An illegal move is a bug in this
// package, not a condition of the network: it panics.
func (c *wireConn) to(next wireState) {
	if !canMove(c.state, next) {
		panic(fmt.Sprintf("sse: wire connection moved from %v to %v", c.state, next))
	}
	c.state = next
}
