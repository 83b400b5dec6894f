package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The rows of trace/mooncake.jsonl: 20 rows over 1.66 s whose
// input_length is 100 + 13 × index.
const (
	traceRows        = 20
	traceLast        = 1660 * time.Millisecond
	traceInputSum    = 4470    // Σ input_length
	traceInputSquare = 1111430 // Σ input_length²
)

// traceRun is what one run of trace/replay.js (or a merge) exported.
type traceRun struct {
	iterations, dropped, sum, squares, checks, lagP99 float64
}

func readTraceRun(t *testing.T, path string, lag bool) traceRun {
	t.Helper()
	m := export(t, path)
	r := traceRun{
		iterations: number(t, m, "metrics", "iterations", "count"),
		sum:        number(t, m, "metrics", "trace_input_sum", "count"),
		squares:    number(t, m, "metrics", "trace_input_squares", "count"),
		checks:     number(t, m, "metrics", "checks", "value"),
	}
	if v, ok := lookup(m, "metrics", "dropped_iterations", "count"); ok {
		r.dropped = v.(float64)
	}
	if lag {
		r.lagP99 = number(t, m, "metrics", "schedule_lag", "p(99)")
	}
	return r
}

// TestTraceReplayRowsOnTime replays the 20-row Mooncake trace: the run
// lasts at least until the last row is due (1.66 s), every iteration gets
// the row of its global index (a check at 100 %), every row is delivered
// once (Σ input_length and Σ input_length² of the file, 20 iterations, no
// drop) and schedule_lag's p(99), against the rows' due times, is small.
func TestTraceReplayRowsOnTime(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "whole.json")
	r := run(t, "run", "--summary-trend-stats", "avg,max,p(99)", "--summary-export", out, script("trace/replay.js"))
	r.wantCode(t, 0)
	if want := "20 rows of mooncake.jsonl at speed 1 over 1.66s"; !strings.Contains(r.stdout+r.stderr, want) {
		t.Errorf("banner lacks %q:\n%s", want, r.stderr)
	}
	if r.elapsed < traceLast {
		t.Errorf("the run took %s, less than the last row's due time %s: rows did not wait for their timestamps", r.elapsed, traceLast)
	}
	got := readTraceRun(t, out, true)
	checkAllRows(t, "whole run", got)
	// Generous for a loaded 2-core machine; a replay that ignored the
	// timestamps would be up to 1.66 s early or late.
	if got.lagP99 > 250 {
		t.Errorf("schedule_lag p(99) = %v ms, want under 250 ms", got.lagP99)
	}
	t.Logf("schedule_lag p(99) = %.2f ms", got.lagP99)
}

// checkAllRows fails unless r delivered every row of mooncake.jsonl once.
func checkAllRows(t *testing.T, name string, r traceRun) {
	t.Helper()
	if r.iterations != traceRows || r.dropped != 0 || r.sum != traceInputSum || r.squares != traceInputSquare || r.checks != 1 {
		t.Errorf("%s: %v iterations, %v dropped, Σ input_length %v, Σ squares %v, checks %v; want %d rows each once (Σ %d, Σ² %d), no drop, checks 1",
			name, r.iterations, r.dropped, r.sum, r.squares, r.checks, traceRows, traceInputSum, traceInputSquare)
	}
}

// TestTraceReplaySegmentsMerge runs the trace as two runners, segments
// 0:1/2 and 1/2:1 concurrently, and merges their result files: together
// they replay every row exactly once, each with its own global index.
func TestTraceReplaySegmentsMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	halves := []string{"0:1/2", "1/2:1"}
	files := make([]string, len(halves))
	t.Run("runs", func(t *testing.T) {
		for i, seg := range halves {
			files[i] = filepath.Join(dir, "half"+string(rune('0'+i))+".res")
			t.Run(seg, func(t *testing.T) {
				t.Parallel()
				run(t, "run", "-q", "--no-summary", "--execution-segment", seg, "--execution-segment-sequence", "0,1/2,1",
					"-o", "result="+files[i], script("trace/replay.js")).wantCode(t, 0)
			})
		}
	})
	if t.Failed() {
		return
	}
	merged := filepath.Join(dir, "merged.json")
	run(t, append([]string{"merge", "--no-summary", "--summary-export", merged}, files...)...).wantCode(t, 0)
	checkAllRows(t, "merge of the halves", readTraceRun(t, merged, false))
}

