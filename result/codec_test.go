package result

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// encode writes f to bytes.
func encode(t *testing.T, f *File) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.Bytes()
}

func TestWriteReadRoundTrip(t *testing.T) {
	f := share("0:1/3", 0, 20, thirds()[0].Start)
	odd := []float64{math.Inf(1), math.Copysign(0, -1), 0, -1.5, 1e-300, math.MaxFloat64, -math.MaxFloat64, math.Inf(-1), 3}
	i := slices.IndexFunc(f.Metrics, func(m Metric) bool { return m.Name == "iit" })
	f.Metrics[i].Sink.Values = append(f.Metrics[i].Sink.Values, odd...)
	got, err := Read(bytes.NewReader(encode(t, f)))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if got.TestID != f.TestID || got.Segments[0] != "0:1/3" || got.Sequence != "0,1/3,2/3,1" || !got.Start.Equal(f.Start) {
		t.Errorf("header = %+v, want that of %+v", got, f)
	}
	want, have := trendSinks(f), trendSinks(got)
	if len(want) != len(have) || len(want) == 0 {
		t.Fatalf("trend sinks: got %d, want %d (> 0)", len(have), len(want))
	}
	if n := len(have[0].Values); n != 20+len(odd) {
		t.Fatalf("iit has %d values, want %d", n, 20+len(odd))
	}
	for i := range want {
		sorted := slices.Clone(want[i].Values)
		sortValues(sorted)
		if !slices.EqualFunc(sorted, have[i].Values, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			t.Errorf("trend sink %d: values %v, want bit for bit %v", i, have[i].Values, sorted)
		}
	}
	if g := metric(got, "done"); g.Name != "done" || g.Sink.Sum != 20 || g.Sink.Count != 20 {
		t.Errorf("counter = %+v, want done with sum 20 and count 20", g)
	}
	if len(got.Groups) != 2 || got.Groups[1].Path != "::numbers" || got.Groups[1].Checks[0].Passes != 10 {
		t.Errorf("groups = %+v, want the root and ::numbers with 10 passes", got.Groups)
	}
}

func TestReadRefuses(t *testing.T) {
	good := encode(t, thirds()[0])
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 0x55
	tests := []struct {
		name string
		data []byte
		want error
		text string
	}{
		{"empty", nil, ErrNotResult, "not gzip"},
		{"plain text", []byte("hello\n"), ErrNotResult, "not gzip"},
		{"other gzip", gz("hello\n"), ErrNotResult, `no "usefullatency-result" header`},
		{"newer version", gz(`{"format":"usefullatency-result","version":99}` + "\n"), ErrNewerVersion, "version 99, this build reads up to 1"},
		{"version zero", gz(`{"format":"usefullatency-result","version":0}` + "\n"), ErrCorrupt, "invalid format version 0"},
		{"no end marker", gz(`{"format":"usefullatency-result","version":1,"metrics":[]}` + "\n"), ErrCorrupt, "end marker"},
		{"flipped byte", flipped, ErrCorrupt, ""},
		{"trailing data", gz(`{"format":"usefullatency-result","version":1}` + "\nULEND\x00\x00\x00x"), ErrCorrupt, "after the end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tt.data))
			if !errors.Is(err, tt.want) {
				t.Fatalf("Read = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.text) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q: want one line containing %q", err, tt.text)
			}
		})
	}
}

// A file cut anywhere is refused, never read as a smaller result.
func TestReadRefusesEveryTruncation(t *testing.T) {
	good := encode(t, thirds()[1])
	for n := range len(good) {
		if _, err := Read(bytes.NewReader(good[:n])); err == nil {
			t.Fatalf("the first %d of %d bytes read without error", n, len(good))
		}
	}
}

func TestWriteFileNamesPathOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.res")
	if err := WriteFile(path, thirds()[2]); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("stat = %v, %v; want a 0644 file", fi, err)
	}
	if f, err := ReadFile(path); err != nil || f.Path != path {
		t.Fatalf("ReadFile = %+v, %v", f, err)
	}
	os.WriteFile(path, []byte("junk"), 0o644)
	if _, err := ReadFile(path); err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("ReadFile of junk = %v, want an error starting with the path", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the result (no temporary file left)", len(entries))
	}
}

