package result

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/usefullatency/usefullatency/sse"
)

// A result file is untrusted input: merge reads files other machines wrote
// and the aggregator decodes what the network posts. Reading one is bounded
// three ways, each before the memory is taken:
//
//   - decompression: at most Limits.MaxSize decompressed bytes (1 GiB by
//     default, K6_RESULT_MAX_SIZE), and past RatioFloor (1 MiB) at most
//     MaxRatio (100) decompressed bytes per compressed byte read so far:
//     gzip reaches about 1,000:1 on runs of zeros, honest files stay far
//     below 100:1 (measured: 1.1:1 to 10:1);
//   - the header: at most maxHeader bytes, and the slices and maps its JSON
//     would fill are counted first (headerShape) and refused beyond
//     headerCostPerByte bytes of decoded objects per header byte;
//   - trend values: the counts the header declares must fit in what is
//     left of the decompression budget (a value takes at least one byte),
//     and a trend's slice grows with the values actually read, never with
//     its declared count alone.
//
// So decoding costs at most MemoryFactor times the decompressed size of the
// file, plus MemoryOverhead: see TestReadResultMemoryBound. Materialize
// bounds what a file may ask of the metrics registry (MaxSubmetrics,
// MaxThresholdKeys).

// Decoding limits; Limits.MaxSize is the one a user can change.
const (
	// DefaultMaxSize is the default largest decompressed size of a result
	// file, 1 GiB: about 150 million trend values of a latency.
	DefaultMaxSize = 1 << 30
	// MaxRatio is the largest accepted ratio of decompressed to compressed
	// bytes, once RatioFloor bytes were decompressed.
	MaxRatio = 100
	// RatioFloor is how many decompressed bytes are accepted whatever the
	// ratio, 1 MiB: a small, very repetitive file is fine.
	RatioFloor = 1 << 20
	// MemoryFactor and MemoryOverhead bound what decoding a file
	// allocates in all (Go's TotalAlloc): MemoryFactor times its
	// decompressed size plus MemoryOverhead bytes (buffers, the gzip
	// window, the decoder's fixed cost).
	MemoryFactor   = 40
	MemoryOverhead = 4 << 20
	// MaxSizeEnv names the environment variable that sets Limits.MaxSize
	// for merge and aggregate, e.g. K6_RESULT_MAX_SIZE=4GiB.
	MaxSizeEnv = "K6_RESULT_MAX_SIZE"
)

// ErrTooLarge means a file exceeds a decoding limit: its decompressed size,
// its decompression ratio, its header's size or what its header declares.
var ErrTooLarge = errors.New("result file too large")

// Limits bound what a reader accepts. The zero value is the default limits.
type Limits struct {
	// MaxSize is the largest decompressed size of a file in bytes; 0 means
	// DefaultMaxSize.
	MaxSize int64
}

// LimitsFromEnv reads Limits.MaxSize from MaxSizeEnv in env ("4GiB",
// "512MiB", a number of bytes); unset or empty gives the defaults.
func LimitsFromEnv(env map[string]string) (Limits, error) {
	v := env[MaxSizeEnv]
	if v == "" {
		return Limits{}, nil
	}
	n, err := sse.ParseByteSize(v)
	if err != nil || n < 1<<10 {
		return Limits{}, fmt.Errorf("%s=%q: want a size of at least 1KiB, such as 4GiB or 512MiB", MaxSizeEnv, v)
	}
	return Limits{MaxSize: int64(n)}, nil
}

// Max returns the largest decompressed size l accepts: MaxSize, or
// DefaultMaxSize when MaxSize is 0.
func (l Limits) Max() int64 {
	if l.MaxSize > 0 {
		return l.MaxSize
	}
	return DefaultMaxSize
}

// budget returns how many decompressed bytes a file of packed compressed
// bytes may hold: the ratio's allowance, within MaxSize. packed < 0 means
// unknown: MaxSize.
func (l Limits) budget(packed int64) int64 {
	if packed < 0 {
		return l.Max()
	}
	return min(l.Max(), max(RatioFloor, MaxRatio*packed))
}

// inflater counts the decompressed bytes read through it and fails with
// ErrTooLarge past the limits: more than max bytes, or past RatioFloor more
// than MaxRatio bytes per compressed byte read so far. It never hands out
// a byte beyond max.
type inflater struct {
	r      io.Reader
	max    int64
	packed *counter
	n      int64
	err    error
}

// Read implements io.Reader.
func (z *inflater) Read(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	if left := z.max - z.n + 1; int64(len(p)) > left {
		p = p[:left] // one byte more than allowed tells the end from too much
	}
	n, err := z.r.Read(p)
	z.n += int64(n)
	switch {
	case z.n > z.max:
		z.err = fmt.Errorf("%w: more than %s decompressed (the limit; %s raises it)", ErrTooLarge, sizeText(z.max), MaxSizeEnv)
		return n - int(z.n-z.max), z.err
	case z.n > RatioFloor && z.n > MaxRatio*z.packed.n:
		z.err = fmt.Errorf("%w: decompression ratio above %d:1 (a compression bomb?)", ErrTooLarge, MaxRatio)
		return n, z.err
	}
	return n, err
}

// left returns how many more decompressed bytes the file may hold, given
// its compressed size total (< 0 when unknown).
func (z *inflater) left(l Limits, total int64) int64 {
	return min(z.max, l.budget(total)) - z.n
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// sizeText writes n bytes as "1 GiB", "1.5 MiB", "64 KiB" or "1000 bytes".
func sizeText(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		switch {
		case n >= u.size && n%u.size == 0:
			return strconv.FormatInt(n/u.size, 10) + " " + u.name
		case n >= u.size:
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
