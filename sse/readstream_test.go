package sse

import "io"

// readStream reads an SSE body without an HTTP exchange (a recorded
// response) exactly as Client.Do reads a response body after its headers:
// same parsing, classification, predicates and outcome, without the
// transport's cost, for the tests and benchmarks of the per-event path.
// Times are measured from the call; Headers, Status and the timeouts do
// not apply.
// r is read up to the terminal event; when the request runs callbacks, a
// goroutine reading r may stay blocked in r.Read until r returns.
func readStream(r io.Reader, req *Request) *Result {
	x := newExchange(nil, req)
	x.markSent()
	x.meter = &meter{r: r, last: &x.lastByte, clock: x.clock}
	x.stream = newStream(&x.req, &x.tl, x.clock, false)
	if err := x.stream.read(x.meter); err != nil {
		x.failStream(err)
	}
	x.stream.stop()
	return x.result()
}
