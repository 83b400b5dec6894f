package output

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
	"strings"
)

// sink is a buffered file (gzip-compressed when its name ends in .gz) or
// stdout for "-".
type sink struct {
	w     *bufio.Writer
	gz    *gzip.Writer
	close func() error
}

// openSink opens name for writing; "" or "-" is stdout.
func openSink(name string, stdout io.Writer) (*sink, error) {
	if name == "" || name == "-" {
		return &sink{w: bufio.NewWriter(stdout), close: func() error { return nil }}, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	s := &sink{close: f.Close}
	var w io.Writer = f
	if strings.HasSuffix(name, ".gz") {
		s.gz = gzip.NewWriter(f)
		w = s.gz
	}
	s.w = bufio.NewWriterSize(w, 64<<10)
	return s, nil
}

// flush pushes buffered bytes to the file (through gzip's own flush).
func (s *sink) flush() error {
	if err := s.w.Flush(); err != nil {
		return err
	}
	if s.gz != nil {
		return s.gz.Flush()
	}
	return nil
}

// Close flushes and closes.
func (s *sink) Close() error {
	err := s.w.Flush()
	if s.gz != nil {
		if e := s.gz.Close(); err == nil {
			err = e
		}
	}
	if e := s.close(); err == nil {
		err = e
	}
	return err
}
