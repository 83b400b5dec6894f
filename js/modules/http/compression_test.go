package k6http

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
)

func TestCompressionRoundTrip(t *testing.T) {
	plain := []byte(strings.Repeat("usefullatency ", 100))
	for _, list := range [][]string{{"gzip"}, {"deflate"}, {"br"}, {"zstd"}, {"gzip", "br"}, {"br", "deflate", "zstd", "gzip"}} {
		body, enc, err := compress(plain, list)
		if err != nil {
			t.Fatal(err)
		}
		if enc != strings.Join(list, ", ") || bytes.Equal(body, plain) {
			t.Fatalf("%v: Content-Encoding %q, body unchanged %v", list, enc, bytes.Equal(body, plain))
		}
		got, err := readBody(bytes.NewReader(body), enc, -1, httpsafe.DefaultMaxResponseSize)
		if err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("%v: decoded %q, %v", list, got, err)
		}
	}
}

func TestReadBodyErrors(t *testing.T) {
	gz, _, _ := compress(bytes.Repeat([]byte{'a'}, 1<<16), []string{"gzip"})
	netErr := errors.New("connection reset")
	tests := []struct {
		name     string
		r        io.Reader
		encoding string
		limit    int64
		wantCode int
		wantLen  int
	}{
		{"not gzip", strings.NewReader("plain text"), "gzip", 1 << 20, codeDecompression, 0},
		{"truncated gzip", bytes.NewReader(gz[:len(gz)/2]), "gzip", 1 << 20, codeDecompression, -1},
		{"bad brotli", strings.NewReader("\xff\xff\xff\xff"), "br", 1 << 20, codeDecompression, -1},
		{"too large after decoding", bytes.NewReader(gz), "gzip", 1000, codeGeneric, 1000},
		{"too large plain", strings.NewReader(strings.Repeat("x", 2000)), "", 1000, codeGeneric, 1000},
		{"unknown coding left as is", strings.NewReader("zz"), "lz4", 1000, 0, 2},
		{"identity", strings.NewReader("zz"), "identity", 1000, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readBody(tt.r, tt.encoding, -1, tt.limit)
			var be *bodyError
			var lim *httpsafe.LimitError
			code := 0
			switch {
			case errors.As(err, &be):
				code = be.code
			case errors.As(err, &lim):
				code = codeGeneric // what send makes of a limit
			case err != nil:
				t.Fatalf("error %v is neither a bodyError nor a LimitError", err)
			}
			if code != tt.wantCode || tt.wantLen >= 0 && len(got) != tt.wantLen {
				t.Fatalf("code %d, %d bytes (%v); want code %d, %d bytes", code, len(got), err, tt.wantCode, tt.wantLen)
			}
		})
	}
	t.Run("network error under gzip stays a network error", func(t *testing.T) {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		_, _ = w.Write(bytes.Repeat([]byte("abc"), 5000))
		_ = w.Close()
		r := io.MultiReader(bytes.NewReader(buf.Bytes()[:buf.Len()/2]), iotest.ErrReader(netErr))
		_, err := readBody(r, "gzip", -1, 1<<20)
		if !errors.Is(err, netErr) {
			t.Fatalf("got %v, want the network error", err)
		}
	})
}

