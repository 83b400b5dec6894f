package output

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// fixture returns a registry with a trend that has a threshold and a
// submetric, and three samples at a fixed time.
func fixture(t *testing.T) (*metrics.Registry, []metrics.Sample) {
	t.Helper()
	reg := metrics.NewRegistry()
	useful := reg.MustNewMetric("usefulsse_useful", metrics.Trend, metrics.Time)
	reqs := reg.MustNewMetric("http_reqs", metrics.Counter)
	if err := metrics.ApplyThresholds(reg, map[string][]metrics.ThresholdConfig{
		"usefulsse_useful{bucket:qa}": {{Source: "p(95)<2500"}},
	}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 2, 10, 0, 0, 123456789, time.UTC)
	tags := metrics.Tags{"scenario": "qa", "bucket": "qa", "status": "200", "name": "http://x/chat", "method": "POST"}
	return reg, []metrics.Sample{
		{Metric: useful, Tags: tags, Time: at, Value: 1234.5},
		{Metric: reqs, Tags: tags, Time: at, Value: 1},
		{Metric: useful, Tags: tags.With("note", `quote " and ünïcode`), Time: at.Add(time.Second), Value: 2},
	}
}

// runOutput feeds samples through an output built from spec and returns
// what it wrote to path (decompressed).
func runOutput(t *testing.T, spec, path string, env map[string]string) string {
	t.Helper()
	reg, samples := fixture(t)
	o, err := New(spec, Params{Env: env, Registry: reg, Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	o.AddSamples(samples[:2])
	o.AddSamples(samples[2:])
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestJSONLines(t *testing.T) {
	for _, name := range []string{"out.json", "out.json.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			got := runOutput(t, "json="+path, path, nil)
			want := `{"type":"Metric","data":{"name":"usefulsse_useful","type":"trend","contains":"time","thresholds":[],"submetrics":[{"name":"usefulsse_useful{bucket:qa}","suffix":"bucket:qa","tags":{"bucket":"qa"}}]},"metric":"usefulsse_useful"}
{"type":"Point","data":{"time":"2026-12-02T10:00:00.123456789Z","value":1234.5,"tags":{"bucket":"qa","method":"POST","name":"http://x/chat","scenario":"qa","status":"200"}},"metric":"usefulsse_useful"}
{"type":"Metric","data":{"name":"http_reqs","type":"counter","contains":"default","thresholds":[],"submetrics":null},"metric":"http_reqs"}
{"type":"Point","data":{"time":"2026-12-02T10:00:00.123456789Z","value":1,"tags":{"bucket":"qa","method":"POST","name":"http://x/chat","scenario":"qa","status":"200"}},"metric":"http_reqs"}
{"type":"Point","data":{"time":"2026-12-02T10:00:01.123456789Z","value":2,"tags":{"bucket":"qa","method":"POST","name":"http://x/chat","note":"quote \" and ünïcode","scenario":"qa","status":"200"}},"metric":"usefulsse_useful"}
`
			if got != want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, want)
			}
			for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
				if !json.Valid([]byte(line)) {
					t.Fatalf("invalid JSON line %s", line)
				}
			}
		})
	}
}

func TestCSVRows(t *testing.T) {
	cases := []struct {
		name, spec string
		env        map[string]string
		want       string
	}{
		{"file name argument, unix time", "csv=%s", nil, `metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata
usefulsse_useful,1796205600,1234.500000,,,,,,POST,http://x/chat,,qa,,200,,,,bucket=qa,
http_reqs,1796205600,1.000000,,,,,,POST,http://x/chat,,qa,,200,,,,bucket=qa,
usefulsse_useful,1796205601,2.000000,,,,,,POST,http://x/chat,,qa,,200,,,,"bucket=qa&note=quote "" and ünïcode",
`},
		{"key=value arguments", "csv=fileName=%s,timeFormat=rfc3339_nano,saveInterval=50ms", nil, ""},
		{"environment", "csv", map[string]string{"K6_CSV_TIME_FORMAT": "unix_milli"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.csv")
			spec := tc.spec
			if strings.Contains(spec, "%s") {
				spec = strings.Replace(spec, "%s", path, 1)
			} else {
				tc.env["K6_CSV_FILENAME"] = path
			}
			got := runOutput(t, spec, path, tc.env)
			lines := strings.Split(strings.TrimSpace(got), "\n")
			if len(lines) != 4 {
				t.Fatalf("%d lines:\n%s", len(lines), got)
			}
			if tc.want != "" && got != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if tc.name == "key=value arguments" && !strings.Contains(lines[1], ",2026-12-02T10:00:00.123456789Z,") {
				t.Fatalf("timeFormat not applied: %s", lines[1])
			}
			if tc.name == "environment" && !strings.Contains(lines[1], ",1796205600123,") {
				t.Fatalf("K6_CSV_TIME_FORMAT not applied: %s", lines[1])
			}
		})
	}
}

func TestBadOutputs(t *testing.T) {
	reg, _ := fixture(t)
	for _, spec := range []string{"nope", "csv=fileName=x.csv,bogus=1", "csv=timeFormat=week", "csv=saveInterval=-1s"} {
		if _, err := New(spec, Params{Registry: reg, Stdout: &bytes.Buffer{}}); err == nil {
			t.Errorf("%s: want an error", spec)
		}
	}
}
