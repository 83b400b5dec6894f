package result

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchFiles writes files result files holding samples Trend values in
// all (latency-like: exponential, mean 120 ms, full float64 precision)
// and returns their paths and total size in bytes.
func benchFiles(b *testing.B, files, samples int) ([]string, int64) {
	b.Helper()
	dir := b.TempDir()
	var paths []string
	var size int64
	per := samples / files
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range files {
		f := &File{
			TestID: "bench", Segments: []string{segmentOfN(i, files)}, Start: t0, End: t0.Add(time.Minute), Duration: time.Minute,
			Metrics: []Metric{
				{Name: "usefulsse_useful", Type: "trend", Contains: "time", Sink: Sink{Values: randomValues(per, uint64(i))}},
				{Name: "iterations", Type: "counter", Contains: "default", Sink: Sink{Sum: float64(per), Count: int64(per)}},
			},
		}
		p := filepath.Join(dir, "r"+string(rune('a'+i))+".res")
		if err := WriteFile(p, f); err != nil {
			b.Fatal(err)
		}
		fi, _ := os.Stat(p)
		size += fi.Size()
		paths = append(paths, p)
	}
	return paths, size
}

// segmentOfN is the i-th of n equal segments, "i/n:(i+1)/n".
func segmentOfN(i, n int) string {
	frac := func(k int) string {
		switch k {
		case 0:
			return "0"
		case n:
			return "1"
		}
		return itoa(k) + "/" + itoa(n)
	}
	return frac(i) + ":" + frac(i+1)
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// BenchmarkMerge10M reads 8 result files holding 10 M Trend samples in
// all, merges them and computes the merged p(95), as `usefullatency
// merge` does; it reports the files' size per sample. make bench runs it.
func BenchmarkMerge10M(b *testing.B) {
	const files, samples = 8, 10_000_000
	paths, size := benchFiles(b, files, samples)
	b.ResetTimer()
	for range b.N {
		var fs []*File
		for _, p := range paths {
			f, err := ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			fs = append(fs, f)
		}
		merged, _, err := Merge(fs)
		if err != nil {
			b.Fatal(err)
		}
		run, err := merged.Materialize(false)
		if err != nil {
			b.Fatal(err)
		}
		if s := trendOf(run, "usefulsse_useful"); s.Count() != samples || s.P(0.95) <= 0 {
			b.Fatalf("merged %d samples, p(95) %v", s.Count(), s.P(0.95))
		}
	}
	b.ReportMetric(float64(size)/samples, "file-bytes/sample")
	b.ReportMetric(float64(size)/(1<<20), "files-MiB")
}

// BenchmarkWrite1250k writes one runner's file of 1.25 M Trend samples
// (an eighth of BenchmarkMerge10M's), the work -o result does at the end of
// a run.
func BenchmarkWrite1250k(b *testing.B) {
	f := &File{TestID: "bench", Segments: []string{"0:1/8"}, Metrics: []Metric{
		{Name: "usefulsse_useful", Type: "trend", Contains: "time", Sink: Sink{Values: randomValues(1_250_000, 1)}},
	}}
	path := filepath.Join(b.TempDir(), "r.res")
	b.ResetTimer()
	for range b.N {
		if err := WriteFile(path, f); err != nil {
			b.Fatal(err)
		}
	}
}
