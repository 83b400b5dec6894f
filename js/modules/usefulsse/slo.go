package usefulsse

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/sse"
)

// sloTimings are the timings an objective may bound, in the order of the
// result's timings, with how each is read from a result. schedule_lag is
// not one: it measures the load generator, not the service.
var sloTimings = []struct {
	name string
	of   func(*sse.Timings) *float64
}{
	{"queue", func(t *sse.Timings) *float64 { return t.Queue }},
	{"headers", func(t *sse.Timings) *float64 { return t.Headers }},
	{"first_event", func(t *sse.Timings) *float64 { return t.FirstEvent }},
	{"first_text", func(t *sse.Timings) *float64 { return t.FirstText }},
	{"useful", func(t *sse.Timings) *float64 { return t.Useful }},
	{"complete", func(t *sse.Timings) *float64 { return t.Complete }},
	{"max_gap", func(t *sse.Timings) *float64 { return t.MaxGap }},
}

// objective bounds one timing of a request's result.
type objective struct {
	// timing is the result's name of the timing: "useful".
	timing string
	// limit is the largest value, in ms, the timing may have.
	limit float64
	of    func(*sse.Timings) *float64
}

// objectives are a request's service-level objectives (the slo param), in
// the order of the result's timings; empty when it names none.
type objectives []objective

// parseObjectives reads the slo param, {<timing>: duration}: each key one of
// sloTimings, each duration a string ("2.5s", "800ms") or milliseconds,
// above zero. Every problem is reported, keys in sorted order.
func parseObjectives(v sobek.Value) (objectives, error) {
	m, ok := v.Export().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want an object {<timing>: duration}, e.g. {useful: '2.5s', first_text: '800ms'}")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	limits := map[string]float64{}
	var problems []string
	for _, k := range keys {
		if !isSLOTiming(k) {
			problems = append(problems, fmt.Sprintf("unknown timing %q (want one of %s)", k, sloTimingNames()))
			continue
		}
		ms, err := objectiveLimit(m[k])
		if err != nil {
			problems = append(problems, k+": "+err.Error())
			continue
		}
		limits[k] = ms
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	var out objectives
	for _, t := range sloTimings {
		if ms, ok := limits[t.name]; ok {
			out = append(out, objective{timing: t.name, limit: ms, of: t.of})
		}
	}
	return out, nil
}

// objectiveLimit reads one objective's duration, in ms: a duration string
// or a finite number of milliseconds, above zero.
func objectiveLimit(x any) (float64, error) {
	var ms float64
	switch d := x.(type) {
	case string:
		parsed, err := options.ParseDuration(d)
		if err != nil {
			return 0, err
		}
		ms = float64(parsed) / float64(time.Millisecond)
	case int64:
		ms = float64(d)
	case float64:
		ms = d
	default:
		return 0, fmt.Errorf("want a duration such as '2.5s' or a number of milliseconds, got %v", x)
	}
	if math.IsNaN(ms) || math.IsInf(ms, 0) || ms <= 0 {
		return 0, fmt.Errorf("want a duration above zero, got %v", x)
	}
	return ms, nil
}

func isSLOTiming(name string) bool {
	for _, t := range sloTimings {
		if t.name == name {
			return true
		}
	}
	return false
}

func sloTimingNames() string {
	names := make([]string, len(sloTimings))
	for i, t := range sloTimings {
		names[i] = t.name
	}
	return strings.Join(names, ", ")
}

// verdict says whether res met every objective: the request succeeded and
// each bounded timing was reached within its limit (a timing never reached
// misses its objective). It is nil when o names no objective, so a request
// without objectives counts neither as good nor as bad.
func (o objectives) verdict(res *sse.Result) *bool {
	if len(o) == 0 {
		return nil
	}
	good := !res.Failed()
	for _, obj := range o {
		if v := obj.of(&res.Timings); v == nil || *v > obj.limit {
			good = false
		}
	}
	return &good
}
