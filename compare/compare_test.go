package compare

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/result"
)

var update = flag.Bool("update", false, "rewrite the golden files of the text output")

// probeRun builds a run of the streaming probe: usefulsse_useful with a
// submetric for bucket qa and a p(95) gate on it, a breakdown of buckets qa
// and slow (whose moments are scaled by slow), the failure rates, checks,
// iterations and dropped iterations.
func probeRun(seed uint64, slow float64, dropped float64) *result.File {
	rng := rand.New(rand.NewPCG(seed, 7))
	qa := lognormal(rng, 3000, 1200, 0.4, 1)
	sl := lognormal(rng, 3000, 2500, 0.4, slow)
	useful := trend("usefulsse_useful", append(slices.Clone(qa), sl...))
	useful.Submetrics = []result.Submetric{{Selector: "bucket:qa", Sink: trend("", qa).Sink}}
	f := run(useful,
		trend("usefulsse_first_text", lognormal(rng, 6000, 400, 0.4, 1)),
		rate("usefulsse_failed", 12, 6000), rate("checks", 5990, 6000),
		counter("iterations", 6000, 6000), counter("dropped_iterations", dropped, int64(dropped)))
	f.Thresholds = map[string][]result.Threshold{"usefulsse_useful{bucket: qa}": {{Source: "p(95)<2500"}}, "checks": {{Source: "rate>0.99"}}}
	bucket := func(name string, useful []float64) result.Bucket {
		return result.Bucket{Name: name, Sinks: []result.BucketSink{
			{Metric: "usefulsse_useful", Sink: trend("", useful).Sink},
			{Metric: "usefulsse_failed", Sink: result.Sink{Trues: 6, Total: 3000}},
		}}
	}
	f.Breakdown = &result.Breakdown{Keys: []string{"bucket", "scenario"},
		Metrics: []result.BreakdownMetric{{Name: "usefulsse_useful", Type: "trend"}, {Name: "usefulsse_failed", Type: "rate"}},
		Buckets: []result.Bucket{bucket("qa", qa), bucket("slow", sl)}}
	return f
}

func ids(r *Report) []string {
	var out []string
	for _, row := range r.Rows {
		out = append(out, rowID(row.Metric, row.Stat))
	}
	slices.Sort(out)
	return out
}

