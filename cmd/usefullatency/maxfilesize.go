package main

import (
	"errors"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/sse"
)

// fileSize is the value of --max-file-size: the largest local file a test
// reads (script, imports, open(), k6/experimental/fs), as a size such as
// 2GiB or 1500000000; zero is js.DefaultMaxFileSize. A bad value fails the
// flag's parsing, so the command exits 104 naming it.
type fileSize struct{ n int64 }

// String returns the size set, "" for the default.
func (s *fileSize) String() string {
	if s.n == 0 {
		return ""
	}
	return httpsafe.FormatBytes(s.n)
}

// Set parses a size of at least one byte.
func (s *fileSize) Set(v string) error {
	n, err := sse.ParseByteSize(v)
	if err != nil || n < 1 {
		return errors.New("want a size such as 2GiB, 512MiB or 1500000000 bytes, at most 1 TiB")
	}
	s.n = int64(n)
	return nil
}

// Type names the value in the usage text.
func (s *fileSize) Type() string { return "size" }
