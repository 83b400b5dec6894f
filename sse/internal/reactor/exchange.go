package reactor

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Exchange is what a connection serves: one request and its response, as
// the reactor sees it. Package sse's exchange implements it.
type Exchange interface {
	// Context is the exchange's: its end (timeout, cancellation) interrupts
	// a read waiting for bytes, and its cause is the error that read
	// returns.
	Context() context.Context
	// HeaderLimit is how many bytes the response head may take.
	HeaderLimit() int
	// Handoff reports whether the response is parsed on the caller's
	// goroutine (its stream runs callbacks that must not run on the
	// reactor's), from chunks the reactor reads and stamps.
	Handoff() bool
	// Attach tells the exchange which connection carries it (nil: none
	// any more), so that it can stamp what it parses (Conn.Arrival) and
	// interrupt the reads (Conn.Interrupt). Called under the connection's
	// lock: it must not call back into the connection.
	Attach(c *Conn)
	// NoteLag records how long bytes of the response waited in the kernel
	// before the reactor read them.
	NoteLag(d time.Duration)
	// Connected reports that the exchange's request opened a new
	// connection and how long its TCP connect took: the kernel's round trip
	// of the handshake where it measures one (TCP_INFO), else the
	// program's measure of the connect. It comes once per new connection,
	// on the goroutine of Pool.Do, before the request is written.
	Connected(connect time.Duration)
	// Transmitted reports when the kernel sent the request's first write
	// (its transmit stamp, on the monotonic clock) and how long connecting
	// took before it (0 on a reused connection): the dial's duration with
	// its TCP connect counted as Connected reported it. It comes at most once per
	// request, before the response is parsed, and only where the kernel
	// stamps transmissions (Linux). Called under the connection's lock.
	Transmitted(at time.Time, setup time.Duration)
	// Respond handles the response whose head was read; its body reads
	// through the connection. It runs in the coroutine the reactor resumes,
	// or on the caller's goroutine for a handoff.
	Respond(resp *http.Response)
}

// RequestError is a request that can't be written in HTTP/1.1 wire format
// (its body failed to open, say): nothing was sent.
type RequestError struct{ Err error }

// Error implements error.
func (e *RequestError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *RequestError) Unwrap() error { return e.Err }

// ErrInternal marks a failure of the reactor's own code (a panic while
// parsing a response): a bug, reported as the request's outcome rather
// than crashing the process.
var ErrInternal = errors.New("internal error")
