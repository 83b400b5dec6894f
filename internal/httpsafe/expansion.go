package httpsafe

import (
	"fmt"
	"io"
)

// MaxContentCodings is the most content codings stacked in one
// Content-Encoding ("gzip, br") that a client undoes: 5. Browsers and k6
// undo one or two; each stage holds a decoder's window, so 20,000 stacked
// gzips in a 1.2 MB body would cost 839 MB.
const MaxContentCodings = 5

// CodingsError reports a Content-Encoding that stacks more than
// MaxContentCodings codings.
type CodingsError struct {
	// N is the number of codings the header stacks.
	N int
}

// Error returns a one-line description naming the limit.
func (e *CodingsError) Error() string {
	return fmt.Sprintf("Content-Encoding stacks %d content codings, more than %d", e.N, MaxContentCodings)
}

// Expansion is the decompression ratio guard of a body decoded through
// one or more content codings: the bytes every decoding stage hands out
// count toward one total, and a read fails with a *LimitError once that
// total exceeds RatioFloor and MaxDecompressionRatio times the encoded
// bytes read off the wire so far. Its stages are read by one goroutine.
type Expansion struct {
	// Encoded returns how many bytes were read off the wire so far.
	Encoded func() int64

	total int64
	err   error
}

// Stage returns r, the output of one decoding stage, counted by e.
func (e *Expansion) Stage(r io.Reader) io.Reader { return &stage{e: e, r: r} }

// Err returns the guard's error once it tripped, else nil: a decoder
// above a stage may report it otherwise or not at all.
func (e *Expansion) Err() error { return e.err }

// Total returns the bytes all stages handed out.
func (e *Expansion) Total() int64 { return e.total }

// stage is one decoding stage under an Expansion.
type stage struct {
	e *Expansion
	r io.Reader
}

// Read implements io.Reader.
func (s *stage) Read(p []byte) (int, error) {
	if s.e.err != nil {
		return 0, s.e.err
	}
	n, err := s.r.Read(p)
	s.e.total += int64(n)
	if s.e.total > RatioFloor && s.e.total > MaxDecompressionRatio*s.e.Encoded() {
		s.e.err = &LimitError{What: "decompression ratio", Limit: MaxDecompressionRatio}
		return n, s.e.err
	}
	return n, err
}
