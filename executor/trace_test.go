package executor

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/usefullatency/usefullatency/options"
)

func TestTraceDue(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name  string
		ts    []float64
		unit  time.Duration
		speed float64
		want  []time.Duration
	}{
		{"first row is t=0", []float64{1000, 1000, 1250, 3000}, ms, 1, []time.Duration{0, 0, 250 * ms, 2000 * ms}},
		{"speed 2 halves the gaps", []float64{0, 100, 300}, ms, 2, []time.Duration{0, 50 * ms, 150 * ms}},
		{"speed 0.5 doubles them", []float64{5, 6}, time.Second, 0.5, []time.Duration{0, 2 * time.Second}},
		{"fractional timestamps", []float64{0.5, 1.25}, time.Second, 1, []time.Duration{0, 750 * ms}},
		{"microseconds", []float64{1e6, 1e6 + 1}, time.Microsecond, 1, []time.Duration{0, time.Microsecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TraceDue(tc.ts, tc.unit, tc.speed); !slices.Equal(got, tc.want) {
				t.Errorf("TraceDue(%v, %s, %v) = %v, want %v", tc.ts, tc.unit, tc.speed, got, tc.want)
			}
		})
	}
}

// traceScenario is a trace-replay scenario of file with the defaults.
func traceScenario(file string, speed float64) options.Scenario {
	sc := options.NewScenario("replay", options.TraceReplay)
	sc.File, sc.Speed, sc.PreAllocatedVUs, sc.MaxVUs = file, speed, 4, 4
	return sc
}

