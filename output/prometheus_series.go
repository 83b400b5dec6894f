package output

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/usefullatency/usefullatency/metrics"
)

// trendStat is one stat a Trend is pushed as: the gauge k6_<metric>_<name>.
type trendStat struct {
	// name is the suffix: "p99" for p(99), "p999" for p(99.9), "avg", …
	name string
	// stat is the stat pushed, in the Trend's unit (ms for time Trends).
	stat metrics.Stat
}

// parseTrendStats reads k6's list of trend stats, e.g. "p(95),p(99),avg":
// avg, min, max, med, count, sum and p(N) with 0 ≤ N ≤ 100 (see
// metrics.InSeries). A stat named twice is pushed once.
func parseTrendStats(list string) ([]trendStat, error) {
	var out []trendStat
	seen := map[string]bool{}
	for raw := range strings.SplitSeq(list, ",") {
		s, err := parseTrendStat(strings.TrimSpace(raw))
		if err != nil {
			return nil, err
		}
		if !seen[s.name] {
			seen[s.name] = true
			out = append(out, s)
		}
	}
	return out, nil
}

func parseTrendStat(s string) (trendStat, error) {
	st, err := metrics.ParseStat(s)
	if err == nil {
		err = st.ValidFor(metrics.Trend, metrics.InSeries)
	}
	if err != nil {
		return trendStat{}, fmt.Errorf("unknown trend stat %q (want avg, min, max, med, count, sum or p(N) with 0 ≤ N ≤ 100)", s)
	}
	return trendStat{name: seriesSuffix(st), stat: st}, nil
}

// suffixReplacer drops the parentheses and the point of "p(N)".
var suffixReplacer = strings.NewReplacer("(", "", ")", "", ".", "")

// seriesSuffix returns the name suffix of a trend stat: its canonical name
// without parentheses or point, so p(99.9) is "p999", p(0.5) "p05" and
// avg "avg".
func seriesSuffix(st metrics.Stat) string { return suffixReplacer.Replace(st.String()) }

// promLabel is one label of a time series.
type promLabel struct{ name, value string }

// promSeries is the aggregate of one metric and one tag set since the
// start of the run, and the time series it is pushed as.
type promSeries struct {
	metric *metrics.Metric
	sink   metrics.Sink
	// labels are sorted by name and include __name__ at nameAt, whose
	// value is set for each pushed name.
	labels []promLabel
	nameAt int
	// names are the names the series is pushed as (promNames).
	names []string
}

// promAggregator folds samples into series: one per metric and set of
// labels (the sample's tags, sanitised, without empty values).
type promAggregator struct {
	stats []trendStat
	// series holds the series per metric, by their labels' key: name,
	// 0xff, value, 0xff, … (0xff never occurs in UTF-8).
	series map[*metrics.Metric]map[string]*promSeries
	order  []*promSeries
	// labelNames caches sanitised tag names.
	labelNames map[string]string
	// maxSeries caps len(order), 0 for no cap; dropped counts the samples
	// of tag sets that found the cap reached.
	maxSeries int
	dropped   int64
	key       []byte
	labels    []promLabel
	values    []float64
}

func newPromAggregator(stats []trendStat) *promAggregator {
	return &promAggregator{stats: stats, series: map[*metrics.Metric]map[string]*promSeries{}, labelNames: map[string]string{}}
}

// empty reports whether no sample was added yet.
func (a *promAggregator) empty() bool { return len(a.order) == 0 }

// add folds a batch of samples into their series.
func (a *promAggregator) add(batch []metrics.Sample) {
	for i := range batch {
		s := &batch[i]
		if ser := a.seriesOf(s); ser != nil {
			ser.sink.Add(s.Value)
		} else {
			a.dropped++
		}
	}
}

