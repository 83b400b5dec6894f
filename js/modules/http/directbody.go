package k6http

import (
	"context"
	"errors"
	"io"
)

// directBody is the body of a response the direct transport read. At its
// end the connection goes back to the pool (when keep-alive holds); a
// failed read, or a close before the end, closes the connection instead
// of reading what is left. Read and Close are called from one goroutine
// at a time, as for net/http's bodies.
type directBody struct {
	t    *directTransport
	c    *directConn
	body io.ReadCloser
	ctx  context.Context
	// stop disarms the context's interruption of the connection.
	stop func() bool
	keep bool
	// err is the error of the read that ended the body (io.EOF at its
	// end), returned again by later reads.
	err error
	// done is set once the connection was released; closed once Close
	// was called.
	done, closed bool
}

// errBodyClosed is net/http's error for a read after Close.
var errBodyClosed = errors.New("http: read on closed response body")

// Read reads the body; an error caused by the request's context is
// reported as its cause, as net/http does.
func (b *directBody) Read(p []byte) (int, error) {
	if b.closed {
		return 0, errBodyClosed
	}
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.body.Read(p)
	switch {
	case err == io.EOF:
		b.release(b.keep)
	case err != nil:
		b.release(false)
		if ended(b.ctx, err) {
			err = context.Cause(b.ctx)
		}
	}
	b.err = err
	return n, err
}

// Close closes the body; before its end, it closes the connection.
func (b *directBody) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if !b.done {
		b.release(false)
	}
	return nil
}

// release ends the exchange, the connection kept when keep holds.
func (b *directBody) release(keep bool) {
	b.done = true
	b.t.finish(b.c, b.stop, keep)
}
