package compare

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/usefullatency/usefullatency/result"
)

// Errors of Compare, for the command's exit code.
var (
	// ErrIncomparable means the runs cannot be compared: a side without a
	// run, or runs of different tests without AllowDifferent.
	ErrIncomparable = errors.New("results cannot be compared")
	// ErrOption means an option is invalid or names nothing the runs have.
	ErrOption = errors.New("invalid comparison option")
)

// The defaults of Options.
const (
	DefaultConfidence = 0.95
	DefaultResamples  = 2000
	DefaultSeed       = 1
)

// Options configure a comparison. The zero value compares the default rows
// with 95 % intervals from 2000 resamples of seed 1 against a 5 % effect.
type Options struct {
	// Confidence is the level of the intervals, in (0, 1); 0 is 0.95.
	Confidence float64
	// MinEffect is the smallest change that counts; nil is
	// DefaultEffects (5 %).
	MinEffect *Effects
	// Resamples is the number of bootstrap replicates; 0 is 2000.
	Resamples int
	// Seed seeds the replicates' generators (PCG): the same files, options
	// and seed give the same report. 0 is 1.
	Seed uint64
	// Metrics, when not empty, replace the default rows by the rows of
	// these metrics, "name" or "name{tag:value}".
	Metrics []string
	// FailOn, when not empty, gates only these rows, "metric{tag:value}:stat"
	// (med is p(50)); a row not compared by default is added. Empty gates
	// every row.
	FailOn []string
	// AllowDifferent compares runs of different tests (script, scenarios or
	// thresholds differ) by metric name and tags.
	AllowDifferent bool
}

