package result

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// ErrMismatch means files do not belong together: different tests,
// thresholds, sequences or metric types, or overlapping segments.
var ErrMismatch = errors.New("results do not merge")

// Merge merges the results of several runners of one test into the result
// of the whole test: counters and rates add up, trends keep every value,
// gauges keep the latest value and the extremes, checks add up per group,
// and the run spans from the earliest start to the latest end. It refuses
// files of different tests, thresholds, sequences or overlapping segments
// (ErrMismatch). warnings says, in one line, when the segments do not cover
// the whole test; the merge still happens. The result does not depend on
// the order of files: they are merged in the order of their segments. The
// files are not modified; trend values are copied.
func Merge(files []*File) (merged *File, warnings []string, err error) {
	if len(files) == 0 {
		return nil, nil, errors.New("no result to merge")
	}
	if err := sameTest(files); err != nil {
		return nil, nil, err
	}
	segs, warn, err := checkSegments(files)
	if err != nil {
		return nil, nil, err
	}
	if warn != "" {
		warnings = append(warnings, warn)
	}
	files, labels := bySegment(files)
	merged = mergeHeader(files)
	merged.Segments = segs
	if merged.Metrics, err = mergeMetrics(files, labels); err != nil {
		return nil, nil, err
	}
	merged.Groups = mergeGroups(files)
	if merged.Breakdown, err = mergeBreakdowns(files, labels); err != nil {
		return nil, nil, err
	}
	return merged, warnings, nil
}

// name is how errors call the i-th file.
func name(f *File, i int) string {
	if f.Path != "" {
		return f.Path
	}
	return fmt.Sprintf("result #%d", i+1)
}

// sameTest checks that every file has the first one's test id,
// thresholds and segment sequence. The test id covers the thresholds, but
// it is only what a file claims: the thresholds are compared too, or the
// verdict would depend on which file comes first.
func sameTest(files []*File) error {
	first := files[0]
	for i, f := range files[1:] {
		if f.TestID != first.TestID {
			return fmt.Errorf("%w: %s is a result of another test than %s (the script or its scenarios or thresholds differ)", ErrMismatch, name(f, i+1), name(first, 0))
		}
		if key, ok := thresholdsDiffer(first.Thresholds, f.Thresholds); ok {
			return fmt.Errorf("%w: %s and %s have different thresholds (on %q): results of one test have the same",
				ErrMismatch, name(first, 0), name(f, i+1), key)
		}
		if f.Sequence != first.Sequence && f.Sequence != "" && first.Sequence != "" {
			return fmt.Errorf("%w: %s has execution segment sequence %q, %s has %q", ErrMismatch, name(f, i+1), f.Sequence, name(first, 0), first.Sequence)
		}
	}
	return nil
}

// thresholdsDiffer returns the first metric key, in sorted order, whose
// thresholds differ between a and b, and whether there is one.
func thresholdsDiffer(a, b map[string][]Threshold) (string, bool) {
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Equal(a[k], b[k]) {
			return k, true
		}
	}
	return "", false
}

// bySegment returns the files sorted by where their first segment starts
// (files that passed checkSegments), and how errors call each: by the
// position the caller gave it.
func bySegment(files []*File) ([]*File, []string) {
	from := func(f *File) *big.Rat {
		low := big.NewRat(1, 1)
		for _, s := range f.Segments {
			if seg, err := options.ParseSegment(s); err == nil && seg.From().Cmp(low) < 0 {
				low = seg.From()
			}
		}
		return low
	}
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return from(files[a]).Cmp(from(files[b])) })
	sorted, labels := make([]*File, len(files)), make([]string, len(files))
	for i, k := range order {
		sorted[i], labels[i] = files[k], name(files[k], k)
	}
	return sorted, labels
}

// segmentOf is a parsed segment and the file it came from.
type segmentOf struct {
	seg  options.Segment
	file string
}

