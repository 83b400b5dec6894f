package k6csv

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"testing"
)

// FuzzReader checks the row reader against a reference: every record of
// the file read by encoding/csv, then the lines the options select kept.
func FuzzReader(f *testing.F) {
	f.Add([]byte("a,b\n1,2\n3,4\n"), false, false, uint8(0), int8(-1))
	f.Add([]byte("h1;h2\n\"x;y\";z\n"), true, false, uint8(1), int8(1))
	f.Add([]byte("a,b\n\"multi\nline\",2\nshort\n"), false, true, uint8(2), int8(5))
	f.Add([]byte("a,\"b\n"), false, false, uint8(0), int8(-1))
	f.Fuzz(func(t *testing.T, data []byte, skip, objects bool, from uint8, to int8) {
		opts := Options{Delimiter: ',', SkipFirstLine: skip, AsObjects: objects, FromLine: int(from), ToLine: int(to)}
		if to < 0 {
			opts.ToLine = -1
		} else if opts.ToLine < opts.FromLine {
			return // rejected by parseOptions
		}
		want, wantErr := reference(data, opts)
		var got [][]string
		r := newReader(data, opts)
		var err error
		for {
			var row []string
			row, err = r.next()
			if err != nil {
				break
			}
			got = append(got, row)
		}
		if errors.Is(err, io.EOF) {
			err = nil
		}
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("error %v, reference error %v", err, wantErr)
		}
		if err == nil && !slices.EqualFunc(got, want, slices.Equal[[]string]) {
			t.Fatalf("rows %q, reference %q", got, want)
		}
	})
}

// reference reads every record of data up to the last selected line and
// keeps the selected ones.
func reference(data []byte, opts Options) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	var out [][]string
	for line := 0; opts.ToLine < 0 || line <= opts.ToLine; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		first := line == 0 && (opts.SkipFirstLine || opts.AsObjects)
		if !first && line >= opts.FromLine {
			out = append(out, rec)
		}
	}
	return out, nil
}
