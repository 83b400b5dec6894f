package sse

import (
	"io"
	"sync"
	"time"
)

// Sizes of the stamping reader's queue.
const (
	// stampBuf is the largest single read of the stamping goroutine, bytes.
	stampBuf = 4 << 10
	// stampQueue is how many reads may wait for a slow consumer.
	stampQueue = 64
)

// arrivalReader is a reader that knows when the bytes it last returned
// came off the network.
type arrivalReader interface {
	io.Reader
	arrival() time.Duration
}

// stampedChunk is one read of the stamping goroutine.
type stampedChunk struct {
	b   []byte
	at  time.Duration
	err error
}

// stampedReader reads its source on its own goroutine and stamps every
// read when it returns. The consumer may then run slow callbacks between
// reads (Request.OnEvent, function predicates) without delaying the stamps
// of bytes that arrive meanwhile: they are read, and stamped, while the
// callback runs.
type stampedReader struct {
	ch   chan stampedChunk
	done chan struct{}
	once sync.Once
	cur  stampedChunk
	at   time.Duration
}

// newStampedReader starts reading src. Call close when done consuming.
func newStampedReader(src io.Reader, clock func() time.Duration) *stampedReader {
	s := &stampedReader{ch: make(chan stampedChunk, stampQueue), done: make(chan struct{})}
	go s.pump(src, clock)
	return s
}

// pump reads src until an error, handing each read over with its stamp.
func (s *stampedReader) pump(src io.Reader, clock func() time.Duration) {
	buf := make([]byte, stampBuf)
	for {
		n, err := src.Read(buf)
		c := stampedChunk{at: clock(), err: err}
		if n > 0 {
			c.b = append([]byte(nil), buf[:n]...)
		}
		select {
		case s.ch <- c:
		case <-s.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read implements io.Reader.
func (s *stampedReader) Read(p []byte) (int, error) {
	if len(s.cur.b) == 0 {
		if s.cur.err != nil {
			return 0, s.cur.err
		}
		s.cur = <-s.ch
		s.at = s.cur.at
	}
	n := copy(p, s.cur.b)
	s.cur.b = s.cur.b[n:]
	if len(s.cur.b) == 0 && s.cur.err != nil && n == 0 {
		return 0, s.cur.err
	}
	return n, nil
}

// arrival returns when the bytes last returned were read from the source.
func (s *stampedReader) arrival() time.Duration { return s.at }

// close stops the goroutine once its current read returns; the caller
// closes the source to end that read.
func (s *stampedReader) close() { s.once.Do(func() { close(s.done) }) }

// hasFunc reports whether p is or contains a FuncPredicate.
func hasFunc(p Predicate) bool {
	switch q := p.(type) {
	case FuncPredicate:
		return true
	case *anyPredicate:
		return anyFunc(q.ps)
	case *allPredicate:
		return anyFunc(q.ps)
	}
	return false
}

// anyFunc reports whether any predicate contains a FuncPredicate.
func anyFunc(ps []Predicate) bool {
	for _, p := range ps {
		if hasFunc(p) {
			return true
		}
	}
	return false
}

// runsCallbacks reports whether a request runs user callbacks while its
// stream is read: OnEvent or a function predicate.
func (r *Request) runsCallbacks() bool {
	if r.OnEvent != nil || (r.Useful != nil && hasFunc(r.Useful)) {
		return true
	}
	for _, p := range r.Marks {
		if hasFunc(p) {
			return true
		}
	}
	return false
}
