package aggregate

import (
	"fmt"
	"math/big"
	"net/http"
	"sort"
	"strings"

	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/result"
)

// owner is who a runner is known by: the id its posts carry (HeaderRunner)
// and the host they come from. A segment belongs to the first owner that
// posted it.
type owner struct {
	id, host string
}

// String names the owner in messages: its host and the start of its id.
func (o owner) String() string {
	id := o.id
	if len(id) > 8 {
		id = id[:8]
	}
	if id == "" {
		return "the runner at " + o.host
	}
	return "the runner at " + o.host + " (" + id + ")"
}

// segmentsOf parses the segments of a post, sorted by start; a result
// naming none, a malformed one, or two that overlap is refused.
func segmentsOf(f *result.File) ([]options.Segment, error) {
	if len(f.Segments) == 0 {
		return nil, fmt.Errorf("the result names no execution segment")
	}
	if len(f.Segments) > 1024 {
		return nil, fmt.Errorf("the result names %d execution segments", len(f.Segments))
	}
	segs := make([]options.Segment, 0, len(f.Segments))
	for _, s := range f.Segments {
		seg, err := options.ParseSegment(s)
		if err != nil {
			return nil, fmt.Errorf("execution segment %.40q: %v", s, err)
		}
		segs = append(segs, seg)
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].From().Cmp(segs[j].From()) < 0 })
	for i := 1; i < len(segs); i++ {
		if segs[i].From().Cmp(segs[i-1].To()) < 0 {
			return nil, fmt.Errorf("execution segments %s and %s overlap", segs[i-1], segs[i])
		}
	}
	return segs, nil
}

// segmentKey is how the aggregator files a result: its segments, sorted.
func segmentKey(segs []options.Segment) string {
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = s.String()
	}
	return strings.Join(out, ",")
}

// overlap returns a segment of a and one of b that share a part, if any.
func overlap(a, b []options.Segment) (options.Segment, options.Segment, bool) {
	for _, x := range a {
		for _, y := range b {
			if x.From().Cmp(y.To()) < 0 && y.From().Cmp(x.To()) < 0 {
				return x, y, true
			}
		}
	}
	return options.Segment{}, options.Segment{}, false
}

// claim checks that a post of o for the segments segs (filed under key) may
// be kept: the test and segment sequence are the first post's, the
// segments are o's own or nobody's (and overlap no other runner's), o
// files under one key only, it has not sent its final result yet, and with
// Config.Runners no more runners than that post. a.mu is held.
func (a *Aggregator) claim(o owner, key string, segs []options.Segment, f *result.File) *refusal {
	if a.testID != "" && f.TestID != a.testID {
		return &refusal{http.StatusConflict, "a result of another test than the aggregator's (the script, its scenarios or thresholds differ)"}
	}
	if f.Sequence != a.sequence && f.Sequence != "" && a.sequence != "" {
		return &refusal{http.StatusConflict, fmt.Sprintf("execution segment sequence %.80q, the test's is %q", f.Sequence, a.sequence)}
	}
	keys := a.keys()
	for _, k := range keys {
		if st := a.runners[k]; st.owner == o && k != key {
			return &refusal{http.StatusConflict, fmt.Sprintf("%s posted segment %s before, not %s", o, k, key)}
		}
	}
	if st := a.runners[key]; st != nil {
		switch {
		case st.owner != o:
			return &refusal{http.StatusConflict, fmt.Sprintf("segment %s belongs to %s, which posted it first", key, st.owner)}
		case st.final:
			return &refusal{http.StatusConflict, fmt.Sprintf("%s already sent its final result for segment %s", o, key)}
		}
		return nil
	}
	for _, k := range keys {
		st := a.runners[k]
		if x, y, ok := overlap(segs, st.segs); ok {
			return &refusal{http.StatusConflict, fmt.Sprintf("segment %s overlaps segment %s of %s, which posted it first", x, y, st.owner)}
		}
	}
	if a.cfg.Runners > 0 && len(a.runners) >= a.cfg.Runners {
		return &refusal{http.StatusConflict, fmt.Sprintf("%d runners (--runners) posted already; %s with segment %s is one too many", a.cfg.Runners, o, key)}
	}
	return nil
}

// missing returns the parts of the test, "from:to", no runner's segments
// cover; a.mu is held.
func (a *Aggregator) missing() []string {
	var all []options.Segment
	for _, st := range a.runners {
		all = append(all, st.segs...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].From().Cmp(all[j].From()) < 0 })
	var out []string
	at := new(big.Rat)
	for _, s := range all {
		if s.From().Cmp(at) > 0 {
			out = append(out, at.RatString()+":"+s.From().RatString())
		}
		if s.To().Cmp(at) > 0 {
			at = s.To()
		}
	}
	if at.Cmp(big.NewRat(1, 1)) < 0 {
		out = append(out, at.RatString()+":1")
	}
	return out
}