// TestTraceReplayCSV replays a CSV trace: the row's fields are strings
// under the header's names.
func TestTraceReplayCSV(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "csv.json")
	invocation{env: []string{"TRACE=mooncake.csv", "SPEED=4"}, args: []string{"run", "-q", "--no-summary",
		"--summary-export", out, script("trace/replay.js")}}.run(t).wantCode(t, 0)
	r := readTraceRun(t, out, false)
	if r.iterations != 8 || r.checks != 1 || r.sum != 8*100+13*28 {
		t.Errorf("csv: %v iterations, checks %v, Σ input_length %v; want 8, 1, %d", r.iterations, r.checks, r.sum, 8*100+13*28)
	}
}

// TestTraceReplayRefusesBadTraces: a bad file, format or speed exits 104
// with one line naming the option, file and line, before any iteration.
func TestTraceReplayRefusesBadTraces(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"TRACE=unsorted.jsonl"}, "unsorted.jsonl line 3: timestamp 50 is before the previous row's 100: rows must be sorted by timestamp"},
		{[]string{"TRACE=nots.jsonl"}, `nots.jsonl line 2: no "timestamp" field`},
		{[]string{"TRACE=text.csv"}, `text.csv line 3: timestamp "soon" is not a number`},
		{[]string{"TRACE=missing.jsonl"}, "scenarios.replay.file: "},
		{[]string{"TRACE=replay.js"}, `scenarios.replay.format: cannot tell the format of "replay.js"`},
		{[]string{"SPEED=0"}, "scenarios.replay.speed: 0 is out of range"},
	} {
		r := invocation{env: tc.env, args: []string{"run", "-q", script("trace/replay.js")}}.run(t)
		r.wantCode(t, 104)
		if line := r.errorLine(t); !strings.Contains(line, tc.want) {
			t.Errorf("%v: error line %q, want it to contain %q", tc.env, line, tc.want)
		}
	}
}

// TestTraceReplayArchiveCarriesTrace: `usefullatency archive` puts the
// trace in the archive, so the archive replays every row after the file
// beside the script is gone.
func TestTraceReplayArchiveCarriesTrace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"replay.js", "mooncake.jsonl"} {
		data, err := os.ReadFile(script("trace/" + name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	invocation{args: []string{"archive", "replay.js", "-O", "replay.tar"}, dir: dir}.run(t).wantCode(t, 0)
	if err := os.Remove(filepath.Join(dir, "mooncake.jsonl")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	invocation{args: []string{"run", "-q", "--no-summary", "--summary-export", out, "replay.tar"}, dir: dir}.run(t).wantCode(t, 0)
	checkAllRows(t, "archive run", readTraceRun(t, out, false))
}

// TestTraceReplayExecutionRequirements checks that inspect
// --execution-requirements counts a trace's length (its last row at
// 1,660 ms, halved by speed 2) in the total duration, as k6-operator
// reads it to size its jobs.
func TestTraceReplayExecutionRequirements(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ speed, want string }{{"1", "31.66s"}, {"2", "30.83s"}} {
		r := invocation{args: []string{"inspect", "--execution-requirements", "-e", "SPEED=" + tc.speed, script("trace/replay.js")}}.run(t)
		r.wantCode(t, 0)
		var req struct {
			TotalDuration string `json:"totalDuration"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &req); err != nil || req.TotalDuration != tc.want {
			t.Errorf("speed %s: totalDuration %q (%v), want %s (the trace, then gracefulStop)", tc.speed, req.TotalDuration, err, tc.want)
		}
	}
	r := invocation{args: []string{"inspect", "--execution-requirements", "-e", "TRACE=missing.jsonl", script("trace/replay.js")}}.run(t)
	r.wantCode(t, 104)
	if line := r.errorLine(t); !strings.Contains(line, "scenarios.replay.file") {
		t.Errorf("error %q", line)
	}
}
