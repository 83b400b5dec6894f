package compare

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/result"
)

// trendStats are the stats of every trend row; a threshold's stat adds
// its own.
var trendStats = []string{"p(50)", "p(95)", "p(99)", "avg"}

// momentStats are the stats of the probe's moments per bucket, as the
// summary's "where the time goes" table shows them.
var momentStats = []string{"p(50)", "p(95)", "p(99)"}

// defaultRates and defaultCounters are compared whole when the runs have
// them: failures, the useful answer reached, checks; iterations dropped
// and iterations per second.
var (
	defaultRates    = []string{metrics.ProbeFailed, metrics.ProbeUsefulReached, metrics.ProbeGood, "http_req_failed", "checks"}
	defaultCounters = []struct{ name, stat string }{{"dropped_iterations", "count"}, {"iterations", "rate"}}
)

// planned is one row to compute.
type planned struct {
	key  metricKey
	stat stat
}

// id is the row's name as --fail-on takes it.
func (p planned) id() string { return rowID(p.key.String(), p.stat.label) }

// thresholdSet is the thresholds of the runs, by metric key: their
// sources and parsed forms.
type thresholdSet map[metricKey][]*metrics.Threshold

// readThresholds collects the thresholds of every run of both sides; the
// same source on one key counts once. Sources that do not parse are
// skipped: the runner refused them already.
func readThresholds(sides ...[]*result.File) thresholdSet {
	out := thresholdSet{}
	for _, side := range sides {
		for _, f := range side {
			for rawKey, ths := range f.Thresholds {
				k, err := parseKey(rawKey)
				if err != nil {
					continue
				}
				for _, th := range ths {
					if slices.ContainsFunc(out[k], func(t *metrics.Threshold) bool { return t.Source == th.Source }) {
						continue
					}
					if t, err := metrics.ParseThreshold(metrics.ThresholdConfig{Source: th.Source}); err == nil {
						out[k] = append(out[k], t)
					}
				}
			}
		}
	}
	return out
}

// sources returns the threshold expressions on k, as written.
func (ts thresholdSet) sources(k metricKey) []string {
	var out []string
	for _, t := range ts[k] {
		out = append(out, strings.TrimSpace(t.Source))
	}
	return out
}

