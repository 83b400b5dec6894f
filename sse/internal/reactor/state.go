package reactor

import "fmt"

// State is where a Conn is in its life. Every change goes through
// Conn.to, under the connection's mu, and only along these edges:
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
type State uint8

const (
	// Idle has no exchange: freshly connected, or in the pool.
	Idle State = iota
	// Sending has an exchange whose request the caller is writing; its
	// response parser has not run yet.
	Sending
	// SendingReading is still writing the request, but the parser has
	// run (response bytes or an interruption arrived): a failed write no
	// longer ends the exchange, the parser sees it through.
	SendingReading
	// Reading has its request written; the response is being read.
	Reading
	// Parked is an exchange that ended while its request was still
	// being written: the sender releases the connection after its write.
	Parked
	// Closed is closed and forgotten by the reactor; final.
	Closed
)

// stateNames names each state, for messages and tests.
var stateNames = [...]string{"idle", "sending", "sendingReading", "reading", "parked", "closed"}

// String implements fmt.Stringer.
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", s)
}

// moves lists, per state, the states it may move to (the table above).
var moves = [...][]State{
	Idle:           {Sending, Closed},
	Sending:        {SendingReading, Reading, Closed},
	SendingReading: {Reading, Parked},
	Reading:        {Idle, Closed},
	Parked:         {Idle, Closed},
	Closed:         nil,
}

// canMove reports whether a connection in state from may move to state to.
func canMove(from, to State) bool {
	if int(from) >= len(moves) {
		return false
	}
	for _, s := range moves[from] {
		if s == to {
			return true
		}
	}
	return false
}

// to moves c to state next; c.mu is held. An illegal move is a bug in this
// package, not a condition of the network: it panics.
func (c *Conn) to(next State) {
	if !canMove(c.state, next) {
		panic(fmt.Sprintf("reactor: connection moved from %v to %v", c.state, next))
	}
	c.state = next
}
