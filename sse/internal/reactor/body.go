package reactor

import "io"

// body is a response body read on the reactor. Closing it does not drain
// it: a body closed before its end makes the connection unusable. A
// handoff's body, whose reader may be a draining goroutine, releases the
// connection when closed.
type body struct {
	io.ReadCloser
	c      *Conn
	h      *handoff // set when the caller parses the response
	eof    bool
	closed bool
}

// Read implements io.Reader.
func (b *body) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

// Close implements io.Closer. A handoff's body releases the connection.
func (b *body) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if !b.eof {
		b.c.keep = false
	}
	if b.h != nil {
		b.c.releaseNow()
	}
	return nil
}
