package options

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The formats of a trace-replay file (the scenario option "format").
const (
	// TraceJSONL is one JSON object per line (the Mooncake trace format).
	TraceJSONL = "jsonl"
	// TraceCSV is comma-separated values under a header line.
	TraceCSV = "csv"
)

// traceFormats lists the values of "format" for messages.
var traceFormats = []string{TraceJSONL, TraceCSV}

// trace-replay's defaults: Mooncake traces carry milliseconds in
// "timestamp".
const (
	defaultTraceTimeUnit  = Duration(time.Millisecond)
	defaultTimestampField = "timestamp"
)

// traceFields are the fields of trace-replay besides the common ones, in
// the order inspect prints them.
var traceFields = []string{"file", "format", "speed", "timeUnit", "timestampField", "preAllocatedVUs", "maxVUs"}

// TraceFormat returns the format of the scenario's trace file: Format
// when set, else TraceCSV for a ".csv" file and TraceJSONL for ".jsonl",
// ".ndjson" and ".json"; "" when neither tells.
func (sc Scenario) TraceFormat() string {
	if sc.Format != "" {
		return sc.Format
	}
	switch strings.ToLower(filepath.Ext(sc.File)) {
	case ".csv":
		return TraceCSV
	case ".jsonl", ".ndjson", ".json":
		return TraceJSONL
	}
	return ""
}

// toTraceFormat reads the name of a trace format.
func toTraceFormat(v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	return s, checkTraceFormat(s)
}

// checkTraceFormat accepts "" and the names of traceFormats.
func checkTraceFormat(s string) error {
	if s == "" || slices.Contains(traceFormats, s) {
		return nil
	}
	return fmt.Errorf("unknown trace format %q: want one of %s", s, strings.Join(traceFormats, ", "))
}

// toSpeed reads a time scale: a finite number more than 0, in any form
// toFloat reads.
func toSpeed(v any) (float64, error) {
	s, err := toFloat(v)
	if err != nil {
		return 0, err
	}
	return s, checkSpeed(s)
}

// checkSpeed accepts a finite speed more than 0.
func checkSpeed(s float64) error {
	if !(s > 0) || math.IsInf(s, 1) { // NaN fails
		return fmt.Errorf("%v is out of range: want a number more than 0 (2 replays twice as fast)", s)
	}
	return nil
}

// validateTraceReplay checks a trace-replay scenario: a file whose format
// is known (set or told by its extension), a speed more than 0, a
// timestamp field, and the VUs and timeUnit of the arrival-rate
// executors. The file's rows are checked when the run reads it.
func validateTraceReplay(p *problems, sc Scenario) {
	p.check(sc.File != "", "file", errors.New("required: the path of a JSONL or CSV trace"))
	p.add("format", checkTraceFormat(sc.Format))
	p.check(sc.File == "" || sc.TraceFormat() != "", "format", fmt.Errorf(
		"cannot tell the format of %q from its extension: set format to one of %s", sc.File, strings.Join(traceFormats, ", ")))
	p.add("speed", checkSpeed(sc.Speed))
	p.check(sc.TimestampField != "", "timestampField", errors.New("must name the trace's timestamp field"))
	validateArrivalVUs(p, sc)
}
