package httpsafe

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Default limits of a response.
const (
	// DefaultMaxHeaderBytes bounds the status line and headers of a
	// response, 10 MiB: net/http's default MaxResponseHeaderBytes.
	DefaultMaxHeaderBytes = 10 << 20
	// DefaultMaxResponseSize bounds the body of a response after content
	// decoding, 64 MiB.
	DefaultMaxResponseSize = 64 << 20
	// MaxDecompressionRatio is the largest accepted ratio of decoded to
	// encoded body bytes, once RatioFloor bytes were decoded: gzip can
	// reach about 1,000:1 on crafted input, text streams stay far below
	// 100:1.
	MaxDecompressionRatio = 100
	// RatioFloor is how many decoded bytes are always accepted before the
	// ratio guard applies, 1 MiB: a short, very repetitive body is fine.
	RatioFloor = 1 << 20
)

// ErrTooLarge is wrapped by every *LimitError.
var ErrTooLarge = errors.New("response too large")

// LimitError reports a response that exceeded one of its limits.
type LimitError struct {
	// What names the limit: "maxResponseSize", "maxHeaderSize" or
	// "decompression ratio".
	What string
	// Limit is the limit in bytes, or the ratio.
	Limit int64
}

// Error returns a one-line description naming the limit.
func (e *LimitError) Error() string {
	if e.What == "decompression ratio" {
		return fmt.Sprintf("response too large: decompression ratio above %d:1 (a compression bomb?)", e.Limit)
	}
	return fmt.Sprintf("response too large: more than %s (%s)", FormatBytes(e.Limit), e.What)
}

// Unwrap returns ErrTooLarge.
func (e *LimitError) Unwrap() error { return ErrTooLarge }

// FormatBytes writes n as "1 GiB", "64 MiB", "512 KiB" or "100 bytes": in
// the largest unit it is a whole number of.
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// BodyLimit reads a decoded response body and fails with a *LimitError once
// more than Max bytes came out of it, or, when Encoded is set, once the
// decoded bytes exceed RatioFloor and MaxDecompressionRatio times the
// encoded bytes read so far. It never hands out a byte beyond Max.
type BodyLimit struct {
	// R is the decoded body.
	R io.Reader
	// Max is the largest accepted number of decoded bytes.
	Max int64
	// Encoded returns how many bytes were read off the wire so far; nil
	// for a body that is not content-encoded.
	Encoded func() int64

	n   int64
	err error
}

// Read implements io.Reader.
func (b *BodyLimit) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if left := b.Max - b.n + 1; int64(len(p)) > left {
		p = p[:left] // one byte more than allowed tells the end from too much
	}
	n, err := b.R.Read(p)
	b.n += int64(n)
	if b.n > b.Max {
		b.err = &LimitError{What: "maxResponseSize", Limit: b.Max}
		return n - int(b.n-b.Max), b.err
	}
	if b.Encoded != nil && b.n > RatioFloor && b.n > MaxDecompressionRatio*b.Encoded() {
		b.err = &LimitError{What: "decompression ratio", Limit: MaxDecompressionRatio}
		return n, b.err
	}
	return n, err
}

// Count returns how many decoded bytes were handed out.
func (b *BodyLimit) Count() int64 { return b.n }

// HeaderBytes returns the size of headers h on the wire: "Key: value\r\n"
// for every value.
func HeaderBytes(h http.Header) int64 {
	var n int64
	for k, vs := range h {
		for _, v := range vs {
			n += int64(len(k) + 2 + len(v) + 2)
		}
	}
	return n
}