// checkSegments returns the files' segments sorted by start. Overlapping
// segments are an error; gaps give a warning naming what is missing.
func checkSegments(files []*File) ([]string, string, error) {
	var all []segmentOf
	for i, f := range files {
		if len(f.Segments) == 0 {
			return nil, "", fmt.Errorf("%w: %s names no execution segment", ErrCorrupt, name(f, i))
		}
		for _, s := range f.Segments {
			seg, err := options.ParseSegment(s)
			if err != nil {
				return nil, "", fmt.Errorf("%w: %s: segment %q: %v", ErrCorrupt, name(f, i), s, err)
			}
			all = append(all, segmentOf{seg, name(f, i)})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].seg.From().Cmp(all[j].seg.From()) < 0 })
	var out, missing []string
	at := new(big.Rat)
	for i, s := range all {
		if i > 0 && s.seg.From().Cmp(all[i-1].seg.To()) < 0 {
			return nil, "", fmt.Errorf("%w: segments overlap: %s of %s and %s of %s", ErrMismatch,
				all[i-1].seg, all[i-1].file, s.seg, s.file)
		}
		if s.seg.From().Cmp(at) > 0 {
			missing = append(missing, at.RatString()+":"+s.seg.From().RatString())
		}
		at = s.seg.To()
		out = append(out, s.seg.String())
	}
	if at.Cmp(big.NewRat(1, 1)) < 0 {
		missing = append(missing, at.RatString()+":1")
	}
	warn := ""
	if len(missing) > 0 {
		warn = fmt.Sprintf("the results cover segments %s, not the whole test (missing %s): counts and rates are those of a part of the test",
			strings.Join(out, ", "), strings.Join(missing, ", "))
	}
	return out, warn, nil
}

// mergeHeader merges what is not a metric: the options of the first file,
// the span of time of all, the first setup data kept (KeepSetupData).
func mergeHeader(files []*File) *File {
	first := files[0]
	m := &File{
		Format: Format, Version: Version, TestID: first.TestID, Script: first.Script,
		Options: first.Options, Thresholds: first.Thresholds,
		SummaryTrendStats: first.SummaryTrendStats, SummaryTimeUnit: first.SummaryTimeUnit,
		Start: first.Start, End: first.End,
	}
	for _, f := range files {
		if f.Sequence != "" {
			m.Sequence = f.Sequence
		}
		m.NoThresholds = m.NoThresholds || f.NoThresholds
		if len(m.SetupData) == 0 && f.KeepSetupData {
			m.SetupData, m.KeepSetupData = f.SetupData, len(f.SetupData) > 0
		}
		if f.Start.Before(m.Start) {
			m.Start = f.Start
		}
		if f.End.After(m.End) {
			m.End = f.End
		}
	}
	m.Duration = m.End.Sub(m.Start)
	if len(files) == 1 {
		m.Duration = first.Duration
	}
	return m
}

// mergeMetrics merges the metrics by name (sorted) and their submetrics by
// selector (in order of first appearance).
func mergeMetrics(files []*File, labels []string) ([]Metric, error) {
	byName := map[string]*Metric{}
	sinks := map[string][]*Sink{}
	subs := map[string]map[string][]*Sink{}
	for i, f := range files {
		for j := range f.Metrics {
			fm := &f.Metrics[j]
			m := byName[fm.Name]
			if m == nil {
				m = &Metric{Name: fm.Name, Type: fm.Type, Contains: fm.Contains}
				byName[fm.Name] = m
				subs[fm.Name] = map[string][]*Sink{}
			} else if m.Type != fm.Type || m.Contains != fm.Contains {
				return nil, fmt.Errorf("%w: metric %q is a %s of %s values in %s, a %s of %s values before",
					ErrMismatch, fm.Name, fm.Type, fm.Contains, labels[i], m.Type, m.Contains)
			}
			sinks[fm.Name] = append(sinks[fm.Name], &fm.Sink)
			for k := range fm.Submetrics {
				sel := fm.Submetrics[k].Selector
				if _, ok := subs[fm.Name][sel]; !ok {
					m.Submetrics = append(m.Submetrics, Submetric{Selector: sel})
				}
				subs[fm.Name][sel] = append(subs[fm.Name][sel], &fm.Submetrics[k].Sink)
			}
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]Metric, 0, len(names))
	for _, n := range names {
		m := byName[n]
		m.Sink = mergeSinks(m.Type, sinks[n])
		for k := range m.Submetrics {
			m.Submetrics[k].Sink = mergeSinks(m.Type, subs[n][m.Submetrics[k].Selector])
		}
		out = append(out, *m)
	}
	return out, nil
}

