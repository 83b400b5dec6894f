package reactor

import (
	"bytes"
	"errors"
	"io"
	"net/http"
)

// Limits of a pushed body's framing, as net/http's own reader of a
// response on the reactor's connections has them: a chunk-size line may
// take as many bytes as the connection's read buffer holds, and framing
// bytes may not outgrow the data by more than net/http allows.
const (
	maxChunkLine  = readerSize
	maxExcess     = 16 << 10
	maxTrailer    = 64 << 10
	chunkOverhead = 16
)

// Errors of a malformed chunked body, worded as net/http words them.
var (
	errLineTooLong = errors.New("header line too long")
	errMalformed   = errors.New("malformed chunked encoding")
	errBareLF      = errors.New("chunked line ends with bare LF")
	errCR          = errors.New("invalid CR in chunked line")
	errEmptySize   = errors.New("empty hex number for chunk length")
	errSizeByte    = errors.New("invalid byte in chunk length")
	errSizeLarge   = errors.New("http chunk length too large")
	errNonData     = errors.New("chunked encoding contains too much non-data")
	errTrailer     = errors.New("http: trailer too large")
)

// framing cuts a response's body out of its connection's bytes as they
// arrive: by its chunked transfer coding, by its Content-Length, or up to
// the end of the connection. It holds only what a chunk-size or trailer
// line split between reads needs.
type framing struct {
	kind   framingKind
	state  chunkState
	left   uint64 // bytes of the body (byLength) or of the chunk (chunkData) still to come
	line   []byte // the start of a line split between reads
	excess int64  // framing bytes beyond the data's due (net/http's rule)
	trail  int    // trailer bytes so far
}

// framingKind is how a body's end is known.
type framingKind uint8

const (
	byLength framingKind = iota
	byChunks
	byClose
)

// chunkState is where a chunked body's parser is.
type chunkState uint8

const (
	chunkSize    chunkState = iota // reading a chunk-size line
	chunkData                      // reading a chunk's data
	chunkEnd                       // reading the CRLF after a chunk's data
	chunkTrailer                   // reading trailer lines after the last chunk
	chunkDone                      // the body ended
)

// framingOf returns the framing of resp's body, as net/http parsed its
// head: none for a response that has no body whatever its head says (1xx,
// 204, 304, or the answer to HEAD).
func framingOf(resp *http.Response) *framing {
	switch s := resp.StatusCode; {
	case s/100 == 1 || s == http.StatusNoContent || s == http.StatusNotModified ||
		(resp.Request != nil && resp.Request.Method == http.MethodHead):
		return &framing{kind: byLength}
	case len(resp.TransferEncoding) > 0 && resp.TransferEncoding[0] == "chunked":
		return &framing{kind: byChunks}
	case resp.ContentLength >= 0:
		return &framing{kind: byLength, left: uint64(resp.ContentLength)}
	}
	return &framing{kind: byClose}
}

// ended reports whether the body is complete.
func (f *framing) ended() bool {
	switch f.kind {
	case byLength:
		return f.left == 0
	case byChunks:
		return f.state == chunkDone
	}
	return false
}

// next takes the front of b: it returns the body bytes found there (none
// when b starts with framing), the bytes after what it took, and an error
// for a malformed body. Once ended, the rest is not the body's.
func (f *framing) next(b []byte) (data, rest []byte, err error) {
	switch f.kind {
	case byClose:
		return b, nil, nil
	case byLength:
		n := min(uint64(len(b)), f.left)
		f.left -= n
		return b[:n], b[n:], nil
	}
	switch f.state {
	case chunkData:
		n := min(uint64(len(b)), f.left)
		f.left -= n
		if f.left == 0 {
			f.state = chunkEnd
		}
		return b[:n], b[n:], nil
	case chunkEnd:
		rest, err := f.chunkEnd(b)
		return nil, rest, err
	case chunkDone:
		return nil, b, nil
	}
	line, rest, err := f.takeLine(b)
	if err != nil || line == nil {
		return nil, rest, err
	}
	if f.state == chunkTrailer {
		return nil, rest, f.trailer(line)
	}
	return nil, rest, f.chunkSize(line)
}

