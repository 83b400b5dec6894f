package options

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

// segmentValueRE matches the forms of one segment boundary: a fraction
// "1/3", a decimal "0.5" or ".5", optionally followed by "%". Exotic forms
// big.Rat would accept (exponents, hex) are refused, which also keeps
// parsing cheap on hostile input.
var segmentValueRE = regexp.MustCompile(`^(\d{1,18}/\d{1,18}|\d{1,18}(\.\d{0,18})?|\.\d{1,18})%?$`)

// parseSegmentValue reads one boundary exactly.
func parseSegmentValue(s string) (*big.Rat, error) {
	s = strings.TrimSpace(s)
	if !segmentValueRE.MatchString(s) {
		return nil, fmt.Errorf("invalid value %q: want a fraction (1/3), a decimal (0.5) or a percentage (50%%)", s)
	}
	percent := strings.HasSuffix(s, "%")
	r, ok := new(big.Rat).SetString(strings.TrimSuffix(s, "%"))
	if !ok {
		return nil, fmt.Errorf("invalid value %q", s)
	}
	if percent {
		r.Quo(r, big.NewRat(100, 1))
	}
	if r.Cmp(ratOne) > 0 {
		return nil, fmt.Errorf("value %q is more than 1", s)
	}
	return r, nil
}

var (
	ratZero = new(big.Rat)
	ratOne  = big.NewRat(1, 1)
)

// Segment is the part [From, To) of a test run that one instance executes,
// with 0 ≤ From < To ≤ 1. The zero Segment is the full run, 0:1.
type Segment struct {
	from, to *big.Rat // nil means 0 and 1
}

// ParseSegment reads an execution segment: "a:b", or "b" meaning "0:b",
// where each value is a fraction ("1/3"), a decimal ("0.5") or a percentage
// ("50%"), with 0 ≤ a < b ≤ 1. Values are kept exact.
func ParseSegment(s string) (Segment, error) {
	fromText, toText, ok := strings.Cut(s, ":")
	if !ok {
		fromText, toText = "0", s
	}
	from, err := parseSegmentValue(fromText)
	if err != nil {
		return Segment{}, fmt.Errorf("execution segment %q: %w", s, err)
	}
	to, err := parseSegmentValue(toText)
	if err != nil {
		return Segment{}, fmt.Errorf("execution segment %q: %w", s, err)
	}
	if from.Cmp(to) >= 0 {
		return Segment{}, fmt.Errorf("execution segment %q: the start must be less than the end", s)
	}
	return Segment{from: from, to: to}, nil
}

// From returns the segment's start as a new big.Rat.
func (s Segment) From() *big.Rat { return ratOr(s.from, ratZero) }

// To returns the segment's end as a new big.Rat.
func (s Segment) To() *big.Rat { return ratOr(s.to, ratOne) }

// Width returns To − From.
func (s Segment) Width() *big.Rat { return new(big.Rat).Sub(s.To(), s.From()) }

// IsFull reports whether the segment is the whole run, 0:1.
func (s Segment) IsFull() bool { return s.From().Sign() == 0 && s.To().Cmp(ratOne) == 0 }

// String renders the segment as "from:to" in lowest terms, e.g. "1/4:1/2".
func (s Segment) String() string { return s.From().RatString() + ":" + s.To().RatString() }

func ratOr(r, def *big.Rat) *big.Rat {
	if r == nil {
		r = def
	}
	return new(big.Rat).Set(r)
}

// Sequence is the ordered list of boundaries that cut a run into segments,
// from 0 to 1, strictly increasing. The zero Sequence means none was given.
type Sequence struct {
	points []*big.Rat
}

// ParseSequence reads an execution segment sequence: comma-separated
// values in the forms ParseSegment takes, strictly increasing within
// [0, 1], such as "0,1/4,1/2,1". 0 and 1 are added when missing.
func ParseSequence(s string) (Sequence, error) {
	parts := strings.Split(s, ",")
	points := make([]*big.Rat, 0, len(parts)+2)
	for _, part := range parts {
		r, err := parseSegmentValue(part)
		if err != nil {
			return Sequence{}, fmt.Errorf("execution segment sequence %q: %w", s, err)
		}
		if n := len(points); n > 0 && points[n-1].Cmp(r) >= 0 {
			return Sequence{}, fmt.Errorf("execution segment sequence %q: values must be strictly increasing", s)
		}
		points = append(points, r)
	}
	return newSequence(points), nil
}

// newSequence adds 0 and 1 around strictly increasing points if missing.
func newSequence(points []*big.Rat) Sequence {
	if len(points) == 0 || points[0].Sign() != 0 {
		points = append([]*big.Rat{new(big.Rat)}, points...)
	}
	if points[len(points)-1].Cmp(ratOne) != 0 {
		points = append(points, new(big.Rat).Set(ratOne))
	}
	return Sequence{points: points}
}

// IsZero reports whether no sequence was given.
func (q Sequence) IsZero() bool { return len(q.points) == 0 }

// Segments returns the consecutive segments of the sequence, in order.
func (q Sequence) Segments() []Segment {
	var out []Segment
	for i := 1; i < len(q.points); i++ {
		out = append(out, Segment{from: ratOr(q.points[i-1], nil), to: ratOr(q.points[i], nil)})
	}
	return out
}

// String renders the sequence as comma-separated values in lowest terms.
func (q Sequence) String() string {
	parts := make([]string, len(q.points))
	for i, p := range q.points {
		parts[i] = p.RatString()
	}
	return strings.Join(parts, ",")
}

// indexOf returns the position of seg among the sequence's segments.
func (q Sequence) indexOf(seg Segment) (int, error) {
	from, to := seg.From(), seg.To()
	for i := 1; i < len(q.points); i++ {
		if q.points[i-1].Cmp(from) == 0 && q.points[i].Cmp(to) == 0 {
			return i - 1, nil
		}
	}
	return 0, errors.New("segment " + seg.String() + " is not one of the segments of sequence " + q.String())
}
