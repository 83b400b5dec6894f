package metrics

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// StatKind is the kind of number a Stat reads from a metric's sink.
type StatKind uint8

// The stat kinds, named as k6 writes them.
const (
	StatAvg        StatKind = iota + 1 // "avg": the mean of a Trend.
	StatMin                            // "min": the smallest value of a Trend.
	StatMax                            // "max": the largest value of a Trend.
	StatMed                            // "med": the median of a Trend, p(50).
	StatCount                          // "count": a Counter's sum, a Trend's number of values.
	StatSum                            // "sum": the sum of a Trend's values.
	StatRate                           // "rate": a Counter's sum per second, a Rate's non-zero share.
	StatValue                          // "value": a Gauge's last value.
	StatPercentile                     // "p(N)": the N-th percentile of a Trend.
)

// statNames are the names of the kinds but StatPercentile, in the order
// error messages list them.
var statNames = []struct {
	name string
	kind StatKind
}{
	{"avg", StatAvg}, {"min", StatMin}, {"max", StatMax}, {"med", StatMed},
	{"count", StatCount}, {"sum", StatSum}, {"rate", StatRate}, {"value", StatValue},
}

// Stat is one number read from a metric, parsed from its k6 name: "avg",
// "min", "max", "med", "count", "sum", "rate", "value" or "p(N)". Stats are
// comparable; two names that parse to equal Stats read the same number
// ("p(95)" and "p(95.0)"). The zero Stat is invalid and reads nothing.
type Stat struct {
	// Kind is the kind of number read.
	Kind StatKind
	// Percentile is N of "p(N)", 0 ≤ N ≤ 100; 0 for the other kinds.
	Percentile float64
	// fraction is N/100 as the double nearest to it, parsed from the
	// decimal text "Ne-2": 99.9/100 in floating point is one bit off 0.999.
	fraction float64
}

// percentileRE matches the N of "p(N)": decimal digits with an optional
// fraction, "95", "99.9", "95." or ".5"; no sign, exponent or space.
var percentileRE = regexp.MustCompile(`^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$`)

// ParseStat parses the k6 name of a stat. Names are lower case and exact:
// avg, min, max, med, count, sum, rate, value, or p(N) where N is a decimal
// number without sign, exponent or spaces and 0 ≤ N ≤ 100 ("p(95)",
// "p(99.9)", "p(.5)"). The error names s in one line. ParseStat does not
// check that the stat applies to a metric; see ValidFor.
func ParseStat(s string) (Stat, error) {
	for _, n := range statNames {
		if s == n.name {
			return Stat{Kind: n.kind}, nil
		}
	}
	inner, ok := strings.CutPrefix(s, "p(")
	if !ok {
		return Stat{}, fmt.Errorf("unknown stat %q; want avg, min, max, med, count, sum, rate, value or p(N)", s)
	}
	inner, ok = strings.CutSuffix(inner, ")")
	if !ok || !percentileRE.MatchString(inner) {
		return Stat{}, fmt.Errorf("invalid percentile %q; want p(N) with 0 ≤ N ≤ 100", s)
	}
	n, err := strconv.ParseFloat(inner, 64)
	if err != nil || n > 100 {
		return Stat{}, fmt.Errorf("invalid percentile %q; want p(N) with 0 ≤ N ≤ 100", s)
	}
	return percentileStat(n), nil
}

// percentileStat returns p(n) for 0 ≤ n ≤ 100. The fraction is parsed from
// the canonical text of n, so equal n give equal Stats.
func percentileStat(n float64) Stat {
	f, _ := strconv.ParseFloat(formatPercentile(n)+"e-2", 64)
	return Stat{Kind: StatPercentile, Percentile: n, fraction: f}
}

// formatPercentile writes n in the shortest decimal form that parses back
// to it, without exponent or trailing zeros: "95", "99.9".
func formatPercentile(n float64) string { return strconv.FormatFloat(n, 'f', -1, 64) }

// String returns the canonical name of s, which ParseStat parses back to s:
// "avg", …, or "p(N)" with N in its shortest decimal form ("p(95)" for
// "p(95.00)"). It is "" for the zero Stat.
func (s Stat) String() string {
	if s.Kind == StatPercentile {
		return "p(" + formatPercentile(s.Percentile) + ")"
	}
	for _, n := range statNames {
		if s.Kind == n.kind {
			return n.name
		}
	}
	return ""
}

// StatUse is a place where stats are read. k6 accepts a different part of
// the stat grammar in each; ValidFor checks a stat against the part of one.
type StatUse uint8