func TestParseTrace(t *testing.T) {
	jsonl := `{"timestamp": 27482, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47]}

{"timestamp": 27482, "input_length": 6472, "output_length": 26, "hash_ids": [46]}
{"timestamp": "30535", "input_length": 6478}
`
	tr, err := ParseTrace("t.jsonl", []byte(jsonl), traceScenario("t.jsonl", 2))
	if err != nil {
		t.Fatal(err)
	}
	if want := []time.Duration{0, 0, 1526500 * time.Microsecond}; !slices.Equal(tr.Due, want) {
		t.Errorf("due %v, want %v", tr.Due, want)
	}
	if tr.Len() != 3 || !strings.Contains(string(tr.Rows[1]), `"hash_ids": [46]`) {
		t.Errorf("rows %q", tr.Rows)
	}
	csv := "input_length,timestamp\n10,0\n\"2,0\",1.5\n"
	tr, err = ParseTrace("t.csv", []byte(csv), traceScenario("t.csv", 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(tr.Rows[1]); got != `{"input_length":"2,0","timestamp":"1.5"}` || tr.Due[1] != 1500*time.Microsecond {
		t.Errorf("csv row %s due %s", got, tr.Due[1])
	}
}

func TestParseTraceRefuses(t *testing.T) {
	for _, tc := range []struct{ name, file, data, want string }{
		{"unsorted", "u.jsonl", "{\"timestamp\":5}\n{\"timestamp\":9}\n{\"timestamp\":7}\n", "trace u.jsonl line 3: timestamp 7 is before the previous row's 9"},
		{"no field", "n.jsonl", "{\"timestamp\":5}\n\n{\"ts\":9}\n", `trace n.jsonl line 3: no "timestamp" field`},
		{"not a number", "b.jsonl", `{"timestamp":true}`, `trace b.jsonl line 1: timestamp "true" is not a number`},
		{"null", "b.jsonl", `{"timestamp":null}`, `line 1: timestamp "null" is not a number`},
		{"infinite", "i.csv", "timestamp\n1e999\n", `trace i.csv line 2: timestamp "1e999" is not a number`},
		{"not an object", "a.jsonl", "[1,2]\n", "trace a.jsonl line 1: not a JSON object"},
		{"null line", "a.jsonl", "null\n", "trace a.jsonl line 1: not a JSON object"},
		{"no column", "c.csv", "time,x\n1,2\n", `trace c.csv line 1: the header has no "timestamp" column`},
		{"ragged csv", "r.csv", "timestamp,x\n1,2\n3\n", "trace r.csv: record on line 3: wrong number of fields"},
		{"empty", "e.jsonl", "\n\n", "trace e.jsonl has no rows"},
		{"header only", "e.csv", "timestamp\n", "trace e.csv has no rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTrace(tc.file, []byte(tc.data), traceScenario(tc.file, 1))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestTraceReplayStartsRowsOnTime replays a trace on the bubble's clock:
// every row starts once, at its due time, with its own row, and the
// scenario lasts until the last row is due; halves 0:1/2 and 1/2:1 of a
// segment sequence together start exactly the whole run's iterations.
func TestTraceReplayStartsRowsOnTime(t *testing.T) {
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf(`{"timestamp": %d, "id": %d}`, i*i*3, i))
	}
	sc := traceScenario("t.jsonl", 2)
	tr, err := ParseTrace("t.jsonl", []byte(strings.Join(lines, "\n")), sc)
	if err != nil {
		t.Fatal(err)
	}
	type start struct {
		i   int64
		at  time.Duration
		row string
	}
	runOn := func(t *testing.T, seg Segment) ([]start, time.Duration) {
		var mu sync.Mutex
		var starts []start
		begin := time.Now()
		env, _ := testEnv(sc, 4, func(_ context.Context, _ VU, it Iteration) Outcome {
			mu.Lock()
			defer mu.Unlock()
			starts = append(starts, start{it.InTest, time.Since(begin), string(it.Row)})
			return Completed
		})
		env.Trace, env.Segment = tr, seg
		ex, err := New(env)
		if err != nil {
			t.Fatal(err)
		}
		if err := ex.Run(context.Background(), begin); err != nil {
			t.Fatal(err)
		}
		sort.Slice(starts, func(a, b int) bool { return starts[a].i < starts[b].i })
		return starts, time.Since(begin)
	}
	synctest.Test(t, func(t *testing.T) {
		whole, took := runOn(t, nil)
		if len(whole) != 40 {
			t.Fatalf("%d iterations, want 40", len(whole))
		}
		for i, s := range whole {
			want := time.Duration(i*i*3) * time.Millisecond / 2
			if s.i != int64(i) || s.at != want || s.row != lines[i] {
				t.Errorf("iteration %d: index %d at %s row %s; want at %s row %s", i, s.i, s.at, s.row, want, lines[i])
			}
		}
		if last := 39 * 39 * 3 * time.Millisecond / 2; took != last {
			t.Errorf("the scenario took %s, want %s (the last row's due time)", took, last)
		}
		seq, err := options.ParseSequence("0,1/2,1")
		if err != nil {
			t.Fatal(err)
		}
		var merged []start
		for _, seg := range seq.Segments() {
			tu, err := options.NewTuple(seg, seq)
			if err != nil {
				t.Fatal(err)
			}
			part, _ := runOn(t, tu)
			if len(part) != 20 {
				t.Errorf("segment %v: %d rows, want 20", seg, len(part))
			}
			merged = append(merged, part...)
		}
		sort.Slice(merged, func(a, b int) bool { return merged[a].i < merged[b].i })
		if !slices.Equal(merged, whole) {
			t.Errorf("the halves' iterations differ from the whole run's:\n%v\n%v", merged, whole)
		}
	})
}

// TestTraceReplayDropsWithoutIdleVU: rows due together beyond maxVUs are
// dropped and counted, as arrival-rate iterations are.
func TestTraceReplayDropsWithoutIdleVU(t *testing.T) {
	sc := traceScenario("t.csv", 1)
	sc.PreAllocatedVUs, sc.MaxVUs = 2, 2
	tr, err := ParseTrace("t.csv", []byte("timestamp\n0\n0\n0\n0\n0\n100\n"), sc)
	if err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		env, _ := testEnv(sc, 2, sleeper(50*time.Millisecond))
		env.Trace = tr
		ex := run(t, env)
		st := ex.Stats()
		if st.Dropped.Load() != 3 || ex.Plan().Duration != 100*time.Millisecond {
			t.Errorf("dropped %d, duration %s; want 3 dropped, 100ms", st.Dropped.Load(), ex.Plan().Duration)
		}
	})
}
