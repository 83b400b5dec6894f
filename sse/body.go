package sse

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"
)

// meter counts a response body's raw bytes (before content decoding) and
// notes when the last one arrived, for the idle timeout.
type meter struct {
	r     io.Reader
	n     atomic.Int64
	last  *atomic.Int64 // nanoseconds since the send
	clock func() time.Duration
}

// Read implements io.Reader.
func (m *meter) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	if n > 0 {
		m.n.Add(int64(n))
		m.last.Store(int64(m.clock()))
	}
	return n, err
}

// decodeBody wraps r to undo the Content-Encoding (gzip, deflate, identity).
// Decoders start lazily, so a slow first byte counts against the idle
// timeout in the stream loop, not before it.
func decodeBody(encoding string, r io.Reader) (io.Reader, error) {
	if identity(encoding) {
		return r, nil
	}
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "gzip", "x-gzip":
		return &lazyReader{open: func() (io.Reader, error) { return gzip.NewReader(r) }}, nil
	case "deflate":
		return &lazyReader{open: func() (io.Reader, error) { return newDeflate(r) }}, nil
	}
	return nil, fmt.Errorf("unsupported Content-Encoding %q", encoding)
}

// identity reports whether a Content-Encoding leaves the body as it is.
func identity(encoding string) bool {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
		return true
	}
	return false
}

// newDeflate reads HTTP "deflate": zlib-wrapped as the RFC says, or raw
// deflate as some servers send it.
func newDeflate(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64)
	h, err := br.Peek(2)
	if err != nil {
		return nil, err
	}
	if h[0]&0x0f == 8 && (uint16(h[0])<<8|uint16(h[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// lazyReader opens its reader on the first Read.
type lazyReader struct {
	open func() (io.Reader, error)
	r    io.Reader
	err  error
}

// Read implements io.Reader.
func (l *lazyReader) Read(p []byte) (int, error) {
	if l.r == nil && l.err == nil {
		l.r, l.err = l.open()
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.r.Read(p)
}

// isDecodeError reports whether err comes from a content decoder.
func isDecodeError(err error) bool {
	var corrupt flate.CorruptInputError
	var internal flate.InternalError
	return errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) ||
		errors.Is(err, zlib.ErrHeader) || errors.Is(err, zlib.ErrChecksum) ||
		errors.Is(err, zlib.ErrDictionary) || errors.As(err, &corrupt) || errors.As(err, &internal)
}