// The places stats are read.
const (
	// InThreshold is a threshold expression: count and rate of a Counter,
	// value of a Gauge, rate of a Rate, and avg, min, max, med and p(N) of a
	// Trend.
	InThreshold StatUse = iota + 1
	// InSummary is a trend column of the end-of-test summary
	// (summaryTrendStats): avg, min, max, med, count and p(N) of a Trend.
	InSummary
	// InSeries is a trend stat of the Prometheus output
	// (K6_PROMETHEUS_RW_TREND_STATS): avg, min, max, med, count, sum and
	// p(N) of a Trend.
	InSeries
)

// String returns what k6 calls a stat in the use: "aggregation" in a
// threshold, "trend stat" in the summary and the Prometheus output.
func (u StatUse) String() string {
	switch u {
	case InThreshold:
		return "aggregation"
	case InSummary, InSeries:
		return "trend stat"
	}
	return fmt.Sprintf("StatUse(%d)", uint8(u))
}

// statsFor lists, per use and metric type, the kinds a stat may have.
var statsFor = map[StatUse]map[MetricType][]StatKind{
	InThreshold: {
		Counter: {StatCount, StatRate},
		Gauge:   {StatValue},
		Rate:    {StatRate},
		Trend:   {StatAvg, StatMin, StatMax, StatMed, StatPercentile},
	},
	InSummary: {Trend: {StatAvg, StatMin, StatMax, StatMed, StatCount, StatPercentile}},
	InSeries:  {Trend: {StatAvg, StatMin, StatMax, StatMed, StatCount, StatSum, StatPercentile}},
}

// ValidFor returns nil when s may be read, in use, from a metric of type t
// (see StatUse for what each use allows), and otherwise a one-line error
// naming s and t and listing what the use allows for t, e.g. `aggregation
// "avg" does not apply to a counter metric; a counter allows count, rate`.
// Every stat ValidFor accepts, Compute computes.
func (s Stat) ValidFor(t MetricType, use StatUse) error {
	allowed := statsFor[use][t]
	for _, k := range allowed {
		if k == s.Kind {
			return nil
		}
	}
	return fmt.Errorf("%s %q does not apply to a %s metric; a %s allows %s", use, s.String(), t, t, kindList(allowed))
}

// kindList returns the names of kinds joined by ", ", with "p(N)" for
// StatPercentile; "none" when there are none.
func kindList(kinds []StatKind) string {
	if len(kinds) == 0 {
		return "none"
	}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = Stat{Kind: k}.String()
		if k == StatPercentile {
			names[i] = "p(N)"
		}
	}
	return strings.Join(names, ", ")
}

// usedIn reports whether use allows s for some metric type.
func (s Stat) usedIn(use StatUse) bool {
	for _, kinds := range statsFor[use] {
		for _, k := range kinds {
			if k == s.Kind {
				return true
			}
		}
	}
	return false
}

// Compute returns the stat of a sink, in the metric's unit (milliseconds
// for time metrics), and whether the sink has it. elapsed is the test time
// so far, for the per-second rate of a Counter. A Counter has count and
// rate, a Gauge value, a Rate rate, and a Trend avg, min, max, med, count,
// sum and p(N); an empty sink reads 0 for each.
func (s Stat) Compute(sink Sink, elapsed time.Duration) (float64, bool) {
	switch k := sink.(type) {
	case *CounterSink:
		return s.ofCounter(k, elapsed)
	case *GaugeSink:
		if s.Kind == StatValue {
			return k.Value, true
		}
	case *RateSink:
		if s.Kind == StatRate {
			return k.Rate(), true
		}
	case *TrendSink:
		return s.ofTrend(k)
	}
	return math.NaN(), false
}

func (s Stat) ofCounter(c *CounterSink, elapsed time.Duration) (float64, bool) {
	switch s.Kind {
	case StatCount:
		return c.Sum, true
	case StatRate:
		return c.Rate(elapsed), true
	}
	return math.NaN(), false
}

// ofTrend reads a Trend; Min and Max of an empty TrendSink are 0.
func (s Stat) ofTrend(t *TrendSink) (float64, bool) {
	switch s.Kind {
	case StatAvg:
		return t.Avg(), true
	case StatMin:
		return t.Min, true
	case StatMax:
		return t.Max, true
	case StatMed:
		return t.P(0.5), true
	case StatCount:
		return float64(t.Count()), true
	case StatSum:
		return t.Sum, true
	case StatPercentile:
		return t.P(s.fraction), true
	}
	return math.NaN(), false
}
