package k6http

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/usefullatency/usefullatency/internal/httpsafe"
)

// codings are the content codings this module compresses request bodies
// with (the compression param) and decodes response bodies of, under
// their Content-Encoding names: k6's four.
var codings = map[string]struct {
	encode func(io.Writer) io.WriteCloser
	decode func(io.Reader) (io.Reader, error)
}{
	"gzip": {
		encode: func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) },
		decode: func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
	},
	"deflate": {
		encode: func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) },
		decode: func(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) },
	},
	"br": {
		encode: func(w io.Writer) io.WriteCloser { return brotli.NewWriter(w) },
		decode: func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	},
	"zstd": {
		encode: func(w io.Writer) io.WriteCloser {
			enc, _ := zstd.NewWriter(w) // only options can fail, and there are none
			return enc
		},
		decode: newZstdReader,
	},
}

// newZstdReader decodes zstd on the reading goroutine (no decoder
// goroutines), with the decoder's memory bounded by the body limit, so a
// frame announcing a huge window can't reserve it.
func newZstdReader(r io.Reader) (io.Reader, error) {
	d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(httpsafe.DefaultMaxResponseSize), zstd.WithDecoderMaxWindow(httpsafe.DefaultMaxResponseSize))
	if err != nil {
		return nil, err
	}
	return &zstdReader{d: d}, nil
}

// zstdReader releases its decoder once a read fails or ends.
type zstdReader struct{ d *zstd.Decoder }

func (z *zstdReader) Read(p []byte) (int, error) {
	if z.d == nil {
		return 0, io.EOF
	}
	n, err := z.d.Read(p)
	if err != nil {
		z.d.Close()
		z.d = nil
	}
	return n, err
}

// bodyError is a failure to read a response body that k6 numbers apart
// from network errors: a body that does not decode (1701), or one larger
// than the limit.
type bodyError struct {
	code int
	msg  string
}

// Error returns the message.
func (e *bodyError) Error() string { return e.msg }

// parseCompression reads the compression param: coding names separated by
// commas, applied in order ("gzip, br" gzips, then brotli-compresses).
func parseCompression(s string) ([]string, error) {
	var list []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if _, ok := codings[name]; !ok {
			return nil, fmt.Errorf("unknown compression algorithm %q: want gzip, deflate, br or zstd, comma separated", name)
		}
		list = append(list, name)
	}
	return list, nil
}

// compress encodes body with each coding in turn and returns it with its
// Content-Encoding value ("gzip, br").
func compress(body []byte, list []string) ([]byte, string, error) {
	for _, name := range list {
		var buf bytes.Buffer
		w := codings[name].encode(&buf)
		if _, err := w.Write(body); err != nil {
			return nil, "", err
		}
		if err := w.Close(); err != nil {
			return nil, "", err
		}
		body = buf.Bytes()
	}
	return body, strings.Join(list, ", "), nil
}

// readBody reads a response body whose Content-Encoding header is
// encoding, undoing the codings this module knows in reverse order (a
// coding it does not know, "identity" included, leaves the body as it
// is from there on; more than httpsafe.MaxContentCodings of them fail
// before any is undone), through httpsafe.BodyLimit: at most limit
// decoded bytes; and for an encoded body at most
// httpsafe.MaxDecompressionRatio times the bytes read off the wire, all
// decoding stages' bytes counted (httpsafe.Expansion). A body that does
// not decode fails with k6's code 1701, one beyond a limit with an
// *httpsafe.LimitError; either way the bytes decoded so far are
// returned. Network errors are returned as they are. size is the body's
// Content-Length, -1 when unknown: a body that is not encoded is read into
// a buffer of that size (see readPlain).
func readBody(r io.Reader, encoding string, size, limit int64) ([]byte, error) {
	stages, n := decoders(encoding)
	if n == 0 {
		return readPlain(r, size, limit)
	}
	raw := &errorMark{r: r}
	if n > httpsafe.MaxContentCodings {
		return nil, decodeError(raw, &httpsafe.CodingsError{N: n})
	}
	guard := &httpsafe.Expansion{Encoded: func() int64 { return raw.n }}
	var decoded io.Reader = raw
	for _, decode := range stages {
		d, err := decode(decoded)
		if err != nil {
			return nil, decodeError(raw, guarded(guard, err))
		}
		decoded = guard.Stage(d)
	}
	body, err := io.ReadAll(&httpsafe.BodyLimit{R: decoded, Max: limit})
	err = guarded(guard, err)
	var lim *httpsafe.LimitError
	if err != nil && !errors.As(err, &lim) {
		return body, decodeError(raw, err)
	}
	return body, err
}

