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
	// Respond handles the response whose head was read: it reads the body
	// through the connection, or returns a Sink the reactor pushes the
	// body to as it arrives (never for a handoff). It runs in the
	// coroutine the reactor resumes, or on the caller's goroutine for a
	// handoff.
	Respond(resp *http.Response) Sink
}

// Sink takes a response body as the reactor reads it, instead of reading
// it: no coroutine and no goroutine waits for the next bytes. The body's
// framing (chunked, Content-Length, the connection's end) is the
// reactor's; content codings are not undone. Its methods run on the
// reactor under the connection's lock: they must not block, nor call the
// connection but for Arrival and Settle.
type Sink interface {
	// Body takes bytes of the body that arrived at the connection's
	// Arrival. An error ends the body there (End gets it) and closes the
	// connection.
	Body(b []byte) error
	// End ends the body, once: nil at its clean end, else its failure: a
	// malformed or truncated body, a read error, Body's error, the cause
	// of the exchange's context, or ErrInternal.
	End(err error)
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
