package options

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestInspectJSON(t *testing.T) {
	script, err := FromScript(map[string]any{
		"scenarios": map[string]any{
			"ramp": map[string]any{
				"executor": "ramping-vus", "startVUs": int64(0), "gracefulRampDown": "10s",
				"stages": []any{map[string]any{"duration": "1m30s", "target": int64(10)}},
				"tags":   map[string]any{"kind": "ramp"},
			},
			"arrivals": map[string]any{
				"executor": "constant-arrival-rate", "rate": int64(50), "timeUnit": "1s",
				"duration": "1d", "preAllocatedVUs": int64(10), "maxVUs": int64(50),
				"exec": "api", "env": map[string]any{"MODE": "fast"}, "startTime": int64(1500),
			},
		},
		"thresholds": map[string]any{
			"http_req_duration": []any{"p(95)<200", map[string]any{"threshold": "max<1000", "abortOnFail": true}},
		},
		"tags": map[string]any{"team": "latency"},
	})
	checkErrors(t, err)
	flags := Options{Source: "flags", ExecutionSegment: "0:1/2", ExecutionSegmentSequence: "0,1/2,1"}
	o, err := Consolidate(script, flags)
	checkErrors(t, err)
	got, err := o.InspectJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(got) {
		t.Fatalf("invalid JSON:\n%s", got)
	}
	golden(t, "inspect.golden.json", got)
}

func TestInspectJSONShortcuts(t *testing.T) {
	o, err := Consolidate(Options{VUs: ptr[int64](5), Iterations: ptr[int64](20)})
	checkErrors(t, err)
	got, err := o.InspectJSON()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "inspect_shortcuts.golden.json", got)
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs; got:\n%s", path, got)
	}
}
