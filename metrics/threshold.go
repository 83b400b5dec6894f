package metrics

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ThresholdConfig is one threshold as a script declares it: the expression
// and the object-form flags.
type ThresholdConfig struct {
	Source         string
	AbortOnFail    bool
	DelayAbortEval time.Duration
}

// Threshold is a parsed threshold expression bound to a metric.
type Threshold struct {
	ThresholdConfig
	// Stat is the aggregation the threshold reads ("p(95)" of
	// "p(95) < 1500"); Stat.String() is its canonical name.
	Stat Stat
	// Operator is one of "<=", "<", ">=", ">", "==", "!="; "===" is parsed
	// as "==".
	Operator string
	// Target is the number the aggregate is compared with, in the metric's
	// unit (milliseconds for time metrics).
	Target float64
	// LastValue is the aggregate read by the last evaluation.
	LastValue float64
	// Failed is true once the last evaluation did not pass.
	Failed bool
}

// thresholdOperators are tried in this order, so "<=" wins over "<" and
// "===" over "==", as in k6.
var thresholdOperators = []string{"<=", "<", ">=", ">", "===", "==", "!="}

// plainNumberRE matches a decimal number with an optional sign and exponent:
// no unit, no hexadecimal, no Inf or NaN.
var plainNumberRE = regexp.MustCompile(`^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)

// ParseThreshold parses cfg.Source, a k6 threshold expression
// "<aggregation> <operator> <number>" with optional spaces around each part.
// The returned threshold is not bound to a metric type yet; see Validate.
func ParseThreshold(cfg ThresholdConfig) (*Threshold, error) {
	src := cfg.Source
	op, at := "", -1
	for _, o := range thresholdOperators {
		if i := strings.Index(src, o); i >= 0 {
			op, at = o, i
			break
		}
	}
	if at < 0 {
		return nil, fmt.Errorf("threshold %q: no comparison operator; want <aggregation> <operator> <number> with one of <=, <, >=, >, ===, ==, !=", src)
	}
	left, right := strings.TrimSpace(src[:at]), strings.TrimSpace(src[at+len(op):])
	if left == "" {
		return nil, fmt.Errorf("threshold %q: missing aggregation before %q", src, op)
	}
	stat, err := parseThresholdStat(left)
	if err != nil {
		return nil, fmt.Errorf("threshold %q: %w", src, err)
	}
	if right == "" {
		return nil, fmt.Errorf("threshold %q: missing number after %q", src, op)
	}
	target, err := parsePlainNumber(right)
	if err != nil {
		return nil, fmt.Errorf("threshold %q: %w", src, err)
	}
	if op == "===" {
		op = "=="
	}
	return &Threshold{ThresholdConfig: cfg, Stat: stat, Operator: op, Target: target}, nil
}

// parseThresholdStat parses the aggregation of a threshold expression (see
// ParseStat): a stat some metric type allows in a threshold, so not "sum".
// As the expression allows spaces around its parts, it allows them inside
// the parentheses of a percentile too: "p( 95 )" is p(95).
func parseThresholdStat(s string) (Stat, error) {
	if inner, ok := strings.CutPrefix(s, "p("); ok {
		if inner, ok := strings.CutSuffix(inner, ")"); ok {
			s = "p(" + strings.TrimSpace(inner) + ")"
		}
	}
	stat, err := ParseStat(s)
	if err == nil && !stat.usedIn(InThreshold) {
		err = fmt.Errorf("%q is not a threshold aggregation; want avg, min, max, med, p(N), count, rate or value", s)
	}
	return stat, err
}

// parsePlainNumber parses a finite decimal number without a unit.
func parsePlainNumber(s string) (float64, error) {
	if !plainNumberRE.MatchString(s) {
		return 0, fmt.Errorf("invalid number %q; want a plain number without unit (times are in ms)", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, fmt.Errorf("number %q is out of range", s)
	}
	return v, nil
}

// Validate reports whether the threshold's aggregation applies to a metric
// of type typ: count and rate for a Counter, value for a Gauge, rate for a
// Rate, and avg, min, max, med and p(N) for a Trend (see InThreshold).
func (t *Threshold) Validate(typ MetricType) error {
	if err := t.Stat.ValidFor(typ, InThreshold); err != nil {
		return fmt.Errorf("threshold %q: %w", t.Source, err)
	}
	return nil
}

// Value returns the aggregate of m's sink the threshold reads (see
// Stat.Compute). elapsed is the test time so far, for the per-second rate of
// a Counter. An empty Trend reads 0 for every statistic. Value is NaN when
// the aggregation does not apply to the sink (see Validate).
func (t *Threshold) Value(m *Metric, elapsed time.Duration) float64 {
	v, ok := t.Stat.Compute(m.Sink, elapsed)
	if !ok {
		return math.NaN()
	}
	return v
}

// Eval compares the aggregate of m with the target, records the aggregate in
// LastValue, sets Failed to the opposite of the result and returns whether
// the threshold passed. A Rate with no samples passes, as in k6; a NaN
// aggregate fails.
func (t *Threshold) Eval(m *Metric, elapsed time.Duration) (pass bool) {
	v := t.Value(m, elapsed)
	t.LastValue = v
	if rs, ok := m.Sink.(*RateSink); ok && rs.Empty() {
		pass = true
	} else {
		pass = compare(v, t.Operator, t.Target)
	}
	t.Failed = !pass
	return pass
}

func compare(v float64, op string, target float64) bool {
	if math.IsNaN(v) {
		return false
	}
	switch op {
	case "<=":
		return v <= target
	case "<":
		return v < target
	case ">=":
		return v >= target
	case ">":
		return v > target
	case "==":
		return v == target
	case "!=":
		return v != target
	}
	return false
}

// pendingThresholds are the parsed thresholds of one configuration key,
// waiting to be attached once the whole configuration is known to be valid.
type pendingThresholds struct {
	parent     *Metric
	selector   string // "" for the metric itself
	thresholds []*Threshold
}

// ApplyThresholds parses and validates the thresholds of cfg, keyed by
// "name" or "name{k:v,k2:v2}", and appends them to the metrics of reg,
// creating the submetrics that selectors name. It returns every problem at
// once, joined with errors.Join, one line each, in the order of the sorted
// keys; on error no threshold is attached. Calling it twice attaches the
// thresholds twice.
func ApplyThresholds(reg *Registry, cfg map[string][]ThresholdConfig) error {
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs []error
	pending := make([]pendingThresholds, 0, len(keys))
	for _, key := range keys {
		p, kerrs := resolveThresholds(reg, key, cfg[key])
		errs = append(errs, kerrs...)
		pending = append(pending, p)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, p := range pending {
		m := p.parent
		if p.selector != "" {
			sub, err := reg.Submetric(p.parent, p.selector)
			if err != nil {
				return err
			}
			m = sub
		}
		m.Thresholds = append(m.Thresholds, p.thresholds...)
	}
	return nil
}

// resolveThresholds finds the metric a configuration key names and parses
// and validates its expressions, returning every problem found.
func resolveThresholds(reg *Registry, key string, cfgs []ThresholdConfig) (pendingThresholds, []error) {
	var errs []error
	name, sel, hasSel := strings.Cut(key, "{")
	name = strings.TrimSpace(name)
	p := pendingThresholds{}
	if hasSel {
		inner, ok := strings.CutSuffix(strings.TrimSpace(sel), "}")
		if _, err := ParseSelector(inner); !ok || err != nil {
			errs = append(errs, fmt.Errorf("threshold key %q: invalid submetric selector; want name{key:value,...}", key))
		}
		p.selector = inner
	}
	p.parent = knownMetric(reg, name)
	if p.parent == nil {
		errs = append(errs, fmt.Errorf("threshold on unknown metric %q", name))
	}
	for _, c := range cfgs {
		t, err := ParseThreshold(c)
		if err == nil && p.parent != nil {
			err = t.Validate(p.parent.Type)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("metric %q: %w", key, err))
			continue
		}
		p.thresholds = append(p.thresholds, t)
	}
	return p, errs
}

// EvalThresholds evaluates every threshold of every metric and submetric of
// reg at elapsed test time. failed is true when any threshold failed; abort
// is true when a failed threshold has AbortOnFail and either final is true or
// elapsed has reached its DelayAbortEval. The caller must hold the engine
// lock (Engine.Read) so the sinks do not change meanwhile.
func EvalThresholds(reg *Registry, elapsed time.Duration, final bool) (failed, abort bool) {
	eval := func(m *Metric) {
		for _, t := range m.Thresholds {
			if t.Eval(m, elapsed) {
				continue
			}
			failed = true
			if t.AbortOnFail && (final || elapsed >= t.DelayAbortEval) {
				abort = true
			}
		}
	}
	for _, m := range reg.All() {
		eval(m)
		for _, sub := range m.Submetrics {
			eval(sub.Metric)
		}
	}
	return failed, abort
}

// CrossedMetrics returns the names of the metrics and submetrics ("parent{k:v}")
// with a threshold that failed its last evaluation, sorted, as k6 names
// them in "thresholds on metrics '...' have been crossed".
func CrossedMetrics(reg *Registry) []string {
	var names []string
	add := func(m *Metric) {
		for _, t := range m.Thresholds {
			if t.Failed {
				names = append(names, m.Name)
				return
			}
		}
	}
	for _, m := range reg.All() {
		add(m)
		for _, sub := range m.Submetrics {
			add(sub.Metric)
		}
	}
	sort.Strings(names)
	return names
}