// mergeSinks merges aggregates of one metric type.
func mergeSinks(typ string, ss []*Sink) Sink {
	var out Sink
	var trends [][]float64
	for _, s := range ss {
		switch typ {
		case "counter":
			out.Sum += s.Sum
			out.Count += s.Count
		case "rate":
			out.Trues += s.Trues
			out.Total += s.Total
		case "gauge":
			mergeGauge(&out, s)
		case "trend":
			out.Sum += s.Sum
			out.Count += s.Count
			trends = append(trends, s.Values)
		}
	}
	if typ == "trend" {
		out.Values = mergeSorted(trends)
	}
	return out
}

// mergeGauge folds gauge s into out: the value of the later sample (that
// of the file of the earlier segment on a tie), the extremes of both.
func mergeGauge(out, s *Sink) {
	if !s.Set {
		return
	}
	if !out.Set {
		*out = *s
		return
	}
	if s.Last.After(out.Last) {
		out.Value, out.Last = s.Value, s.Last
	}
	out.Min = min(out.Min, s.Min)
	out.Max = max(out.Max, s.Max)
}

// mergeSorted merges lists sorted by order key into one sorted list, in
// pairs, so each value is copied about log₂(len(lists)) times.
func mergeSorted(lists [][]float64) []float64 {
	switch len(lists) {
	case 0:
		return nil
	case 1:
		return slices.Clone(lists[0])
	}
	half := len(lists) / 2
	a, b := mergeSorted(lists[:half]), mergeSorted(lists[half:])
	out := make([]float64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if orderKey(b[j]) < orderKey(a[i]) {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// mergeGroups merges the groups by path and their checks by name, in order
// of first appearance.
func mergeGroups(files []*File) []Group {
	var out []Group
	index := map[string]int{}
	checks := map[string]map[string]int{} // path → name → index in Checks
	for _, f := range files {
		for _, g := range f.Groups {
			i, ok := index[g.Path]
			if !ok {
				i = len(out)
				index[g.Path] = i
				checks[g.Path] = map[string]int{}
				out = append(out, Group{Path: g.Path})
			}
			out[i].Checks = mergeChecks(out[i].Checks, checks[g.Path], g.Checks)
		}
	}
	return out
}

// mergeChecks adds the counts of more to into, whose checks index holds
// by name.
func mergeChecks(into []Check, index map[string]int, more []Check) []Check {
	for _, c := range more {
		i, ok := index[c.Name]
		if !ok {
			index[c.Name] = len(into)
			into = append(into, c)
			continue
		}
		into[i].Passes += c.Passes
		into[i].Fails += c.Fails
	}
	return into
}

// mergeBreakdowns merges the per-bucket breakdowns, buckets sorted by name.
func mergeBreakdowns(files []*File, labels []string) (*Breakdown, error) {
	var out *Breakdown
	types := map[string]string{}
	sinks := map[string]map[string][]*Sink{} // bucket → metric → sinks
	for i, f := range files {
		b := f.Breakdown
		if b == nil {
			continue
		}
		if out == nil {
			out = &Breakdown{Keys: b.Keys}
		}
		for _, m := range b.Metrics {
			if t, ok := types[m.Name]; ok && t != m.Type {
				return nil, fmt.Errorf("%w: breakdown metric %q is a %s in %s, a %s before", ErrMismatch, m.Name, m.Type, labels[i], t)
			} else if !ok {
				types[m.Name] = m.Type
				out.Metrics = append(out.Metrics, m)
			}
		}
		for j := range b.Buckets {
			bk := &b.Buckets[j]
			if sinks[bk.Name] == nil {
				sinks[bk.Name] = map[string][]*Sink{}
			}
			for k := range bk.Sinks {
				s := &bk.Sinks[k]
				sinks[bk.Name][s.Metric] = append(sinks[bk.Name][s.Metric], &s.Sink)
			}
		}
	}
	if out == nil {
		return nil, nil
	}
	sort.Slice(out.Metrics, func(i, j int) bool { return out.Metrics[i].Name < out.Metrics[j].Name })
	for _, bucket := range metrics.SortedNames(sinks) {
		bk := Bucket{Name: bucket}
		for _, m := range out.Metrics {
			if ss := sinks[bucket][m.Name]; len(ss) > 0 {
				bk.Sinks = append(bk.Sinks, BucketSink{Metric: m.Name, Sink: mergeSinks(m.Type, ss)})
			}
		}
		out.Buckets = append(out.Buckets, bk)
	}
	return out, nil
}
