package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// The merge of three shares equals the whole test taken in one piece:
// counts exact, every Trend statistic exact, checks, submetrics and buckets
// too; and the merged result round-trips through a file.
func TestMergeEqualsWhole(t *testing.T) {
	t0 := thirds()[0].Start
	whole := share("0:1", 0, 60, t0)
	merged, warnings, err := Merge(thirds())
	if err != nil || len(warnings) > 0 {
		t.Fatalf("Merge = %v, warnings %v", err, warnings)
	}
	if !slices.Equal(merged.Segments, []string{"0:1/3", "1/3:2/3", "2/3:1"}) {
		t.Errorf("segments = %v", merged.Segments)
	}
	if merged.Duration != time.Minute+time.Second {
		t.Errorf("duration = %s, want from the earliest start to the latest end, 1m1s", merged.Duration)
	}
	reread, err := Read(strings.NewReader(string(encode(t, merged))))
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []*File{merged, reread} {
		a, b := materialize(t, whole), materialize(t, got)
		for _, name := range []string{"iit", "iit{parity:even}"} {
			ta, tb := trend(t, a, name), trend(t, b, name)
			for _, p := range []float64{0, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1} {
				if ta.P(p) != tb.P(p) {
					t.Errorf("%s p(%g) = %v, want %v", name, p*100, tb.P(p), ta.P(p))
				}
			}
			if ta.Count() != tb.Count() || ta.Min != tb.Min || ta.Max != tb.Max || ta.Avg() != tb.Avg() {
				t.Errorf("%s: count/min/max/avg = %d/%v/%v/%v, want %d/%v/%v/%v", name,
					tb.Count(), tb.Min, tb.Max, tb.Avg(), ta.Count(), ta.Min, ta.Max, ta.Avg())
			}
		}
		if c := b.Registry.Get("done").Sink.(*metrics.CounterSink); c.Sum != 60 {
			t.Errorf("done = %v, want 60", c.Sum)
		}
		if r := b.Registry.Get("even").Sink.(*metrics.RateSink); r.Trues != 30 || r.Total != 60 {
			t.Errorf("even = %d/%d, want 30/60", r.Trues, r.Total)
		}
		// The gauge's latest sample by time is n=39 of the middle share,
		// which started a second later than the others.
		if g := b.Registry.Get("last").Sink.(*metrics.GaugeSink); g.Value != 39.25 || g.Min != 0.25 || g.Max != 59.25 {
			t.Errorf("last = %v [%v, %v], want 39.25 [0.25, 59.25]", g.Value, g.Min, g.Max)
		}
		p, f := b.Root.Groups()[0].Checks()[0].Counts()
		if p != 30 || f != 30 {
			t.Errorf("check = %d passes, %d fails, want 30/30", p, f)
		}
		be, bw := b.Streaming.Sink("even", "iit").(*metrics.TrendSink), a.Streaming.Sink("even", "iit").(*metrics.TrendSink)
		if be.Count() != 30 || be.P(0.5) != bw.P(0.5) {
			t.Errorf("bucket even: %d values, median %v; want 30, %v", be.Count(), be.P(0.5), bw.P(0.5))
		}
	}
}

func materialize(t *testing.T, f *File) *Run {
	t.Helper()
	r, err := f.Materialize(false)
	if err != nil {
		t.Fatalf("Materialize: %v", err)
	}
	return r
}

func trend(t *testing.T, r *Run, name string) *metrics.TrendSink {
	t.Helper()
	for _, m := range r.Registry.All() {
		if m.Name == name {
			return m.Sink.(*metrics.TrendSink)
		}
		for _, s := range m.Submetrics {
			if s.Metric.Name == name {
				return s.Metric.Sink.(*metrics.TrendSink)
			}
		}
	}
	t.Fatalf("no trend %q", name)
	return nil
}

