package k6csv

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
)

// reader reads the rows options select from a file's bytes, one at a
// time, without copying the file.
type reader struct {
	csv  *csv.Reader
	opts Options
	// line is the number of the next record, from 0.
	line int
	// header holds the fields of line 0 when opts.AsObjects.
	header []string
	done   bool
}

// newReader returns a reader of data under opts.
func newReader(data []byte, opts Options) *reader {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = opts.Delimiter
	r.FieldsPerRecord = -1
	return &reader{csv: r, opts: opts}
}

// next returns the next selected row, or io.EOF after the last one.
func (r *reader) next() ([]string, error) {
	for !r.done {
		if r.opts.ToLine >= 0 && r.line > r.opts.ToLine {
			r.done = true
			break
		}
		rec, err := r.csv.Read()
		if errors.Is(err, io.EOF) {
			r.done = true
			break
		}
		if err != nil {
			r.done = true
			return nil, fmt.Errorf("csv: %w", err)
		}
		n := r.line
		r.line++
		if n == 0 && r.opts.AsObjects {
			r.header = rec
			continue
		}
		if (n == 0 && r.opts.SkipFirstLine) || n < r.opts.FromLine {
			continue
		}
		return rec, nil
	}
	return nil, io.EOF
}
