package options

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// traceRaw is a valid trace-replay scenario with extra fields.
func traceRaw(extra map[string]any) map[string]any {
	raw := map[string]any{"executor": "trace-replay", "file": "trace.jsonl", "preAllocatedVUs": int64(5)}
	for k, v := range extra {
		raw[k] = v
	}
	return raw
}

func TestTraceReplayDefaults(t *testing.T) {
	o, err := consolidateOne(traceRaw(map[string]any{"file": "./t/mooncake.CSV"}))
	checkErrors(t, err)
	sc := o.Scenarios[0]
	if sc.TimeUnit != Duration(time.Millisecond) || sc.Speed != 1 || sc.TimestampField != "timestamp" ||
		sc.MaxVUs != 5 || sc.GracefulStop != defaultGracefulStop || sc.TraceFormat() != TraceCSV {
		t.Errorf("defaults: %+v (format %q)", sc, sc.TraceFormat())
	}
	if b, _ := json.Marshal(sc); !strings.Contains(string(b), `"format":"csv"`) {
		t.Errorf("inspect JSON %s lacks the format told by the extension", b)
	}
	o, err = consolidateOne(traceRaw(map[string]any{"format": "csv", "speed": 2.5, "timeUnit": "1s",
		"timestampField": "ts", "maxVUs": int64(9), "startTime": "1s", "gracefulStop": "2s", "exec": "replay"}))
	checkErrors(t, err)
	sc = o.Scenarios[0]
	if sc.TraceFormat() != TraceCSV || sc.Speed != 2.5 || sc.TimeUnit != Duration(time.Second) || sc.TimestampField != "ts" || sc.MaxVUs != 9 {
		t.Errorf("set: %+v", sc)
	}
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"executor":"trace-replay","startTime":"1s","gracefulStop":"2s","exec":"replay","file":"trace.jsonl","format":"csv","speed":2.5,"timeUnit":"1s","timestampField":"ts","preAllocatedVUs":5,"maxVUs":9}`
	if string(b) != want {
		t.Errorf("inspect JSON\n%s\nwant\n%s", b, want)
	}
}

func TestTraceFormatFromExtension(t *testing.T) {
	for file, want := range map[string]string{"a.jsonl": TraceJSONL, "a.ndjson": TraceJSONL, "a.json": TraceJSONL,
		"dir.csv/a.CSV": TraceCSV, "a.txt": "", "a": ""} {
		if got := (Scenario{File: file}).TraceFormat(); got != want {
			t.Errorf("TraceFormat of %q = %q, want %q", file, got, want)
		}
	}
}

// TestTraceReplayOptionErrors: every problem of a trace-replay scenario is
// named, all at once, at scenarios.<name>.<option>.
func TestTraceReplayOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]any
		want []string
	}{
		{"no file", map[string]any{"executor": "trace-replay", "preAllocatedVUs": int64(1)},
			[]string{"scenarios.s.file: required for executor trace-replay"}},
		{"unknown format", traceRaw(map[string]any{"format": "parquet"}),
			[]string{`scenarios.s.format: unknown trace format "parquet": want one of jsonl, csv`}},
		{"format not told", traceRaw(map[string]any{"file": "trace.txt"}),
			[]string{`scenarios.s.format: cannot tell the format of "trace.txt" from its extension: set format to one of jsonl, csv`}},
		{"zero speed", traceRaw(map[string]any{"speed": int64(0)}),
			[]string{"scenarios.s.speed: 0 is out of range: want a number more than 0"}},
		{"negative speed", traceRaw(map[string]any{"speed": -2.0}), []string{"scenarios.s.speed: -2 is out of range"}},
		{"NaN speed", traceRaw(map[string]any{"speed": math.NaN()}), []string{"scenarios.s.speed: NaN is out of range"}},
		{"infinite speed", traceRaw(map[string]any{"speed": math.Inf(1)}), []string{"scenarios.s.speed: +Inf is out of range"}},
		{"speed not a number", traceRaw(map[string]any{"speed": "fast"}), []string{`scenarios.s.speed: expected a number, got string "fast"`}},
		{"empty timestamp field", traceRaw(map[string]any{"timestampField": ""}), []string{"scenarios.s.timestampField: must name"}},
		{"not an arrival option", traceRaw(map[string]any{"rate": int64(5)}), []string{`scenarios.s: unknown field "rate" for executor trace-replay`}},
		{"not for other executors", arrivalRaw(map[string]any{"file": "t.jsonl"}),
			[]string{`scenarios.s: unknown field "file" for executor constant-arrival-rate`}},
		{"every problem at once", traceRaw(map[string]any{"file": "t.bin", "maxVUs": int64(2), "timeUnit": "0s"}), []string{
			`scenarios.s.format: cannot tell the format of "t.bin"`,
			"scenarios.s.timeUnit: must be more than 0",
			"scenarios.s.maxVUs: 2 is less than preAllocatedVUs (5)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := consolidateOne(tt.raw)
			checkErrors(t, err, tt.want...)
		})
	}
}