// keys returns the keys with thresholds, sorted.
func (ts thresholdSet) keys() []metricKey {
	out := make([]metricKey, 0, len(ts))
	for k := range ts {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// typeOf returns the type of the metric k names in the first run that has
// it, and whether that run has k itself (its submetric or bucket).
func typeOf(k metricKey, sides ...[]*result.File) (typ string, found bool) {
	for _, side := range sides {
		for _, f := range side {
			_, t, _, ok := sinkOf(f, k)
			if typ == "" {
				typ = t
			}
			if ok {
				return t, true
			}
		}
	}
	return typ, false
}

// statFor returns the row stat of a stat label on a metric type: p(N),
// med, min, max and avg of a trend, rate of a rate, count and rate of a
// counter. ok is false for a stat the type has no row for (a gauge's).
func statFor(typ, label string) (stat, bool) {
	st, err := metrics.ParseStat(label)
	if err != nil {
		return stat{}, false
	}
	switch {
	case typ == "trend" && st.Kind == metrics.StatPercentile:
		q, _ := strconv.ParseFloat(strconv.FormatFloat(st.Percentile, 'f', -1, 64)+"e-2", 64)
		return stat{label: st.String(), kind: statQuantile, q: q}, true
	case typ == "trend" && st.Kind == metrics.StatMed:
		return stat{label: "p(50)", kind: statQuantile, q: 0.5}, true
	case typ == "trend" && st.Kind == metrics.StatMin:
		return stat{label: "min", kind: statQuantile, q: 0}, true
	case typ == "trend" && st.Kind == metrics.StatMax:
		return stat{label: "max", kind: statQuantile, q: 1}, true
	case typ == "trend" && st.Kind == metrics.StatAvg:
		return stat{label: "avg", kind: statMean}, true
	case typ == "rate" && st.Kind == metrics.StatRate:
		return stat{label: "rate", kind: statRate}, true
	case typ == "counter" && st.Kind == metrics.StatCount:
		return stat{label: "count", kind: statCount}, true
	case typ == "counter" && st.Kind == metrics.StatRate:
		return stat{label: "rate", kind: statPerSecond}, true
	}
	return stat{}, false
}

// planner gathers the rows of a comparison, each (key, stat) once, in the
// order they are added.
type planner struct {
	base, new []*result.File
	ths       thresholdSet
	rows      []planned
	seen      map[string]bool
}

// add adds the rows of key's stats that apply to its type.
func (p *planner) add(k metricKey, typ string, labels ...string) {
	for _, l := range labels {
		st, ok := statFor(typ, l)
		if !ok {
			continue
		}
		r := planned{k, st}
		if !p.seen[r.id()] {
			p.seen[r.id()] = true
			p.rows = append(p.rows, r)
		}
	}
}

// addMetric adds a metric's rows: a trend's usual stats (trendStats), a
// rate's rate, a counter's count and rate, and the stats its thresholds
// read.
func (p *planner) addMetric(k metricKey, typ string) {
	switch typ {
	case "trend":
		p.add(k, typ, trendStats...)
	case "rate":
		p.add(k, typ, "rate")
	case "counter":
		p.add(k, typ, "count", "rate")
	}
	p.addThresholdStats(k, typ)
}

// addThresholdStats adds a row for each stat a threshold on k reads.
func (p *planner) addThresholdStats(k metricKey, typ string) {
	for _, t := range p.ths[k] {
		p.add(k, typ, statLabel(t.Stat))
	}
}

// defaults adds the rows of a comparison without --metric: every metric
// the thresholds use with their stats, the probe's moments per bucket
// with the bucket's failures and useful-reached rates, the whole-test
// rates and the counters of the load.
func (p *planner) defaults() {
	for _, k := range p.ths.keys() {
		typ, _ := typeOf(k, p.base, p.new)
		if typ == "trend" {
			p.add(k, typ, trendStats...)
		}
		p.addThresholdStats(k, typ)
	}
	tag, buckets := bucketNames(p.base, p.new)
	for _, b := range buckets {
		for _, m := range metrics.ProbeMoments() {
			k := metricKey{name: m.Metric, sel: tag + ":" + b}
			p.add(k, "trend", momentStats...)
			p.addThresholdStats(k, "trend")
		}
		for _, name := range []string{metrics.ProbeFailed, metrics.ProbeUsefulReached} {
			p.addMetric(metricKey{name: name, sel: tag + ":" + b}, "rate")
		}
	}
	for _, name := range defaultRates {
		if typ, found := typeOf(metricKey{name: name}, p.base, p.new); found {
			p.addMetric(metricKey{name: name}, typ)
		}
	}
	for _, c := range defaultCounters {
		if typ, found := typeOf(metricKey{name: c.name}, p.base, p.new); found {
			p.add(metricKey{name: c.name}, typ, c.stat)
		}
	}
}

// chosen adds the rows of the metrics --metric names; a metric no run
// has, or a gauge, is an error.
func (p *planner) chosen(names []string) error {
	for _, name := range names {
		k, err := parseKey(name)
		if err != nil {
			return fmt.Errorf("%w: --metric %v", ErrOption, err)
		}
		typ, found := typeOf(k, p.base, p.new)
		if !found {
			return fmt.Errorf("%w: --metric %s: no run of either side has it", ErrOption, k)
		}
		if typ == "gauge" {
			return fmt.Errorf("%w: --metric %s: a gauge keeps only its last value, which has no interval; compare a trend, rate or counter", ErrOption, k)
		}
		p.addMetric(k, typ)
	}
	return nil
}

// failOn adds the rows --fail-on names, when not there yet, and returns
// their ids: the gated rows.
func (p *planner) failOn(ids []string) (map[string]bool, error) {
	gated := map[string]bool{}
	for _, id := range ids {
		k, label, err := parseRowID(id)
		if err != nil {
			return nil, fmt.Errorf("%w: --fail-on %v", ErrOption, err)
		}
		typ, found := typeOf(k, p.base, p.new)
		if !found {
			return nil, fmt.Errorf("%w: --fail-on %s: no run of either side has metric %s", ErrOption, id, k)
		}
		if _, ok := statFor(typ, label); !ok {
			return nil, fmt.Errorf("%w: --fail-on %s: a %s has no row for %s; a trend has p(N), avg, min, max, a rate rate, a counter count and rate", ErrOption, id, typ, label)
		}
		p.add(k, typ, label)
		gated[rowID(k.String(), label)] = true
	}
	return gated, nil
}

// bucketNames returns the tag the breakdowns bucket by (their first key,
// "bucket") and every bucket either side has, sorted.
func bucketNames(sides ...[]*result.File) (tag string, names []string) {
	for _, side := range sides {
		for _, f := range side {
			b := f.Breakdown
			if b == nil || len(b.Keys) == 0 {
				continue
			}
			if tag == "" {
				tag = b.Keys[0]
			}
			for _, bk := range b.Buckets {
				if !slices.Contains(names, bk.Name) {
					names = append(names, bk.Name)
				}
			}
		}
	}
	sort.Strings(names)
	return tag, names
}
