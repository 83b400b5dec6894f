package result

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
)

// The layout of a file, inside one gzip stream:
//
//	header  the File as one line of JSON ending in '\n' (format, version,
//	        test id, segments, options, thresholds, metrics, groups, ...)
//	values  for every trend sink in traversal order (see trendSinks), its
//	        Count values: each value's order key (orderKey) minus the
//	        previous one's, as an unsigned varint; values sorted by key
//	trailer the 8 bytes "ULEND" + 3 zero bytes
//
// gzip's CRC-32 and length detect a corrupted or truncated file; the
// trailer detects a stream that ends cleanly too early.

// trailer ends the binary part of a file.
var trailer = []byte("ULEND\x00\x00\x00")

// maxHeader bounds the JSON header a reader accepts (256 MiB).
const maxHeader = 256 << 20

// Errors a reader returns, wrapped with the details; test with errors.Is.
var (
	// ErrNotResult means the file is not a result file at all.
	ErrNotResult = errors.New("not a usefullatency result file")
	// ErrNewerVersion means a newer usefullatency wrote the file.
	ErrNewerVersion = errors.New("result format version is newer than this build reads")
	// ErrCorrupt means the file is damaged or truncated.
	ErrCorrupt = errors.New("corrupted or truncated result file")
)

// WriteFile writes f to path, through a temporary file renamed into place,
// so a reader never sees half a file.
func WriteFile(path string, f *File) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".result-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := Write(tmp, f); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Write encodes f, gzip-compressed, to w. Format and Version are set to
// this build's and each trend's Count to its number of values; the values
// are written sorted, f's slices are left as they are.
func Write(w io.Writer, f *File) error {
	f.Format, f.Version = Format, Version
	trends := trendSinks(f)
	for _, s := range trends {
		s.Count = int64(len(s.Values))
	}
	header, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("result header: %w", err)
	}
	gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	bw := bufio.NewWriterSize(gz, 256<<10)
	bw.Write(header)
	bw.WriteByte('\n')
	var buf [binary.MaxVarintLen64]byte
	var keys []uint64
	for _, s := range trends {
		keys = sortedKeys(keys[:0], s.Values)
		var prev uint64
		for _, k := range keys {
			bw.Write(buf[:binary.PutUvarint(buf[:], k-prev)])
			prev = k
		}
	}
	bw.Write(trailer)
	if err := bw.Flush(); err != nil {
		return err
	}
	return gz.Close()
}

// orderKey maps a float64 to a uint64 whose order is the float's: sign bit
// flipped for positives, all bits flipped for negatives. It is a bijection,
// so values round-trip bit for bit (NaNs sort after +Inf or before -Inf).
func orderKey(v float64) uint64 {
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// fromKey inverts orderKey.
func fromKey(k uint64) float64 {
	if k>>63 == 1 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// sortedKeys appends the order keys of vs to keys and sorts them: the
// order the file stores values in.
func sortedKeys(keys []uint64, vs []float64) []uint64 {
	for _, v := range vs {
		keys = append(keys, orderKey(v))
	}
	slices.Sort(keys)
	return keys
}

// sortValues sorts vs by order key.
func sortValues(vs []float64) {
	keys := sortedKeys(make([]uint64, 0, len(vs)), vs)
	for i, k := range keys {
		vs[i] = fromKey(k)
	}
}

// ReadFile reads the result at path; errors name the path.
func ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := Read(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.Path = path
	return f, nil
}

// Read decodes a result written by Write. It refuses a file that is not a
// result (ErrNotResult), is of a newer format version (ErrNewerVersion) or
// is damaged or truncated (ErrCorrupt).
func Read(r io.Reader) (*File, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w (not gzip-compressed: %v)", ErrNotResult, err)
	}
	br := bufio.NewReaderSize(gz, 256<<10)
	f, err := readHeader(br)
	if err != nil {
		return nil, err
	}
	if err := readValues(br, f); err != nil {
		return nil, err
	}
	// Reading to the end makes gzip check its CRC-32 and length.
	if n, err := io.Copy(io.Discard, br); err != nil || n != 0 {
		return nil, corrupt("data after the end of the result", err)
	}
	return f, nil
}

// readHeader reads and checks the JSON header line.
func readHeader(br *bufio.Reader) (*File, error) {
	line, err := readLine(br)
	if err != nil {
		return nil, err
	}
	var id struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(line, &id); err != nil || id.Format != Format {
		// A damaged stream garbles the header too: gzip tells which it is.
		if _, err := io.Copy(io.Discard, br); err != nil {
			return nil, corrupt("header", err)
		}
		return nil, fmt.Errorf("%w (no %q header)", ErrNotResult, Format)
	}
	if id.Version > Version {
		return nil, fmt.Errorf("%w: the file has version %d, this build reads up to %d; use a newer usefullatency", ErrNewerVersion, id.Version, Version)
	}
	if id.Version < 1 {
		return nil, corrupt(fmt.Sprintf("invalid format version %d", id.Version), nil)
	}
	f := &File{}
	if err := json.Unmarshal(line, f); err != nil {
		return nil, corrupt("header", err)
	}
	return f, nil
}

// readLine reads the header line, at most maxHeader bytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull) && len(line) < maxHeader:
			continue
		case errors.Is(err, bufio.ErrBufferFull):
			return nil, fmt.Errorf("%w (header longer than %d bytes)", ErrNotResult, maxHeader)
		case len(line) == 0 && errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%w (empty)", ErrNotResult)
		}
		return nil, corrupt("header", err)
	}
}

// readValues reads every trend's values and the trailer.
func readValues(br *bufio.Reader, f *File) error {
	for _, s := range trendSinks(f) {
		if s.Count < 0 || s.Count > 1<<40 {
			return corrupt(fmt.Sprintf("invalid trend count %d", s.Count), nil)
		}
		s.Values = make([]float64, 0, min(s.Count, 1<<20))
		var k uint64
		for range s.Count {
			d, err := binary.ReadUvarint(br)
			if err != nil {
				return corrupt("trend values", err)
			}
			k += d
			s.Values = append(s.Values, fromKey(k))
		}
	}
	end := make([]byte, len(trailer))
	if _, err := io.ReadFull(br, end); err != nil || string(end) != string(trailer) {
		return corrupt("missing end marker", err)
	}
	return nil
}

// corrupt returns ErrCorrupt with what was being read and why.
func corrupt(what string, err error) error {
	if err == nil {
		return fmt.Errorf("%w: %s", ErrCorrupt, what)
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("%w: %s: %v", ErrCorrupt, what, err)
}

// trendSinks returns every trend sink of f in the order the binary part
// stores them: each trend metric's sink then its submetrics', in f.Metrics
// order; then the breakdown's trend sinks, bucket by bucket.
func trendSinks(f *File) []*Sink {
	var out []*Sink
	for i := range f.Metrics {
		m := &f.Metrics[i]
		if m.Type != "trend" {
			continue
		}
		out = append(out, &m.Sink)
		for j := range m.Submetrics {
			out = append(out, &m.Submetrics[j].Sink)
		}
	}
	if f.Breakdown == nil {
		return out
	}
	types := map[string]string{}
	for _, m := range f.Breakdown.Metrics {
		types[m.Name] = m.Type
	}
	for i := range f.Breakdown.Buckets {
		b := &f.Breakdown.Buckets[i]
		for j := range b.Sinks {
			if types[b.Sinks[j].Metric] == "trend" {
				out = append(out, &b.Sinks[j].Sink)
			}
		}
	}
	return out
}