// seriesOf returns the series of a sample, creating it on first sight; nil
// when the sample's series is new and maxSeries are held already.
func (a *promAggregator) seriesOf(s *metrics.Sample) *promSeries {
	a.labels = a.labels[:0]
	for _, k := range metrics.SortedNames(s.Tags) {
		v := s.Tags[k]
		if v == "" {
			continue // Prometheus treats an empty label as an absent one.
		}
		name := a.labelName(k)
		if hasLabel(a.labels, name) {
			continue // Two tags sanitised to one name: the first (sorted) wins.
		}
		a.labels = append(a.labels, promLabel{name, strings.ToValidUTF8(v, "\uFFFD")})
	}
	slices.SortFunc(a.labels, func(x, y promLabel) int { return strings.Compare(x.name, y.name) })
	a.key = a.key[:0]
	for _, l := range a.labels {
		a.key = append(append(append(append(a.key, l.name...), 0xff), l.value...), 0xff)
	}
	byKey := a.series[s.Metric]
	if byKey == nil {
		byKey = map[string]*promSeries{}
		a.series[s.Metric] = byKey
	}
	if ser, ok := byKey[string(a.key)]; ok {
		return ser
	}
	if a.maxSeries > 0 && len(a.order) >= a.maxSeries {
		return nil
	}
	ser := &promSeries{metric: s.Metric, sink: metrics.NewSink(s.Metric.Type), names: promNames(s.Metric, a.stats)}
	ser.nameAt = sort.Search(len(a.labels), func(i int) bool { return a.labels[i].name > "__name__" })
	ser.labels = append(ser.labels, a.labels[:ser.nameAt]...)
	ser.labels = append(ser.labels, promLabel{name: "__name__"})
	ser.labels = append(ser.labels, a.labels[ser.nameAt:]...)
	byKey[string(a.key)] = ser
	a.order = append(a.order, ser)
	return ser
}

func hasLabel(labels []promLabel, name string) bool {
	for _, l := range labels {
		if l.name == name {
			return true
		}
	}
	return false
}

// labelName returns the tag name as a Prometheus label name: every
// character (rune) outside [a-zA-Z0-9_] becomes '_', a leading digit gets a '_'
// before it, and a name starting with "__" (reserved for Prometheus) gets
// the prefix "tag".
func (a *promAggregator) labelName(tag string) string {
	if n, ok := a.labelNames[tag]; ok {
		return n
	}
	n := strings.Map(func(c rune) rune {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			return c
		}
		return '_'
	}, tag)
	switch {
	case n == "" || n[0] >= '0' && n[0] <= '9':
		n = "_" + n
	case strings.HasPrefix(n, "__"):
		n = "tag" + n
	}
	a.labelNames[tag] = n
	return n
}

// appendTo adds every series' current values to the request, at ms.
func (a *promAggregator) appendTo(w *writeRequest, ms int64) {
	for _, ser := range a.order {
		a.appendSeries(w, ser, ms)
	}
}

// appendSeries adds the time series of one aggregate at ms; names are the
// series' names, in the order of its values.
func (a *promAggregator) appendSeries(w *writeRequest, ser *promSeries, ms int64) {
	a.values = ser.values(a.values[:0], a.stats)
	for i, v := range a.values {
		ser.labels[ser.nameAt].value = ser.names[i]
		w.series(ser.labels, v, ms)
	}
}

// promNames returns k6's names of a metric's time series: Counter →
// k6_<name>_total, Gauge → k6_<name>, Rate → k6_<name>_rate, Trend →
// k6_<name>_<stat> per stat.
func promNames(m *metrics.Metric, stats []trendStat) []string {
	base := "k6_" + m.Name
	switch m.Type {
	case metrics.Counter:
		return []string{base + "_total"}
	case metrics.Gauge:
		return []string{base}
	case metrics.Rate:
		return []string{base + "_rate"}
	}
	names := make([]string, len(stats))
	for i, st := range stats {
		names[i] = base + "_" + st.name
	}
	return names
}

// values appends the series' current values in the order of its names:
// the sum of a Counter, the last value of a Gauge, non-zero ÷ all of a
// Rate, each stat of a Trend. Time values (ms) are converted to seconds;
// counts stay as they are.
func (ser *promSeries) values(out []float64, stats []trendStat) []float64 {
	unit := 1.0
	if ser.metric.Contains == metrics.Time {
		unit = 1000
	}
	switch sink := ser.sink.(type) {
	case *metrics.CounterSink:
		return append(out, sink.Sum/unit)
	case *metrics.GaugeSink:
		return append(out, sink.Value/unit)
	case *metrics.RateSink:
		return append(out, sink.Rate())
	case *metrics.TrendSink:
		for _, st := range stats {
			v, _ := st.stat.Compute(sink, 0)
			if st.stat.Kind != metrics.StatCount {
				v /= unit
			}
			out = append(out, v)
		}
	}
	return out
}