// TestDefaultRows checks the rows compared without --metric: the gated
// trend with its usual stats, the gated rate, the moments and rates per
// bucket, the whole-test rates and the load's counters.
func TestDefaultRows(t *testing.T) {
	r, err := Compare([]*result.File{probeRun(1, 1, 0)}, []*result.File{probeRun(2, 1, 0)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"checks:rate", "dropped_iterations:count", "iterations:rate", "usefulsse_failed:rate",
		"usefulsse_failed{bucket:qa}:rate", "usefulsse_failed{bucket:slow}:rate",
		"usefulsse_useful{bucket:qa}:avg", "usefulsse_useful{bucket:qa}:p(50)", "usefulsse_useful{bucket:qa}:p(95)", "usefulsse_useful{bucket:qa}:p(99)",
		"usefulsse_useful{bucket:slow}:p(50)", "usefulsse_useful{bucket:slow}:p(95)", "usefulsse_useful{bucket:slow}:p(99)",
	}
	if got := ids(r); !slices.Equal(got, want) {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if g := r.Gates["usefulsse_useful{bucket:qa}"]; !slices.Equal(g, []string{"p(95)<2500"}) {
		t.Errorf("gates of the qa row: %q, want the threshold's source", g)
	}
	if d := r.Distributions["usefulsse_useful{bucket:slow}"]; len(d[0]) != 3000 || len(d[1]) != 3000 || !slices.IsSorted(d[1]) {
		t.Errorf("distributions of the slow bucket: %d and %d values, want 3000 sorted each", len(d[0]), len(d[1]))
	}
	for _, row := range r.Rows {
		if row.Metric == "usefulsse_useful{bucket:qa}" && (row.Bucket != "qa" || row.Unit != "ms" || !row.HigherIsWorse) {
			t.Errorf("qa row: bucket %q unit %q higher-is-worse %v", row.Bucket, row.Unit, row.HigherIsWorse)
		}
		if row.Metric == "checks" && row.HigherIsWorse {
			t.Error("checks: higher is worse, want better (its threshold is rate>0.99)")
		}
		if !row.Gated {
			t.Errorf("%s %s is not gated; without --fail-on every row is", row.Metric, row.Stat)
		}
	}
}

// TestSlowBucketRegresses checks that slowing one bucket makes exactly
// that bucket's rows regress, and that a second run of the same load
// makes none regress.
func TestSlowBucketRegresses(t *testing.T) {
	base := []*result.File{probeRun(1, 1, 0)}
	r, err := Compare(base, []*result.File{probeRun(2, 1.3, 0)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var regressed []string
	for _, row := range r.Regressed() {
		regressed = append(regressed, rowID(row.Metric, row.Stat))
	}
	slices.Sort(regressed)
	want := []string{"usefulsse_useful{bucket:slow}:p(50)", "usefulsse_useful{bucket:slow}:p(95)", "usefulsse_useful{bucket:slow}:p(99)"}
	if !slices.Equal(regressed, want) {
		t.Errorf("regressed %q, want %q", regressed, want)
	}
	if r.Rows[0].Verdict != Regressed {
		t.Errorf("the first row is %q, want the regressions first", r.Rows[0].Verdict)
	}
	same, err := Compare(base, []*result.File{probeRun(3, 1, 0)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range same.Regressed() {
		t.Errorf("same load: %s %s regressed (%+.1f%%)", row.Metric, row.Stat, 100*row.Rel)
	}
}

func TestFailOn(t *testing.T) {
	base, slow := []*result.File{probeRun(1, 1, 0)}, []*result.File{probeRun(2, 1.3, 0)}
	r, err := Compare(base, slow, Options{FailOn: []string{"usefulsse_useful{bucket: 'qa'}:med", "usefulsse_first_text:p(90)"}})
	if err != nil {
		t.Fatal(err)
	}
	var gated []string
	for _, row := range r.Rows {
		if row.Gated {
			gated = append(gated, rowID(row.Metric, row.Stat))
		}
	}
	slices.Sort(gated)
	if want := []string{"usefulsse_first_text:p(90)", "usefulsse_useful{bucket:qa}:p(50)"}; !slices.Equal(gated, want) {
		t.Errorf("gated rows %q, want %q (a row --fail-on names is added)", gated, want)
	}
	if reg := r.Regressed(); len(reg) != 0 {
		t.Errorf("the slow bucket regressed but is not gated; Regressed() = %v", reg)
	}
	for _, tt := range []struct{ failOn, want string }{
		{"usefulsse_useful{bucket:qa}", "want metric{tag:value}:stat"},
		{"nope:p(95)", "no run of either side has metric nope"},
		{"checks:p(95)", "a rate has no row for p(95)"},
		{"usefulsse_useful:p(101)", "invalid percentile"},
	} {
		_, err := Compare(base, slow, Options{FailOn: []string{tt.failOn}})
		if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "--fail-on") {
			t.Errorf("--fail-on %q: error %v, want ErrOption naming the flag and %q", tt.failOn, err, tt.want)
		}
	}
}

func TestChosenMetrics(t *testing.T) {
	base, news := []*result.File{probeRun(1, 1, 0)}, []*result.File{probeRun(2, 1, 0)}
	r, err := Compare(base, news, Options{Metrics: []string{"usefulsse_useful{bucket:slow}", "iterations"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"iterations:count", "iterations:rate", "usefulsse_useful{bucket:slow}:avg", "usefulsse_useful{bucket:slow}:p(50)",
		"usefulsse_useful{bucket:slow}:p(95)", "usefulsse_useful{bucket:slow}:p(99)"}
	if got := ids(r); !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	base[0].Metrics = append(base[0].Metrics, result.Metric{Name: "vus", Type: "gauge", Sink: result.Sink{Set: true, Value: 3}})
	for _, tt := range []struct{ metric, want string }{{"nope", "no run of either side has it"}, {"vus", "a gauge"}, {"x{a}", "invalid"}} {
		if _, err := Compare(base, news, Options{Metrics: []string{tt.metric}}); !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("--metric %s: error %v, want ErrOption with %q", tt.metric, err, tt.want)
		}
	}
}

func TestIncomparable(t *testing.T) {
	a, b := probeRun(1, 1, 0), probeRun(2, 1, 0)
	a.Path, b.Path = "a.res", "b.res"
	b.TestID = "other"
	_, err := Compare([]*result.File{a}, []*result.File{b}, Options{})
	if !errors.Is(err, ErrIncomparable) || !strings.Contains(err.Error(), "b.res is a result of another test than a.res") || !strings.Contains(err.Error(), "--allow-different") {
		t.Errorf("different tests: %v, want ErrIncomparable naming both files and --allow-different", err)
	}
	r, err := Compare([]*result.File{a}, []*result.File{b}, Options{AllowDifferent: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "different tests") }) {
		t.Errorf("notes %q do not say the tests differ", r.Notes)
	}
	if _, err := Compare(nil, []*result.File{b}, Options{}); !errors.Is(err, ErrIncomparable) {
		t.Errorf("no base run: %v, want ErrIncomparable", err)
	}
}

func TestNotes(t *testing.T) {
	base, news := probeRun(1, 1, 0), probeRun(2, 1, 40)
	news.Path = "new.res"
	for i := range news.Metrics {
		if news.Metrics[i].Name == "iterations" {
			news.Metrics[i].Sink.Sum = 4800 // 480/s against 600/s
		}
	}
	news.Metrics = append(news.Metrics,
		result.Metric{Name: "usefulsse_client_cpu", Type: "gauge", Contains: "default", Sink: result.Sink{Set: true, Value: 0.5, Min: 0.2, Max: 0.97}},
		trend("usefulsse_read_lag", []float64{1, 2, 3, 80, 90}))
	news.Duration = 20 * time.Second
	news.Metrics[slices.IndexFunc(news.Metrics, func(m result.Metric) bool { return m.Name == "iterations" })].Sink.Sum = 9600 // 480/s over 20 s
	r, err := Compare([]*result.File{base}, []*result.File{news}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"the sides ran at different rates: 600.0/s vs 480.0/s",
		"dropped iterations: 0 in base, 40 in new",
		"the new side's load generator was saturated in new.res (CPU peak 97.00% of its cores, read lag p99 89.6ms)",
		"the sides ran for different durations: 10s vs 20s per run",
	}
	if len(r.Notes) != len(want) {
		t.Fatalf("notes:\n%s\nwant %d", strings.Join(r.Notes, "\n"), len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(r.Notes[i], w) {
			t.Errorf("note %d: %q, want it to start with %q", i, r.Notes[i], w)
		}
	}
	same, _ := Compare([]*result.File{base}, []*result.File{probeRun(3, 1, 0)}, Options{})
	if len(same.Notes) != 0 {
		t.Errorf("same load: notes %q, want none", same.Notes)
	}
}

func TestDecide(t *testing.T) {
	rel := Effect{Relative: 0.05}
	for _, tt := range []struct {
		name                string
		lo, hi              float64 // relative interval
		higherIsWorse       bool
		verdict             Verdict
		undecided, needMore bool
	}{
		{"beyond the effect, worse", 0.06, 0.14, true, Regressed, false, false},
		{"beyond the effect, better", -0.2, -0.07, true, Improved, false, false},
		{"lower is worse: a fall regresses", -0.2, -0.07, false, Regressed, false, false},
		{"within the effect", -0.03, 0.04, true, NoChange, false, false},
		{"straddles the effect", 0.02, 0.09, true, NoChange, true, true},
		{"wider than the effect", -0.3, 0.3, true, NoChange, true, true},
		{"touches the effect", 0.05, 0.1, true, NoChange, true, true},
		{"a base of 0 and a rise", math.Inf(1), math.Inf(1), true, Regressed, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Row{Type: "trend", RelLow: tt.lo, RelHigh: tt.hi, HigherIsWorse: tt.higherIsWorse, Effect: rel, BaseN: 1000, NewN: 1000}
			decide(&r)
			if r.Verdict != tt.verdict || r.Undecided != tt.undecided || (r.NeedRequests > 1000) != tt.needMore {
				t.Errorf("verdict %q undecided %v need %d; want %q %v more than 1000: %v", r.Verdict, r.Undecided, r.NeedRequests, tt.verdict, tt.undecided, tt.needMore)
			}
		})
	}
	// An absolute effect reads the absolute interval.
	r := Row{Type: "trend", Low: 60, High: 90, RelLow: 0.01, RelHigh: 0.02, HigherIsWorse: true, Effect: Effect{Absolute: 50}}
	if decide(&r); r.Verdict != Regressed {
		t.Errorf("+60..+90 ms against 50 ms: %q, want regressed", r.Verdict)
	}
	// Under a relative effect with a floor, a time row that moved by more
	// than 5 % but by less than the floor settles as no change.
	floored := Effect{Relative: 0.05, Floor: TimeFloor}
	r = Row{Type: "trend", Low: 0.05, High: 0.2, RelLow: 0.3, RelHigh: 1.2, HigherIsWorse: true, Effect: floored}
	if decide(&r); r.Verdict != NoChange || r.Undecided {
		t.Errorf("+50..+200 µs (+30..+120 %%) against 5 %% and 1 ms: %q undecided %v, want no clear change, settled", r.Verdict, r.Undecided)
	}
	r = Row{Type: "trend", Low: 40, High: 90, RelLow: 0.08, RelHigh: 0.2, HigherIsWorse: true, Effect: floored}
	if decide(&r); r.Verdict != Regressed {
		t.Errorf("+40..+90 ms (+8..+20 %%) against 5 %% and 1 ms: %q, want regressed", r.Verdict)
	}
	// The estimate: a half-width of 0.3 against e/2 = 0.025 needs (0.3/0.025)² = 144 times the requests.
	r = Row{Type: "trend", RelLow: -0.3, RelHigh: 0.3, HigherIsWorse: true, Effect: rel, BaseN: 100, NewN: 100}
	if decide(&r); r.NeedRequests != 14400 {
		t.Errorf("need %d, want 14400", r.NeedRequests)
	}
}

func TestParseEffects(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want Effects
		err  string
	}{
		{nil, Effects{Relative: 0.05}, ""},
		{[]string{"10%"}, Effects{Relative: 0.1}, ""},
		{[]string{"50ms"}, Effects{Relative: 0.05, Time: 50}, ""},
		{[]string{"1.5s", "0.01", "2%"}, Effects{Relative: 0.02, Time: 1500, Value: 0.01}, ""},
		{[]string{"200µs"}, Effects{Relative: 0.05, Time: 0.2}, ""},
		{[]string{"0%"}, Effects{Relative: 0}, ""},
		{[]string{"fast"}, Effects{}, `--min-effect "fast"`},
		{[]string{"-5%"}, Effects{}, `--min-effect "-5%"`},
		{[]string{"0"}, Effects{}, "above 0"},
		{[]string{"-1s"}, Effects{}, `--min-effect "-1s"`},
	} {
		got, err := ParseEffects(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, ErrOption)):
			t.Errorf("%q: error %v, want ErrOption with %q", tt.in, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%q: %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

// TestAbsoluteEffects checks that a time effect applies to time rows and
// a plain number to rates, each row keeping the relative one otherwise.
func TestAbsoluteEffects(t *testing.T) {
	r, err := Compare([]*result.File{probeRun(1, 1, 0)}, []*result.File{probeRun(2, 1.1, 0)},
		Options{MinEffect: &Effects{Relative: 0.05, Time: 10}})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Rows {
		want := Effect{Relative: 0.05}
		if row.Unit == "ms" {
			want = Effect{Absolute: 10}
		}
		if row.Effect != want {
			t.Errorf("%s %s: effect %+v, want %+v", row.Metric, row.Stat, row.Effect, want)
		}
		// 10 % slower is 250 ms at the slow bucket's median: beyond 10 ms.
		if row.Metric == "usefulsse_useful{bucket:slow}" && row.Stat == "p(50)" && row.Verdict != Regressed {
			t.Errorf("slow p(50) +%.0fms [%v, %v] against 10ms: %q, want regressed", row.Diff, row.Low, row.High, row.Verdict)
		}
	}
}

// TestRateFromZero checks a failure rate rising from 0: the relative
// difference is not a number (null in JSON) and the rise still regresses.
func TestRateFromZero(t *testing.T) {
	b := run(rate("usefulsse_failed", 0, 5000))
	n := run(rate("usefulsse_failed", 400, 5000))
	r, err := Compare([]*result.File{b}, []*result.File{n}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	row := r.Rows[0]
	if !math.IsNaN(row.Rel) || row.Verdict != Regressed || row.Diff != 0.08 {
		t.Errorf("0%% → 8%%: rel %v, diff %v, verdict %q; want NaN, 0.08, regressed", row.Rel, row.Diff, row.Verdict)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if v, ok := back.Rows[0]["rel"]; !ok || v != nil {
		t.Errorf("JSON rel = %v (present %v), want null", v, ok)
	}
	if back.Rows[0]["verdict"] != "regressed" || back.Rows[0]["diff"] != 0.08 {
		t.Errorf("JSON row %v", back.Rows[0])
	}
}

// TestReproducible checks that a seed gives the same report and another
// seed another interval.
func TestReproducible(t *testing.T) {
	base, news := []*result.File{probeRun(1, 1, 0)}, []*result.File{probeRun(2, 1, 0)}
	a, _ := Compare(base, news, Options{Seed: 7})
	b, _ := Compare(base, news, Options{Seed: 7})
	c, _ := Compare(base, news, Options{Seed: 8})
	var ja, jb, jc bytes.Buffer
	WriteJSON(&ja, a)
	WriteJSON(&jb, b)
	WriteJSON(&jc, c)
	if ja.String() != jb.String() {
		t.Error("two comparisons with seed 7 differ")
	}
	if ja.String() == jc.String() {
		t.Error("seeds 7 and 8 give the same intervals")
	}
}

// TestWriteText checks the text output against its golden file
// (go test ./compare -run TestWriteText -update rewrites it), and the
// colours.
func TestWriteText(t *testing.T) {
	base, news := probeRun(1, 1, 0), probeRun(2, 1.3, 25)
	base.Path, news.Path = "base.res", "new.res"
	r, err := Compare([]*result.File{base}, []*result.File{news}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var plain, colored bytes.Buffer
	if err := WriteText(&plain, r, false); err != nil {
		t.Fatal(err)
	}
	WriteText(&colored, r, true)
	const golden = "testdata/text.golden"
	if *update {
		if err := os.WriteFile(golden, plain.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if plain.String() != string(want) {
		t.Errorf("text output:\n%s\nwant (%s):\n%s", plain.String(), golden, want)
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Error("colours without color")
	}
	for _, want := range []string{red + markRegressed + " regressed" + reset, red + markRegressed + " 4 rows regressed beyond 5%: dropped_iterations count +25 from 0"} {
		if !strings.Contains(colored.String(), want) {
			t.Errorf("coloured output lacks %q", want)
		}
	}
}

// TestBigFilesAreFast checks the time budget: 100,000 values a side for
// each of 13 trends, 52 rows with the default 2000 resamples, well under
// 10 s on one core (it takes about a second).
func TestBigFilesAreFast(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 2.6 million values")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	var bm, nm []result.Metric
	var names []string
	for i := range 13 {
		name := "m" + string(rune('a'+i))
		names = append(names, name)
		bm = append(bm, trend(name, lognormal(rng, 100000, 1000, 0.5, 1)))
		nm = append(nm, trend(name, lognormal(rng, 100000, 1000, 0.5, 1)))
	}
	start := time.Now()
	r, err := Compare([]*result.File{run(bm...)}, []*result.File{run(nm...)}, Options{Metrics: names})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rows of 100,000 values a side: %v", len(r.Rows), took)
	if len(r.Rows) != 52 || took > 10*time.Second {
		t.Errorf("%d rows in %v, want 52 well under 10 s", len(r.Rows), took)
	}
}

// TestHigherIsWorse checks the direction of rows without a threshold:
// times and failures are worse higher, goodput and checks better.
func TestHigherIsWorse(t *testing.T) {
	for name, want := range map[string]bool{
		"usefulsse_useful": true, "usefulsse_failed": true, "dropped_iterations": true,
		"usefulsse_good": false, "checks": false, "usefulsse_useful_reached": false,
	} {
		if got := higherIsWorse(metricKey{name: name}, nil); got != want {
			t.Errorf("%s: higher is worse %v, want %v", name, got, want)
		}
	}
}