// TestZstdBombBounded checks that a small zstd body that decodes to far
// more than the limit stops at the limit with the limit's error.
func TestZstdBombBounded(t *testing.T) {
	bomb, _, err := compress(make([]byte, 16<<20), []string{"zstd"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := readBody(bytes.NewReader(bomb), "zstd", -1, 1<<20)
	var lim *httpsafe.LimitError
	if len(bomb) > 64<<10 || len(got) != 1<<20 || !errors.As(err, &lim) {
		t.Errorf("a %d-byte zstd bomb read %d bytes, error %v; want 1 MiB and the limit's error", len(bomb), len(got), err)
	}
}

// TestDecompressionRatioGuard checks that a gzip bomb under a large limit
// stops at the ratio guard, soon after httpsafe.RatioFloor decoded bytes.
func TestDecompressionRatioGuard(t *testing.T) {
	bomb, _, err := compress(make([]byte, 32<<20), []string{"gzip"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := readBody(bytes.NewReader(bomb), "gzip", -1, httpsafe.DefaultMaxResponseSize)
	var lim *httpsafe.LimitError
	if !errors.As(err, &lim) || lim.What != "decompression ratio" || int64(len(got)) > 2*httpsafe.RatioFloor {
		t.Errorf("a %d-byte gzip bomb read %d bytes, error %v; want the ratio guard near %d bytes", len(bomb), len(got), err, httpsafe.RatioFloor)
	}
}

// TestStackedCodingsRefusedBeforeDecoding checks that a body of 2,000
// stacked gzip layers is refused with 1701 before a decoder is made:
// undone, each layer's decoder would hold its window (84 MB here; 839 MB
// for 20,000 layers in 1.2 MB).
func TestStackedCodingsRefusedBeforeDecoding(t *testing.T) {
	const layers = 2000
	body := []byte("usefullatency")
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	for range layers {
		buf = bytes.Buffer{}
		w.Reset(&buf)
		_, _ = w.Write(body)
		_ = w.Close()
		body = bytes.Clone(buf.Bytes())
	}
	encoding := strings.TrimSuffix(strings.Repeat("gzip, ", layers), ", ")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := readBody(bytes.NewReader(body), encoding, -1, httpsafe.DefaultMaxResponseSize)
	runtime.ReadMemStats(&after)
	var be *bodyError
	if !errors.As(err, &be) || be.code != codeDecompression || got != nil ||
		be.msg != "error decompressing response body (Content-Encoding stacks 2000 content codings, more than 5)" {
		t.Fatalf("a %d-byte body of %d gzip layers: %d bytes, error %v; want 1701", len(body), layers, len(got), err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Fatalf("refusing %d layers allocated %d KiB", layers, alloc>>10)
	}
}

// TestStackedBombStopsAtTheRatio checks that the ratio guard holds on a
// bomb spread over stacked codings.
func TestStackedBombStopsAtTheRatio(t *testing.T) {
	bomb, enc, err := compress(make([]byte, 32<<20), []string{"gzip", "gzip", "gzip"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := readBody(bytes.NewReader(bomb), enc, -1, httpsafe.DefaultMaxResponseSize)
	var lim *httpsafe.LimitError
	if !errors.As(err, &lim) || lim.What != "decompression ratio" || int64(len(got)) > 2*httpsafe.RatioFloor {
		t.Errorf("a %d-byte triple-gzip bomb read %d bytes, error %v; want the ratio guard near %d bytes", len(bomb), len(got), err, httpsafe.RatioFloor)
	}
}

// eofReader reads data in reads of at most chunk bytes and returns io.EOF
// with the last ones, as net/http's bodies of known length do.
type eofReader struct {
	data  []byte
	chunk int
}

func (r *eofReader) Read(p []byte) (int, error) {
	n := copy(p[:min(len(p), r.chunk)], r.data)
	r.data = r.data[n:]
	if len(r.data) == 0 {
		return n, io.EOF
	}
	return n, nil
}

// TestReadPlainAsReadAll checks that a body that is not encoded, read into
// a buffer of its announced size, gives what io.ReadAll through the body
// limit gives, bytes and error, whatever the size announced: exact,
// shorter or longer than the body, past the limit, unknown; and a body
// that fails part way.
func TestReadPlainAsReadAll(t *testing.T) {
	netErr := errors.New("connection reset")
	body := bytes.Repeat([]byte("0123456789"), 200) // 2,000 bytes
	cases := []struct {
		name        string
		size, limit int64
		r           func() io.Reader
	}{
		{"exact", 2000, 1 << 20, func() io.Reader { return &eofReader{data: body, chunk: 700} }},
		{"exact, EOF apart", 2000, 1 << 20, func() io.Reader { return bytes.NewReader(body) }},
		{"longer than announced", 1000, 1 << 20, func() io.Reader { return &eofReader{data: body, chunk: 300} }},
		{"longer than announced, past the limit", 1000, 1500, func() io.Reader { return bytes.NewReader(body) }},
		{"announced past the limit", 5000, 1000, func() io.Reader { return bytes.NewReader(body) }},
		{"exactly the limit", 2000, 2000, func() io.Reader { return bytes.NewReader(body) }},
		{"one byte past the limit", 2000, 1999, func() io.Reader { return &eofReader{data: body, chunk: 2000} }},
		{"shorter than announced", 5000, 1 << 20, func() io.Reader {
			return io.MultiReader(bytes.NewReader(body), iotest.ErrReader(io.ErrUnexpectedEOF))
		}},
		{"network error", 2000, 1 << 20, func() io.Reader {
			return io.MultiReader(bytes.NewReader(body[:500]), iotest.ErrReader(netErr))
		}},
		{"unknown size", -1, 1 << 20, func() io.Reader { return bytes.NewReader(body) }},
		{"empty", 0, 1 << 20, func() io.Reader { return http.NoBody }},
		{"larger than the presized buffer", maxPresize + 1, 1 << 30, func() io.Reader {
			return bytes.NewReader(make([]byte, maxPresize+1))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := readBody(c.r(), "", c.size, c.limit)
			want, wantErr := io.ReadAll(&httpsafe.BodyLimit{R: c.r(), Max: c.limit})
			if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) || (got == nil) != (want == nil) {
				t.Errorf("%d bytes, %v; io.ReadAll: %d bytes, %v", len(got), err, len(want), wantErr)
			}
			var lim *httpsafe.LimitError
			if errors.As(wantErr, &lim) != errors.As(err, &lim) || errors.Is(wantErr, netErr) != errors.Is(err, netErr) {
				t.Errorf("error %#v, want %#v", err, wantErr)
			}
		})
	}
}

// TestReadPlainAllocations checks that a body of known length, ending
// with its last bytes as net/http's do, costs one allocation, its buffer;
// past maxPresize two, the buffer of maxPresize and the one of its
// length.
func TestReadPlainAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates for itself")
	}
	for _, c := range []struct {
		size   int
		allocs float64
	}{{1024, 1}, {4 * maxPresize, 2}} {
		body := bytes.Repeat([]byte("x"), c.size)
		r := &eofReader{chunk: 64 << 10}
		allocs := testing.AllocsPerRun(20, func() {
			r.data = body
			got, err := readBody(r, "", int64(len(body)), 1<<30)
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("%d bytes (capacity %d), %v", len(got), cap(got), err)
			}
		})
		if allocs > c.allocs {
			t.Errorf("a body of %d bytes: %v allocations, want %v", c.size, allocs, c.allocs)
		}
	}
}
