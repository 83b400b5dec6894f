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
// are written sorted, f's slices are left as they are. SetupData is
// written only when KeepSetupData is set.
func Write(w io.Writer, f *File) error {
	f.Format, f.Version = Format, Version
	trends := trendSinks(f)
	for _, s := range trends {
		s.Count = int64(len(s.Values))
	}
	stored := f
	if !f.KeepSetupData && f.SetupData != nil {
		c := *f
		c.SetupData = nil
		stored = &c
	}
	header, err := json.Marshal(stored)
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

// ReadFile reads the result at path within the default Limits; errors
// name the path.
func ReadFile(path string) (*File, error) { return Limits{}.ReadFile(path) }

// Read decodes a result written by Write, within the default Limits. It
// refuses a file that is not a result (ErrNotResult), is of a newer format
// version (ErrNewerVersion), is damaged or truncated (ErrCorrupt) or
// exceeds a limit (ErrTooLarge).
func Read(r io.Reader) (*File, error) { return Limits{}.Read(r) }

// ReadFile reads the result at path within l; errors name the path.
func (l Limits) ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	size := int64(-1)
	if fi, err := fh.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	f, _, err := l.read(fh, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.Path = path
	return f, nil
}

// Read decodes a result written by Write within l, as the package-level
// Read. When r tells its length (a *bytes.Reader, a *strings.Reader), the
// trends' declared counts are checked against what that many compressed
// bytes can hold before a value is read.
func (l Limits) Read(r io.Reader) (*File, error) {
	size := int64(-1)
	if lr, ok := r.(interface{ Len() int }); ok {
		size = int64(lr.Len())
	}
	f, _, err := l.read(r, size)
	return f, err
}

// read decodes a file of size compressed bytes (< 0: unknown); inflated is
// how many decompressed bytes it read.
func (l Limits) read(r io.Reader, size int64) (f *File, inflated int64, err error) {
	packed := &counter{r: r}
	gz, err := gzip.NewReader(packed)
	if err != nil {
		return nil, 0, fmt.Errorf("%w (not gzip-compressed: %v)", ErrNotResult, err)
	}
	z := &inflater{r: gz, max: l.Max(), packed: packed}
	f, err = l.decode(bufio.NewReaderSize(z, 256<<10), z, size)
	return f, z.n, err
}

// decode reads the header, the values and the end of a file from br,
// which reads z.
func (l Limits) decode(br *bufio.Reader, z *inflater, size int64) (*File, error) {
	f, err := readHeader(br)
	if err != nil {
		return nil, err
	}
	left := func() int64 { return z.left(l, size) + int64(br.Buffered()) }
	if err := readValues(br, f, left); err != nil {
		return nil, err
	}
	// Reading to the end makes gzip check its CRC-32 and length.
	if n, err := io.Copy(io.Discard, br); err != nil || n != 0 {
		return nil, corrupt("data after the end of the result", err)
	}
	f.KeepSetupData = len(f.SetupData) > 0
	return f, nil
}

// readValues reads every trend's values and the trailer. left returns how
// many more decompressed bytes the file may hold: the counts the header
// declares must fit in it, a value taking at least one byte.
func readValues(br *bufio.Reader, f *File, left func() int64) error {
	sinks := trendSinks(f)
	room := left() - int64(len(trailer))
	for _, s := range sinks {
		if s.Count < 0 {
			return corrupt(fmt.Sprintf("invalid trend count %d", s.Count), nil)
		}
		if s.Count > room {
			return fmt.Errorf("%w: its trends declare more values than the rest of the file can hold (a trend of %d values, %s left)",
				ErrTooLarge, s.Count, sizeText(max(room, 0)))
		}
		room -= s.Count
	}
	for _, s := range sinks {
		vs, err := readTrend(br, s.Count)
		if err != nil {
			return err
		}
		s.Values = vs
	}
	end := make([]byte, len(trailer))
	if _, err := io.ReadFull(br, end); err != nil || string(end) != string(trailer) {
		return corrupt("missing end marker", err)
	}
	return nil
}

// readTrend reads count values. The slice grows as values are read, to at
// most twice what was read and never beyond count: a count that the data
// does not hold costs nothing.
func readTrend(br *bufio.Reader, count int64) ([]float64, error) {
	vs := make([]float64, 0, min(count, 512))
	var k uint64
	for range count {
		d, err := binary.ReadUvarint(br)
		if err != nil {
			return nil, corrupt("trend values", err)
		}
		if len(vs) == cap(vs) {
			vs = slices.Grow(vs, int(min(count, 2*int64(cap(vs)))-int64(len(vs))))
		}
		k += d
		vs = append(vs, fromKey(k))
	}
	return vs, nil
}

// corrupt returns ErrCorrupt with what was being read and why.
func corrupt(what string, err error) error {
	if errors.Is(err, ErrTooLarge) {
		return err
	}
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