// withDefaults fills the zero fields and checks the others.
func (o Options) withDefaults() (Options, error) {
	if o.Confidence == 0 {
		o.Confidence = DefaultConfidence
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return o, fmt.Errorf("%w: confidence %v: want a level between 0 and 1, like 0.95", ErrOption, o.Confidence)
	}
	if o.MinEffect == nil {
		e := DefaultEffects
		o.MinEffect = &e
	}
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	if o.Resamples < 100 {
		return o, fmt.Errorf("%w: resamples %d: want at least 100", ErrOption, o.Resamples)
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	return o, nil
}

// Compare compares a base and a new side, each a list of runs: one result
// file per run (a merged file is one run; several files are repeats of the
// test). It returns the rows sorted by significance with their verdicts,
// the notes on what differs besides the code, and for the plots each
// trend's pooled values per side and the thresholds on it.
func Compare(base, new []*result.File, opts Options) (*Report, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := comparable(base, new, opts.AllowDifferent); err != nil {
		return nil, err
	}
	ths := readThresholds(base, new)
	p := &planner{base: base, new: new, ths: ths, seen: map[string]bool{}}
	if len(opts.Metrics) > 0 {
		err = p.chosen(opts.Metrics)
	} else {
		p.defaults()
	}
	if err != nil {
		return nil, err
	}
	gated, err := p.failOn(opts.FailOn)
	if err != nil {
		return nil, err
	}
	r := &Report{
		Confidence: opts.Confidence, MinEffect: opts.MinEffect.forRow(opts.MinEffect.Time > 0), Effects: *opts.MinEffect,
		Resamples: opts.Resamples, Seed: opts.Seed, Base: paths(base), New: paths(new),
		Rows: []Row{}, Distributions: map[string][2][]float64{}, Gates: map[string][]string{},
	}
	r.Notes = append([]string{}, notes(base, new, opts.AllowDifferent)...)
	cache := map[metricKey][2]*series{}
	var oneSided []string
	for _, pr := range p.rows {
		s, ok := cache[pr.key]
		if !ok {
			s = sidesOf(base, new, pr.key)
			cache[pr.key] = s
		}
		if s[0] == nil {
			continue
		}
		if s[0].empty() || s[1].empty() {
			if s[0].empty() != s[1].empty() {
				oneSided = appendOnce(oneSided, pr.key.String())
			}
			continue
		}
		row := computeRow(pr, s[0], s[1], opts, ths)
		row.Gated = len(gated) == 0 || gated[pr.id()]
		r.Rows = append(r.Rows, row)
		if row.Type == "trend" {
			r.Distributions[row.Metric] = [2][]float64{s[0].allValues(), s[1].allValues()}
		}
		if src := ths.sources(pr.key); len(src) > 0 {
			r.Gates[row.Metric] = src
		}
	}
	if len(oneSided) > 0 {
		r.Notes = append(r.Notes, "not compared, values on one side only: "+joinList(oneSided))
	}
	for id := range gated {
		if !hasRow(r.Rows, id) {
			return nil, fmt.Errorf("%w: --fail-on %s: a side has no values for it", ErrIncomparable, id)
		}
	}
	sortRows(r.Rows)
	return r, nil
}

// sidesOf reads key from both sides; nil when neither has it. A side
// without it takes the other's type: a counter that never counted is 0
// there, a trend or rate without values is empty.
func sidesOf(base, new []*result.File, k metricKey) [2]*series {
	b, bf := newSeries(base, k)
	n, nf := newSeries(new, k)
	if !bf && !nf {
		return [2]*series{}
	}
	if !bf {
		b.typ, b.time = n.typ, n.time
	}
	if !nf {
		n.typ, n.time = b.typ, b.time
	}
	return [2]*series{b, n}
}

// hasRow reports whether a row has the --fail-on id.
func hasRow(rows []Row, id string) bool {
	for _, r := range rows {
		if rowID(r.Metric, r.Stat) == id {
			return true
		}
	}
	return false
}

// comparable checks that both sides have runs and, unless allowed, that
// every run is of the first run's test.
func comparable(base, new []*result.File, allowDifferent bool) error {
	if len(base) == 0 || len(new) == 0 {
		return fmt.Errorf("%w: each side needs at least one result file", ErrIncomparable)
	}
	if len(base)+len(new) > math.MaxUint16 {
		return fmt.Errorf("%w: more than %d runs", ErrIncomparable, math.MaxUint16)
	}
	if allowDifferent {
		return nil
	}
	first := base[0]
	for _, f := range append(append([]*result.File(nil), base[1:]...), new...) {
		if f.TestID != first.TestID {
			return fmt.Errorf("%w: %s is a result of another test than %s (the script, its scenarios or its thresholds differ); --allow-different compares them by metric name and tags",
				ErrIncomparable, pathOf(f), pathOf(first))
		}
	}
	return nil
}

// computeRow computes one row: the values, the bootstrap intervals and the
// verdict.
func computeRow(pr planned, b, n *series, opts Options, ths thresholdSet) Row {
	row := Row{
		Metric: pr.key.String(), Bucket: pr.key.bucket(), Type: b.typ, Stat: pr.stat.label,
		Unit: unitOf(b, pr.stat), BaseN: b.n(), NewN: n.n(), BaseRuns: b.runs(), NewRuns: n.runs(),
	}
	row.Base, row.New = pr.stat.value(b, ones(b.runs())), pr.stat.value(n, ones(n.runs()))
	row.Diff = row.New - row.Base
	row.Rel = relative(row.Diff, row.Base)
	if row.Base == 0 {
		row.Rel = math.NaN()
	}
	row.HigherIsWorse = higherIsWorse(pr.key, ths)
	diffs, rels := bootstrap(pr, b, n, opts)
	alpha := 1 - opts.Confidence
	row.Low, row.High = quantileSorted(diffs, alpha/2), quantileSorted(diffs, 1-alpha/2)
	row.RelLow, row.RelHigh = quantileSorted(rels, alpha/2), quantileSorted(rels, 1-alpha/2)
	row.Effect = opts.MinEffect.forRow(b.time || n.time)
	decide(&row)
	return row
}

// unitOf is a row's unit: ms for time trends, /s for a counter's rate.
func unitOf(s *series, st stat) string {
	switch {
	case s.time && (st.kind == statQuantile || st.kind == statMean):
		return "ms"
	case st.kind == statPerSecond:
		return "/s"
	}
	return ""
}

// bootstrap draws the replicates of the difference New − Base and of the
// relative difference, sorted. Each row has its own generator, seeded by
// the seed and the row's id, so a row's interval does not depend on the
// other rows.
func bootstrap(pr planned, b, n *series, opts Options) (diffs, rels []float64) {
	h := fnv.New64a()
	h.Write([]byte(pr.id()))
	rng := rand.New(rand.NewPCG(opts.Seed, h.Sum64()))
	diffs = make([]float64, opts.Resamples)
	rels = make([]float64, opts.Resamples)
	var wb, wn []int
	for i := range diffs {
		bv := pr.stat.replicate(rng, b, wb)
		nv := pr.stat.replicate(rng, n, wn)
		diffs[i] = nv - bv
		rels[i] = relative(diffs[i], bv)
	}
	sortFloats(diffs)
	sortFloats(rels)
	return diffs, rels
}

// relative is d/base; with base 0, +Inf or −Inf by the sign of d, 0 when d
// is 0 too.
func relative(d, base float64) float64 {
	switch {
	case base != 0:
		return d / base
	case d > 0:
		return math.Inf(1)
	case d < 0:
		return math.Inf(-1)
	}
	return 0
}

// paths returns the runs' file paths.
func paths(fs []*result.File) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = pathOf(f)
	}
	return out
}

// pathOf names a run in messages: its path, else its script.
func pathOf(f *result.File) string {
	if f.Path != "" {
		return f.Path
	}
	return "a result of " + f.Script
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
