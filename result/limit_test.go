package result

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// craft gzips parts into one stream at the best compression: what an
// attacker would pick.
func craft(parts ...[]byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	for _, p := range parts {
		w.Write(p)
	}
	w.Close()
	return b.Bytes()
}

// head returns a header line of a result with members (",\"k\":v,…")
// added.
func head(members string) []byte {
	return []byte(`{"format":"usefullatency-result","version":1,"test_id":"t","segments":["0:1"]` + members + "}\n")
}

// repeat returns n copies of s separated by commas.
func repeat(s string, n int) string { return strings.TrimSuffix(strings.Repeat(s+",", n), ",") }

// trends declares n trend metrics of count values each.
func trends(n int, count int64) string {
	ms := make([]string, n)
	for i := range ms {
		ms[i] = fmt.Sprintf(`{"name":"t%d","type":"trend","contains":"time","sink":{"count":%d}}`, i, count)
	}
	return `,"metrics":[` + strings.Join(ms, ",") + "]"
}

// zeroMiB is a gzip member of 1 MiB of zeros (1 KiB).
var zeroMiB = sync.OnceValue(func() []byte { return craft(make([]byte, 1<<20)) })

// zeroBomb returns a gzip stream of n MiB of zeros made of 1 MiB members:
// gzip readers read concatenated members as one stream, as the issue's
// "1 MiB gzip of zeros" (1 GiB) reads.
func zeroBomb(n int) []byte { return bytes.Repeat(zeroMiB(), n) }