// chunkEnd takes the CRLF that ends a chunk's data, which may come split
// between reads, and returns the bytes after what it took.
func (f *framing) chunkEnd(b []byte) ([]byte, error) {
	k := min(2-len(f.line), len(b))
	f.line = append(f.line, b[:k]...)
	if len(f.line) < 2 {
		return b[k:], nil
	}
	if string(f.line) != "\r\n" {
		return nil, errMalformed
	}
	f.line, f.state = f.line[:0], chunkSize
	return b[k:], nil
}

// takeLine returns the next whole line of b, CRLF included, joined to the
// part an earlier read held, or nil when b ends inside it.
func (f *framing) takeLine(b []byte) (line, rest []byte, err error) {
	limit := maxChunkLine
	if f.state == chunkTrailer {
		limit = maxTrailer - f.trail
	}
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if len(f.line)+len(b) >= limit {
			return nil, nil, f.tooLong()
		}
		f.line = append(f.line, b...)
		return nil, nil, nil
	}
	if len(f.line)+i+1 > limit {
		return nil, nil, f.tooLong()
	}
	line, rest = b[:i+1], b[i+1:]
	if len(f.line) > 0 {
		line = append(f.line, line...)
		f.line = f.line[:0]
	}
	return line, rest, nil
}

// tooLong is the error of a line above its limit.
func (f *framing) tooLong() error {
	if f.state == chunkTrailer {
		return errTrailer
	}
	return errLineTooLong
}

// chunkSize reads a chunk-size line (CRLF included): its size in hex,
// perhaps extensions after a semicolon.
func (f *framing) chunkSize(line []byte) error {
	cr := bytes.IndexByte(line, '\r')
	switch {
	case cr < 0:
		return errBareLF
	case cr != len(line)-2:
		return errCR
	}
	f.excess += int64(len(line))
	line = bytes.TrimRight(line[:cr], " \t")
	line, _, _ = bytes.Cut(line, []byte(";"))
	n, err := parseHex(line)
	if err != nil {
		return err
	}
	if n == 0 {
		f.state = chunkTrailer // the last chunk: net/http lets its line end the body
		return nil
	}
	f.excess = max(f.excess-chunkOverhead-2*int64(n), 0)
	if f.excess > maxExcess {
		return errNonData
	}
	f.left, f.state = n, chunkData
	return nil
}

// trailer reads a trailer line: an empty one ends the body.
func (f *framing) trailer(line []byte) error {
	f.trail += len(line)
	if len(bytes.TrimRight(line, "\r\n")) == 0 {
		f.state = chunkDone
	}
	return nil
}

// parseHex parses a chunk size.
func parseHex(v []byte) (uint64, error) {
	if len(v) == 0 {
		return 0, errEmptySize
	}
	var n uint64
	for i, b := range v {
		switch {
		case '0' <= b && b <= '9':
			b -= '0'
		case 'a' <= b && b <= 'f':
			b = b - 'a' + 10
		case 'A' <= b && b <= 'F':
			b = b - 'A' + 10
		default:
			return 0, errSizeByte
		}
		if i == 16 {
			return 0, errSizeLarge
		}
		n = n<<4 | uint64(b)
	}
	return n, nil
}

// atEnd returns what the end of the connection (io.EOF) or a read error
// means for the body: the clean end of a body framed by it, else a
// truncated body (io.ErrUnexpectedEOF) or the error.
func (f *framing) atEnd(err error) error {
	switch {
	case err != io.EOF:
		return err
	case f.kind == byClose || f.ended():
		return nil
	}
	return io.ErrUnexpectedEOF
}