// maxPresize bounds the buffer a body is read into before its bytes
// arrive, 256 KiB: a server that announces a larger Content-Length and
// sends less makes the reader allocate no more than this up front.
const maxPresize = 256 << 10

// readPlain reads a body that is not content-encoded through
// httpsafe.BodyLimit, as io.ReadAll would, into one buffer of its size
// when it is known (size >= 0) and within limit: a body of known length
// costs one allocation of its length (two past maxPresize), not
// io.ReadAll's growing chunks and final copy. The result is io.ReadAll's:
// the bytes up to limit, a *httpsafe.LimitError past it, a network error
// as it is.
func readPlain(r io.Reader, size, limit int64) ([]byte, error) {
	lim := httpsafe.BodyLimit{R: r, Max: limit}
	if size < 0 || size > limit {
		return readAll(&lim, 512, -1) // io.ReadAll's first buffer
	}
	return readAll(&lim, int(min(size, maxPresize)), int(size))
}

// readAll reads r to its end into a buffer of capacity first, grown to
// size bytes once full (size is the length announced, -1 when unknown),
// and by append past them, when the body turns out longer.
func readAll(r *httpsafe.BodyLimit, first, size int) ([]byte, error) {
	b := make([]byte, 0, first)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		switch {
		case len(b) < cap(b):
		case len(b) < size:
			b = slices.Grow(b, size-len(b))
		default:
			b = append(b, 0)[:len(b)]
		}
	}
}

// decoders returns the decoders of the codings of a Content-Encoding
// value this module undoes, in the order they apply: from the last
// coding back to the first, up to one it does not know; and how many
// there are. It keeps no more than httpsafe.MaxContentCodings+1.
func decoders(encoding string) ([]func(io.Reader) (io.Reader, error), int) {
	var list []func(io.Reader) (io.Reader, error)
	n := 0
	for rest := encoding; ; {
		i := strings.LastIndexByte(rest, ',')
		c, ok := codings[strings.ToLower(strings.TrimSpace(rest[i+1:]))]
		if !ok {
			return list, n
		}
		if n++; len(list) <= httpsafe.MaxContentCodings {
			list = append(list, c.decode)
		}
		if i < 0 {
			return list, n
		}
		rest = rest[:i]
	}
}

// guarded returns the guard's error once it tripped (a decoder above the
// stage that tripped it may have reported another one), else err.
func guarded(guard *httpsafe.Expansion, err error) error {
	if err != nil && guard.Err() != nil {
		return guard.Err()
	}
	return err
}

// decodeError returns err as a decoding failure (1701), unless it came
// from reading the connection.
func decodeError(raw *errorMark, err error) error {
	if raw.err != nil && errors.Is(err, raw.err) {
		return err
	}
	return &bodyError{code: codeDecompression, msg: fmt.Sprintf("error decompressing response body (%v)", err)}
}

// errorMark remembers the last error its reader returned other than
// io.EOF, so that a network error under a decoder is told from a decoding
// error.
type errorMark struct {
	r   io.Reader
	err error
	// n counts the bytes read, for the decompression ratio.
	n int64
}

// Read reads from the underlying reader.
func (m *errorMark) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	m.n += int64(n)
	if err != nil && err != io.EOF {
		m.err = err
	}
	return n, err
}