// allocated returns the bytes fn allocates (the TotalAlloc delta).
func allocated(fn func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// decodeBound is what decoding may allocate after reading n decompressed
// bytes: the documented MemoryFactor and MemoryOverhead.
func decodeBound(n int64) uint64 { return uint64(MemoryFactor*n + MemoryOverhead) }

// readMeasured reads data within l, with its size known or not, and
// returns what it allocated and how many bytes it decompressed.
func readMeasured(l Limits, data []byte, sized bool) (f *File, alloc uint64, n int64, err error) {
	size := int64(-1)
	if sized {
		size = int64(len(data))
	}
	alloc = allocated(func() { f, n, err = l.read(bytes.NewReader(data), size) })
	return f, alloc, n, err
}

// Crafted files are refused with ErrTooLarge (or as no result at all)
// after allocating at most the documented multiple of what they
// decompressed to, and little in absolute terms, whether the reader knows
// the file's size or not. Before the limits, the zero bomb cost 1.3 GB and
// the header of empty objects 4.8 GB (15 KB of gzip).
func TestReadResultRefusesCraftedFiles(t *testing.T) {
	valid := encode(t, thirds()[0])
	deep := head(`,"metrics":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000))
	tests := []struct {
		name   string
		data   []byte
		limits Limits
		want   error
		text   string
	}{
		{"1 GiB of zeros in 1 MiB of gzip", zeroBomb(1024), Limits{}, ErrTooLarge, "decompression ratio above 100:1"},
		{"zeros after a header declaring them", append(craft(head(trends(1, 1<<29))), zeroBomb(512)...), Limits{}, ErrTooLarge, ""},
		{"a count of 2^40 values", craft(head(trends(1, 1<<40)), []byte{1, 2, 3}), Limits{}, ErrTooLarge, "declare more values than the rest of the file can hold"},
		{"a negative count", craft(head(trends(1, -5))), Limits{}, ErrCorrupt, "invalid trend count -5"},
		{"200 trends of 1M zero deltas", append(craft(head(trends(200, 1<<20))), zeroBomb(200)...), Limits{}, ErrTooLarge, ""},
		{"300k empty metric objects", craft(head(`,"metrics":[` + repeat("{}", 300_000) + "]")), Limits{}, ErrTooLarge, "more than 32 times its size"},
		{"300k numbers where metrics go", craft(head(`,"metrics":[` + repeat("0", 300_000) + "]")), Limits{}, ErrTooLarge, "more than 32 times its size"},
		{"upper-case METRICS", craft(head(`,"METRICS":[` + repeat("{}", 300_000) + "]")), Limits{}, ErrTooLarge, "more than 32 times its size"},
		{"escaped key", craft(head(`,"metr\u0069cs":[` + repeat("{}", 300_000) + "]")), Limits{}, ErrTooLarge, "more than 32 times its size"},
		{"300k empty submetrics", craft(head(`,"metrics":[{"name":"m","type":"trend","submetrics":[` + repeat("{}", 300_000) + "]}]")), Limits{}, ErrTooLarge, "more than 32 times its size"},
		{"300k empty checks", craft(head(`,"groups":[{"path":"","checks":[` + repeat("{}", 300_000) + "]}]")), Limits{}, ErrTooLarge, "more than 32 times its size"},
		{"deep nesting", craft(deep), Limits{}, ErrCorrupt, "header"},
		{"gzip in gzip of zeros", craft(zeroBomb(1024)), Limits{}, ErrTooLarge, "decompression ratio"},
		{"gzip in gzip", craft(zeroBomb(1)), Limits{}, ErrCorrupt, "header"},
		{"gzip in gzip of a result", craft(valid), Limits{}, ErrNotResult, ""},
		{"an honest file over MaxSize", valid, Limits{MaxSize: 512}, ErrTooLarge, "more than 512 bytes decompressed (the limit; K6_RESULT_MAX_SIZE raises it)"},
	}
	for _, tt := range tests {
		for _, sized := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/sized=%v", tt.name, sized), func(t *testing.T) {
				_, alloc, n, err := readMeasured(tt.limits, tt.data, sized)
				if !errors.Is(err, tt.want) {
					t.Fatalf("read = %v, want %v", err, tt.want)
				}
				if !strings.Contains(err.Error(), tt.text) || strings.Contains(err.Error(), "\n") {
					t.Errorf("error %q: want one line containing %q", err, tt.text)
				}
				if alloc > decodeBound(n) || alloc > 64<<20 {
					t.Errorf("allocated %d MiB after decompressing %d KiB of %d KiB: want at most %d MiB and 64 MiB",
						alloc>>20, n>>10, len(tt.data)>>10, decodeBound(n)>>20)
				}
				t.Logf("%d KiB of gzip, %d KiB decompressed, %.1f MiB allocated: %v", len(tt.data)>>10, n>>10, float64(alloc)/(1<<20), err)
			})
		}
	}
}

// Files that are accepted, honest or crafted to pass every limit, cost at
// most MemoryFactor times their decompressed size plus MemoryOverhead.
func TestReadResultMemoryBound(t *testing.T) {
	latencies := func(n int) *File {
		f := thirds()[0]
		f.Metrics = append(f.Metrics, Metric{Name: "lat", Type: "trend", Contains: "time", Sink: Sink{Values: randomValues(n, 7)}})
		return f
	}
	zeros := thirds()[0]
	zeros.Metrics = append(zeros.Metrics, Metric{Name: "connecting", Type: "trend", Contains: "time", Sink: Sink{Values: make([]float64, 1_000_000)}})
	r := rand.New(rand.NewPCG(1, 2))
	noise := func() string { return fmt.Sprintf("%016x", r.Uint64()) }
	var padded, subs []string
	for range 100_000 {
		padded = append(padded, `{"x":"`+noise()[:10]+`"}`)
		subs = append(subs, `{"selector":"k:`+noise()[:4]+`","sink":{}}`)
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"a share", encode(t, thirds()[0])},
		{"200k latencies", encode(t, latencies(200_000))},
		{"1M zero latencies", encode(t, zeros)},
		{"100k padded metric objects", craft(head(`,"metrics":[` + strings.Join(padded, ",") + "]"))},
		{"100k submetrics", craft(head(`,"metrics":[{"name":"m","type":"trend","contains":"time","sink":{},"submetrics":[`+strings.Join(subs, ",")+"]}]"), trailer)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, alloc, n, err := readMeasured(Limits{}, tt.data, true)
			if err != nil && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("read = %v, want a file, or one refused as corrupt", err)
			}
			if alloc > decodeBound(n) {
				t.Errorf("allocated %d KiB for %d KiB decompressed: more than %d× + %d MiB", alloc>>10, n>>10, MemoryFactor, MemoryOverhead>>20)
			}
			t.Logf("%d KiB of gzip (ratio %.1f:1), %d KiB decompressed, %.1f MiB allocated (%.1f× the decompressed size)",
				len(tt.data)>>10, float64(n)/float64(len(tt.data)), n>>10, float64(alloc)/(1<<20), float64(alloc)/float64(n))
		})
	}
}

// Honest headers cost a few bytes of Go per byte of JSON, far below
// headerCostPerByte; the counts headerShape finds are those decoding
// fills.
func TestResultHeaderShape(t *testing.T) {
	f := thirds()[0]
	f.SetupData, f.KeepSetupData = []byte(`{"token":[1,2,3,4,5,6,7,8,9,10,11,12]}`), true
	f.Options = []byte(`{"stages":[{"target":1},{"target":2},{"target":3}]}`)
	gz, err := gzip.NewReader(bytes.NewReader(encode(t, f)))
	if err != nil {
		t.Fatal(err)
	}
	line, err := readLine(bufio.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	s := headerShape(line)
	got := headerShape(line).presized()
	if cap(got.Metrics) != len(f.Metrics) || cap(got.Groups) != len(f.Groups) || cap(got.Segments) != 1 || cap(got.SummaryTrendStats) != len(f.SummaryTrendStats) {
		t.Errorf("presized %d metrics, %d groups, %d segments, %d stats; want %d, %d, 1, %d",
			cap(got.Metrics), cap(got.Groups), cap(got.Segments), cap(got.SummaryTrendStats), len(f.Metrics), len(f.Groups), len(f.SummaryTrendStats))
	}
	want := int64(len(f.Metrics) + len(f.Groups) + 1 + len(f.SummaryTrendStats) + 2) // + the threshold's map entry and list
	for _, m := range f.Metrics {
		want += int64(len(m.Submetrics))
	}
	for _, g := range f.Groups {
		want += int64(len(g.Checks))
	}
	b := f.Breakdown
	want += int64(len(b.Keys) + len(b.Metrics) + len(b.Buckets))
	for _, bk := range b.Buckets {
		want += int64(len(bk.Sinks))
	}
	if s.elements != want {
		t.Errorf("counted %d elements, want %d (options and setup data not counted)", s.elements, want)
	}
	if per := float64(s.cost) / float64(len(line)); per > headerCostPerByte/4 {
		t.Errorf("an honest header costs %.1f bytes per byte, want at most a quarter of the limit, %d", per, headerCostPerByte)
	}
	for _, key := range []string{`"metrics"`, `"METRICS"`, `"Metrics"`, `"metr\u0069cs"`, `"ſegments"`} {
		line := head(`,` + key + `:[{},{},{}]`)
		if s := headerShape(line); s.elements != 4 {
			t.Errorf("%s: %d elements, want 4 (the key matches as encoding/json matches it)", key, s.elements)
		}
	}
}

// The limits are read from K6_RESULT_MAX_SIZE.
func TestResultLimitsFromEnv(t *testing.T) {
	for _, tt := range []struct {
		value          string
		maxSize, limit int64
	}{
		{"", 0, DefaultMaxSize},
		{"4GiB", 4 << 30, 4 << 30},
		{"512MiB", 512 << 20, 512 << 20},
		{"65536", 65536, 65536},
	} {
		l, err := LimitsFromEnv(map[string]string{MaxSizeEnv: tt.value})
		if err != nil || l.MaxSize != tt.maxSize || l.Max() != tt.limit {
			t.Errorf("%s=%q: %+v (Max %d), %v; want MaxSize %d, Max %d", MaxSizeEnv, tt.value, l, l.Max(), err, tt.maxSize, tt.limit)
		}
	}
	for _, v := range []string{"lots", "-1", "12"} {
		if _, err := LimitsFromEnv(map[string]string{MaxSizeEnv: v}); err == nil || !strings.Contains(err.Error(), MaxSizeEnv+"=") {
			t.Errorf("%s=%q: error %v, want one naming the variable", MaxSizeEnv, v, err)
		}
	}
}

// Every truncation and every single-byte flip of a file is refused or
// read within the memory bound, never a panic.
func TestReadResultDamagedWithinBound(t *testing.T) {
	f := thirds()[1]
	f.Metrics = append(f.Metrics, Metric{Name: "lat", Type: "trend", Contains: "time", Sink: Sink{Values: randomValues(5_000, 3)}})
	good := encode(t, f)
	r := rand.New(rand.NewPCG(3, 4))
	deadline := time.Now().Add(3 * time.Second)
	for i := 0; i < 300 && time.Now().Before(deadline); i++ {
		data := bytes.Clone(good)
		if i%2 == 0 {
			data = data[:r.IntN(len(data))]
		} else {
			data[r.IntN(len(data))] ^= byte(1 + r.IntN(255))
		}
		_, alloc, n, _ := readMeasured(Limits{}, data, i%4 < 2)
		if alloc > decodeBound(n) {
			t.Fatalf("damaged file %d: allocated %d KiB for %d KiB decompressed", i, alloc>>10, n>>10)
		}
	}
}