// A threshold on the whole test passes on the merge and fails on every
// share; one true of every share can fail on the whole.
func TestMergedThresholds(t *testing.T) {
	for i, f := range thirds() {
		if !materialize(t, f).EvalThresholds() {
			t.Errorf("share %d passes count==60 alone", i)
		}
	}
	merged, _, err := Merge(thirds())
	if err != nil {
		t.Fatal(err)
	}
	run := materialize(t, merged)
	if run.EvalThresholds() {
		t.Errorf("the whole test fails count==60: crossed %v", run.Crossed())
	}
	merged.Thresholds = map[string][]Threshold{"iit": {{Source: "p(50)<20"}}, "done": {{Source: "count<=20"}}}
	run = materialize(t, merged)
	if !run.EvalThresholds() || !slices.Equal(run.Crossed(), []string{"done", "iit"}) {
		t.Errorf("thresholds true of each share: crossed %v, want done and iit", run.Crossed())
	}
	if materialize(t, merged).EvalThresholds() == false {
		t.Error("a fresh materialization evaluates again")
	}
	if r, err := merged.Materialize(true); err != nil || r.EvalThresholds() {
		t.Errorf("noThresholds: %v, failed %v", err, r.EvalThresholds())
	}
}

func TestMergePartialWarns(t *testing.T) {
	shares := thirds()
	merged, warnings, err := Merge([]*File{shares[2], shares[0]})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "0:1/3, 2/3:1") || !strings.Contains(warnings[0], "missing 1/3:2/3") {
		t.Errorf("warnings = %q, want one naming the covered and the missing segments", warnings)
	}
	if !materialize(t, merged).EvalThresholds() {
		t.Error("2 of 3 shares pass count==60")
	}
	_, warnings, _ = Merge(shares[:1])
	if len(warnings) != 1 || !strings.Contains(warnings[0], "missing 1/3:1") {
		t.Errorf("warnings = %q", warnings)
	}
}

func TestMergeRefuses(t *testing.T) {
	other := thirds()
	other[1].TestID = "0123"
	other[1].Path = "b.res"
	seq := thirds()
	seq[2].Sequence = "0,1/2,1"
	typ := thirds()
	typ[1].Metrics[0].Type = "gauge"
	tests := []struct {
		name  string
		files []*File
		want  string
	}{
		{"no files", nil, "no result"},
		{"other test", other, "b.res is a result of another test than result #1"},
		{"same share twice", append(thirds(), thirds()[1]), "segments overlap: 1/3:2/3 of result #2 and 1/3:2/3 of result #4"},
		{"overlapping whole", append(thirds(), share("0:1", 0, 60, time.Now())), "segments overlap: 0:1/3 of result #1 and 0:1 of result #4"},
		{"other sequence", seq, `execution segment sequence "0,1/2,1"`},
		{"metric type", typ, `metric "done" is a gauge of default values in result #2, a counter of default values before`},
		// Merged in the order of their segments, files are still named by
		// the position they were given in.
		{"metric type, files reversed", []*File{typ[2], typ[1], typ[0]}, `metric "done" is a gauge of default values in result #2, a counter of default values before`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Merge(tt.files)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Merge = %v, want an error containing %q", err, tt.want)
			}
			if tt.files != nil && !errors.Is(err, ErrMismatch) {
				t.Errorf("error %v is not ErrMismatch", err)
			}
		})
	}
}

func TestMergeSortedKeepsOrder(t *testing.T) {
	var lists [][]float64
	var all []float64
	for i := range 5 {
		vs := randomValues(1000+i, uint64(i))
		sortValues(vs)
		lists = append(lists, vs)
		all = append(all, vs...)
	}
	lists = append(lists, nil)
	got := mergeSorted(lists)
	sortValues(all)
	if !slices.Equal(got, all) {
		t.Fatal("merged values differ from all values sorted")
	}
}

// Files whose thresholds differ are refused, whichever comes first, with
// an error naming both: before, the first file's thresholds judged the
// merge, so its verdict depended on the order of the files.
func TestMergeRefusesDifferentThresholds(t *testing.T) {
	tests := []struct {
		name string
		set  map[string][]Threshold
		key  string
	}{
		{"other expression", map[string][]Threshold{"done": {{Source: "count<60"}}}, "done"},
		{"abortOnFail", map[string][]Threshold{"done": {{Source: "count==60", AbortOnFail: true}}}, "done"},
		{"one more", map[string][]Threshold{"done": {{Source: "count==60"}}, "iit": {{Source: "p(95)<1"}}}, "iit"},
		{"none", nil, "done"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shares := thirds()
			shares[0].Path, shares[1].Path = "a.res", "b.res"
			shares[1].Thresholds = tt.set
			for _, files := range [][]*File{shares, {shares[1], shares[0], shares[2]}} {
				_, _, err := Merge(files)
				if !errors.Is(err, ErrMismatch) {
					t.Fatalf("Merge(%s, %s, …) = %v, want ErrMismatch", files[0].Path, files[1].Path, err)
				}
				want := fmt.Sprintf("%s and %s have different thresholds (on %q)", files[0].Path, files[1].Path, tt.key)
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q, want it to contain %q", err, want)
				}
			}
		})
	}
}

