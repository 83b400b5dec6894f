package output

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/result"
)

// The result output notes the time of the sample whose value each gauge
// (and gauge submetric) keeps — the last pushed — hands them to the
// snapshot and writes what it returns.
func TestResultOutput(t *testing.T) {
	reg := metrics.NewRegistry()
	eng := metrics.NewEngine(reg)
	g := reg.MustNewMetric("queue_depth", metrics.Gauge)
	sub, err := reg.Submetric(g, "pool:a")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.res")
	var seen map[string]time.Time
	snapshot := func(times map[string]time.Time) *result.File {
		seen = times
		var f *result.File
		eng.Read(func() {
			f = result.Snapshot(result.Source{Registry: reg, End: time.Now(), GaugeTimes: times})
		})
		return f
	}
	o, err := New("result="+path, Params{Registry: reg, Result: snapshot})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	eng.Subscribe(o.AddSamples)
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	eng.Push(
		metrics.Sample{Metric: g, Tags: metrics.Tags{"pool": "a"}, Value: 3, Time: t0.Add(2 * time.Second)},
		metrics.Sample{Metric: g, Tags: metrics.Tags{"pool": "b"}, Value: 5, Time: t0.Add(3 * time.Second)},
		metrics.Sample{Metric: g, Tags: metrics.Tags{"pool": "a"}, Value: 4, Time: t0.Add(time.Second)},
	)
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	if !seen[g.Name].Equal(t0.Add(time.Second)) || !seen[sub.Name].Equal(t0.Add(time.Second)) {
		t.Errorf("gauge times = %v, want that of the last sample pushed, 1 s", seen)
	}
	f, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := f.Metrics[0]
	if m.Sink.Value != 4 || m.Submetrics[0].Sink.Value != 4 || !m.Sink.Last.Equal(t0.Add(time.Second)) {
		t.Errorf("written gauge = %+v", m)
	}
	if _, err := New("result", Params{Result: snapshot}); err == nil {
		t.Error("-o result without a path was accepted")
	}
}

// setup()'s data is left out of the result file unless
// `-o result=PATH,setupData=true` asks for it; a path may hold commas.
func TestResultOutputSetupData(t *testing.T) {
	const secret = "s3cr3t-login-token"
	snapshot := func(times map[string]time.Time) *result.File {
		return result.Snapshot(result.Source{Registry: metrics.NewRegistry(), End: time.Now(), SetupData: []byte(`{"token":"` + secret + `"}`)})
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		arg, path string
		kept      bool
	}{
		{"r.res", "r.res", false},
		{"a,b.res", "a,b.res", false},
		{"kept.res,setupData=true", "kept.res", true},
		{"a,kept.res,setupData=true", "a,kept.res", true},
		{"off.res,setupData=false", "off.res", false},
	} {
		path := filepath.Join(dir, tt.path)
		o, err := New("result="+filepath.Join(dir, tt.arg), Params{Result: snapshot})
		if err != nil {
			t.Fatalf("-o result=%s: %v", tt.arg, err)
		}
		if err := o.Start(); err != nil {
			t.Fatal(err)
		}
		if err := o.Stop(); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("-o result=%s: %v", tt.arg, err)
		}
		gz, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := io.ReadAll(gz)
		if got := bytes.Contains(plain, []byte(secret)); got != tt.kept {
			t.Errorf("-o result=%s: the file holds the setup data: %v, want %v", tt.arg, got, tt.kept)
		}
		f, err := result.ReadFile(path)
		if err != nil || (f.SetupData != nil) != tt.kept {
			t.Errorf("-o result=%s: read back setup data %s, %v", tt.arg, f.SetupData, err)
		}
	}
	for _, arg := range []string{"r.res,setupData=maybe", ",setupData=true"} {
		if _, err := New("result="+arg, Params{Result: snapshot}); err == nil || !strings.Contains(err.Error(), "--out result="+arg) {
			t.Errorf("-o result=%s: error %v, want one naming the output", arg, err)
		}
	}
}
