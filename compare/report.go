// Package compare compares two sets of runs of one test — a base and a new
// side, each one or more result files — and says, per bucket and per metric
// the gates use, what regressed, by how much and how sure: each side's value
// of each stat, the difference absolute and relative, a bootstrap confidence
// interval for the difference and a verdict against an effect size.
package compare

// Verdict is the verdict of one row.
type Verdict string

// The verdicts of a row.
const (
	// Regressed: the whole interval of the difference lies beyond the
	// effect in the worse direction.
	Regressed Verdict = "regressed"
	// Improved: the whole interval lies beyond the effect in the better
	// direction.
	Improved Verdict = "improved"
	// NoChange: neither.
	NoChange Verdict = "no clear change"
)

// ExitRegressed is the exit code of `usefullatency compare` when a gated
// row regressed; 99 stays "a threshold failed".
const ExitRegressed = 111

// Effect is the smallest change that counts: relative (Relative > 0, 0.05
// for 5 %) or absolute (Relative == 0, Absolute in the metric's unit: ms
// for time trends, a fraction for rates). Floor, with a relative effect,
// is the least absolute difference that counts too (TimeFloor for time
// trends, 0 otherwise).
type Effect struct {
	Relative float64 `json:"relative"`
	Absolute float64 `json:"absolute"`
	Floor    float64 `json:"floor,omitempty"`
}

// Row is the comparison of one stat of one metric.
type Row struct {
	// Metric is the metric with its selector, as thresholds name it:
	// "usefulsse_useful{bucket:qa}".
	Metric string `json:"metric"`
	// Bucket is the row's bucket, "" when the row is not per bucket.
	Bucket string `json:"bucket"`
	// Type is the metric type: "trend", "rate" or "counter".
	Type string `json:"type"`
	// Stat is the compared stat: "p(95)", "avg", "rate", "count", "rate/s" …
	Stat string `json:"stat"`
	// Unit is the unit of Base, New, Diff, Low and High: "ms" for time
	// trends, "" otherwise ("/s" for per-second rates of counters).
	Unit string `json:"unit"`
	// Base and New are each side's value of the stat (on the pooled runs
	// of a side with repeats).
	Base float64 `json:"base"`
	New  float64 `json:"new"`
	// Diff is New − Base and Rel is Diff / Base (NaN when Base is 0).
	Diff float64 `json:"diff"`
	Rel  float64 `json:"rel"`
	// Low and High bound the confidence interval of Diff; RelLow and
	// RelHigh that of Rel.
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	RelLow  float64 `json:"rel_low"`
	RelHigh float64 `json:"rel_high"`
	// HigherIsWorse is true when a larger value is a regression.
	HigherIsWorse bool `json:"higher_is_worse"`
	// Effect is the smallest change that counts on this row: relative
	// (compared with RelLow and RelHigh) or absolute (with Low and High).
	Effect  Effect  `json:"effect"`
	Verdict Verdict `json:"verdict"`
	// Undecided is true when the interval is too wide to tell: neither
	// entirely beyond the effect nor entirely within it.
	Undecided bool `json:"undecided"`
	// NeedRequests is, when Undecided, the number of requests (values) per
	// side that would likely decide the row; 0 when unknown.
	NeedRequests int `json:"need_requests,omitempty"`
	// BaseN and NewN are the number of values (requests) per side; for a
	// rate its total, for a counter its count of samples.
	BaseN int `json:"base_n"`
	NewN  int `json:"new_n"`
	// BaseRuns and NewRuns are the number of runs per side.
	BaseRuns int `json:"base_runs"`
	NewRuns  int `json:"new_runs"`
	// Gated is true when the row counts for the exit code: every row, or
	// those named by --fail-on.
	Gated bool `json:"gated"`
	// Score is how far the interval's middle lies from zero in
	// half-widths of the interval, positive toward the worse: the rows of
	// one verdict are sorted by its magnitude.
	Score float64 `json:"score"`
}

// Sample is one run's raw sorted values of one side, for plots.
type Sample struct {
	Run    int       `json:"run"`
	Values []float64 `json:"values"`
}

// Report is a comparison.
type Report struct {
	// Confidence is the level of the intervals (0.95).
	Confidence float64 `json:"confidence"`
	// MinEffect is the effect a change must exceed to count: the time
	// effect when one was given, else the relative one. Row.Effect is each
	// row's, Effects all of them.
	MinEffect Effect  `json:"min_effect"`
	Effects   Effects `json:"effects"`
	// Resamples is the number of bootstrap replicates and Seed the seed
	// of their generator.
	Resamples int    `json:"resamples"`
	Seed      uint64 `json:"seed"`
	// Base and New are the sides' file paths.
	Base []string `json:"base"`
	New  []string `json:"new"`
	// Notes say what differs between the sides besides the code: rates,
	// dropped iterations, a saturated runner, durations.
	Notes []string `json:"notes"`
	// Rows are sorted by significance, the most significant regression
	// first.
	Rows []Row `json:"rows"`
	// Distributions are, by Row.Metric, the pooled sorted values of the
	// base ([0]) and new ([1]) side of each trend, for ECDF plots.
	Distributions map[string][2][]float64 `json:"-"`
	// Gates are, by Row.Metric, the sources of the thresholds on it
	// ("p(95)<2500"), for the gate line of plots.
	Gates map[string][]string `json:"gates,omitempty"`
}

// Regressed returns the gated rows that regressed.
func (r *Report) Regressed() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Gated && row.Verdict == Regressed {
			out = append(out, row)
		}
	}
	return out
}