// The merge of the same files in any order is the same result: the
// header taken from the file of the first segment, a gauge's value on a
// tie of times from the earlier segment.
func TestMergeOrderIndependent(t *testing.T) {
	shares := thirds()
	tie := shares[0].End
	for i, f := range shares {
		f.Script = fmt.Sprintf("runner%d/test.js", i)
		f.SummaryTrendStats = []string{fmt.Sprintf("p(%d)", 90+i)}
		f.SetupData, f.KeepSetupData = json.RawMessage(fmt.Sprintf(`{"runner":%d}`, i)), true
		for j := range f.Metrics {
			if f.Metrics[j].Name == "last" {
				f.Metrics[j].Sink.Last, f.Metrics[j].Sink.Value = tie, float64(i)
			}
		}
	}
	var want []byte
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}} {
		files := []*File{shares[order[0]], shares[order[1]], shares[order[2]]}
		merged, _, err := Merge(files)
		if err != nil {
			t.Fatal(err)
		}
		if merged.Script != "runner0/test.js" || string(merged.SetupData) != `{"runner":0}` || metric(merged, "last").Sink.Value != 0 {
			t.Errorf("order %v: script %s, setup data %s, gauge %v; want those of the first segment", order,
				merged.Script, merged.SetupData, metric(merged, "last").Sink.Value)
		}
		got := gunzip(t, encode(t, merged))
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Errorf("order %v: the merged file differs from that of order [0 1 2]", order)
		}
	}
}

// Materialize refuses, quickly, more submetrics or threshold keys than a
// run makes: the registry adds a submetric in time linear in the metric's
// others, so 200,000 of them took hours.
func TestMergeMaterializeRefusesTooMany(t *testing.T) {
	subs := thirds()[0]
	m := &subs.Metrics[slices.IndexFunc(subs.Metrics, func(m Metric) bool { return m.Name == "iit" })]
	for i := range MaxSubmetrics + 1 {
		m.Submetrics = append(m.Submetrics, Submetric{Selector: fmt.Sprintf("k:%d", i)})
	}
	keys := thirds()[0]
	for i := range MaxSubmetrics + 1 {
		keys.Thresholds[fmt.Sprintf("iit{k:%d}", i)] = []Threshold{{Source: "count>=0"}}
	}
	many := thirds()[0]
	for i := range MaxThresholdKeys + 1 {
		many.Thresholds[fmt.Sprintf("m%d", i)] = []Threshold{{Source: "count>=0"}}
	}
	for name, f := range map[string]*File{"submetrics": subs, "threshold keys on iit": keys, "threshold keys": many} {
		start := time.Now()
		_, err := f.Materialize(false)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: Materialize = %v, want ErrTooLarge", name, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: refused after %s", name, d)
		}
	}
	// At the bound, a file still materializes.
	m.Submetrics = m.Submetrics[:MaxSubmetrics-1]
	if _, err := subs.Materialize(false); err != nil {
		t.Errorf("%d submetrics: %v", MaxSubmetrics, err)
	}
}

// Checks merge by name in linear time: 100,000 checks of one group took
// minutes when each was looked up among the others.
func TestMergeManyChecks(t *testing.T) {
	shares := thirds()
	for _, f := range shares {
		for i := range 100_000 {
			f.Groups[0].Checks = append(f.Groups[0].Checks, Check{Name: fmt.Sprintf("c%d", i), Passes: 1})
		}
	}
	start := time.Now()
	merged, _, err := Merge(shares)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("merging 3 × 100,000 checks took %s", d)
	}
	if c := merged.Groups[0].Checks; len(c) != 100_000 || c[99_999].Passes != 3 {
		t.Errorf("%d checks, the last with %d passes; want 100000 and 3", len(c), c[len(c)-1].Passes)
	}
}