// gunzip returns the decompressed bytes of a file.
func gunzip(t *testing.T, data []byte) []byte {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(gz)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// setup()'s data, often a credential, is written only when kept
// (-o result=FILE,setupData=true), and then read, merged and handed to
// handleSummary; left out, a merge has none.
func TestResultSetupDataLeftOutUnlessKept(t *testing.T) {
	const secret = "s3cr3t-login-token"
	f := thirds()[0]
	f.SetupData = json.RawMessage(`{"token":"` + secret + `"}`)
	data := encode(t, f)
	if bytes.Contains(gunzip(t, data), []byte(secret)) {
		t.Fatal("the file holds setup data that was not kept")
	}
	got, err := Read(bytes.NewReader(data))
	if err != nil || got.SetupData != nil || got.KeepSetupData {
		t.Fatalf("Read = setup data %s (kept %v), %v; want none", got.SetupData, got.KeepSetupData, err)
	}
	if merged, _, _ := Merge([]*File{f}); merged.SetupData != nil {
		t.Errorf("merged an in-memory file's setup data that was not kept: %s", merged.SetupData)
	}
	f.KeepSetupData = true
	kept, err := Read(bytes.NewReader(encode(t, f)))
	if err != nil || string(kept.SetupData) != string(f.SetupData) || !kept.KeepSetupData {
		t.Fatalf("kept: Read = setup data %s (kept %v), %v", kept.SetupData, kept.KeepSetupData, err)
	}
	rest := thirds()[1:]
	merged, _, err := Merge(append(rest, kept))
	if err != nil || !merged.KeepSetupData || !bytes.Contains(gunzip(t, encode(t, merged)), []byte(secret)) {
		t.Fatalf("a merge with the kept file: %v, kept %v", err, merged.KeepSetupData)
	}
	if run := materialize(t, merged); run.SetupData.(map[string]any)["token"] != secret {
		t.Errorf("materialized setup data = %v", run.SetupData)
	}
}

// FuzzReadResult: whatever the bytes, reading never panics, allocates at
// most MemoryFactor times what it decompressed plus MemoryOverhead, and
// what reads writes back to a file that reads the same; what reads merges
// and materializes or is refused, never panics.
func FuzzReadResult(f *testing.F) {
	var buf bytes.Buffer
	_ = Write(&buf, thirds()[0])
	f.Add(buf.Bytes())
	f.Add([]byte{})
	f.Add(craft(head(trends(1, 1<<40)), []byte{1, 2, 3}))
	f.Add(craft(head(trends(3, 4)), []byte{1, 2, 3, 4, 0, 0, 0, 0, 9, 9, 9, 9}, trailer))
	f.Add(craft(head(`,"metrics":[{},{},{}],"groups":[{"path":"::a","checks":[{}]}],"thresholds":{"a{b:c}":[{}]}`), trailer))
	f.Add(craft(head(`,"breakdown":{"keys":["k"],"metrics":[{"name":"iit","type":"trend"}],"buckets":[{"name":"b","sinks":[{"metric":"iit","sink":{"count":1}}]}]}`), []byte{5}, trailer))
	f.Add(craft(craft(head(""), trailer)))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, alloc, n, err := readMeasured(Limits{}, data, len(data)%2 == 0)
		if alloc > decodeBound(n) {
			t.Fatalf("allocated %d bytes for %d decompressed: more than %d× + %d", alloc, n, MemoryFactor, MemoryOverhead)
		}
		if err != nil {
			return
		}
		if got.Format != Format {
			t.Fatalf("read a file of format %q", got.Format)
		}
		var once, twice bytes.Buffer
		if err := Write(&once, got); err != nil {
			return // what JSON cannot hold (a NaN sum), the header refuses
		}
		again, err := Read(bytes.NewReader(once.Bytes()))
		if err != nil {
			t.Fatalf("a written file reads back with %v", err)
		}
		if err := Write(&twice, again); err != nil || !bytes.Equal(gunzip(t, once.Bytes()), gunzip(t, twice.Bytes())) {
			t.Fatalf("written, read and written again, the file changed (%v)", err)
		}
		// What reads must merge or be refused, never panic.
		if merged, _, err := Merge([]*File{got}); err == nil {
			if run, err := merged.Materialize(false); err == nil {
				run.EvalThresholds()
			}
		}
	})
}
