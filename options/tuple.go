package options

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"sort"
)

// Limits on the striping table, so that hostile sequences fail fast
// instead of exhausting memory or time.
const (
	// maxPeriod bounds the period (LCM of the sequence's denominators);
	// the table costs about a quarter of a byte per slot.
	maxPeriod = 1 << 22
	// maxStripeWork bounds period × segments, the cost of building it.
	maxStripeWork = 1 << 26
)

// Tuple is an execution segment together with the sequence it belongs to.
// It assigns global indices (iterations or VU numbers, from 0) to the
// sequence's segments by striping: the assignment repeats with a period
// equal to the least common multiple of the boundaries' denominators, each
// segment owns exactly width × period slots of every period, and the slots
// of different segments are interleaved rather than in blocks. Slot s of a
// period goes to the segment picked at step s of smooth weighted round
// robin with weights width × period: at each step every segment's credit
// grows by its weight, the segment with most credit (the first on ties)
// takes the slot and pays back the period.
//
// The zero Tuple is the full segment 0:1: it owns every index and Scale(n)
// is n, with no per-index work.
type Tuple struct {
	segment  Segment
	sequence Sequence
	index    int      // the segment's position in the sequence
	period   int64    // 0 for the full segment
	share    int64    // slots owned per period
	owned    []uint64 // bit s set when slot s is owned
	ranks    []int64  // ranks[w] = owned slots in owned[:w]
}

// NewTuple pairs seg with seq. When seq is the zero Sequence, the sequence
// is 0, seg.From, seg.To, 1 without duplicates. Otherwise seg must be one
// of seq's segments. It fails if the period exceeds 4194304 slots.
func NewTuple(seg Segment, seq Sequence) (Tuple, error) {
	if seq.IsZero() {
		seq = newSequence(dedupe(seg.From(), seg.To()))
	}
	index, err := seq.indexOf(seg)
	if err != nil {
		return Tuple{}, err
	}
	t := Tuple{segment: seg, sequence: seq, index: index}
	if seg.IsFull() {
		return t, nil
	}
	return t, t.stripe()
}

// dedupe returns the points other than 0 and 1, which newSequence adds.
func dedupe(from, to *big.Rat) []*big.Rat {
	var out []*big.Rat
	for _, r := range []*big.Rat{from, to} {
		if r.Sign() != 0 && r.Cmp(ratOne) != 0 {
			out = append(out, r)
		}
	}
	return out
}

// stripe computes the period, the weights and the owned slots.
func (t *Tuple) stripe() error {
	period, err := lcmDenominators(t.sequence.points)
	if err != nil {
		return err
	}
	segs := t.sequence.Segments()
	if int64(len(segs)) > maxStripeWork/period {
		return fmt.Errorf("execution segment sequence %s has too many segments for its period %d", t.sequence, period)
	}
	weights := make([]int64, len(segs))
	for i, s := range segs {
		w := new(big.Rat).Mul(s.Width(), new(big.Rat).SetInt64(period))
		weights[i] = w.Num().Int64() // an integer: period is a multiple of every denominator
	}
	t.period, t.share = period, weights[t.index]
	t.owned = roundRobin(weights, period, t.index)
	t.ranks = rankWords(t.owned)
	return nil
}

// lcmDenominators returns the least common multiple of the points'
// denominators, failing beyond maxPeriod.
func lcmDenominators(points []*big.Rat) (int64, error) {
	l := big.NewInt(1)
	limit := big.NewInt(maxPeriod)
	for _, p := range points {
		d := p.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
		if l.Cmp(limit) > 0 {
			return 0, fmt.Errorf("execution segment sequence %s needs a period above %d; use coarser fractions",
				Sequence{points: points}, maxPeriod)
		}
	}
	return l.Int64(), nil
}

// roundRobin runs one period of smooth weighted round robin over weights
// (which sum to period) and returns the slots picked for segment j as a
// bitset.
func roundRobin(weights []int64, period int64, j int) []uint64 {
	owned := make([]uint64, (period+63)/64)
	credit := make([]int64, len(weights))
	for slot := range period {
		best := 0
		for k, w := range weights {
			credit[k] += w
			if credit[k] > credit[best] {
				best = k
			}
		}
		credit[best] -= period
		if best == j {
			owned[slot/64] |= 1 << (slot % 64)
		}
	}
	return owned
}

// rankWords returns the number of set bits before each word.
func rankWords(words []uint64) []int64 {
	ranks := make([]int64, len(words))
	var n int64
	for i, w := range words {
		ranks[i] = n
		n += int64(bits.OnesCount64(w))
	}
	return ranks
}

// Segment returns the tuple's segment.
func (t Tuple) Segment() Segment { return t.segment }

// Sequence returns the tuple's sequence, with 0 and 1 included; it is the
// zero Sequence for the zero Tuple.
func (t Tuple) Sequence() Sequence { return t.sequence }

// IsFull reports whether the tuple owns every index.
func (t Tuple) IsFull() bool { return t.period == 0 }

// Period returns the length of the striping cycle, 1 for the full segment.
func (t Tuple) Period() int64 { return max(t.period, 1) }

// Owns reports whether the global index i (an iteration or VU number,
// counted from 0) belongs to this tuple's segment. Negative indices belong
// to no segment. Of the tuples of one sequence exactly one owns each index.
func (t Tuple) Owns(i int64) bool {
	if i < 0 {
		return false
	}
	if t.period == 0 {
		return true
	}
	slot := i % t.period
	return t.owned[slot/64]&(1<<(slot%64)) != 0
}

// Scale returns how many of the global indices 0..n-1 the segment owns, so
// that the values of all segments of a sequence sum to n. n ≤ 0 gives 0.
func (t Tuple) Scale(n int64) int64 {
	switch {
	case n <= 0:
		return 0
	case t.period == 0:
		return n
	}
	return n/t.period*t.share + t.rank(n%t.period)
}

// rank counts the owned slots before slot r of a period.
func (t Tuple) rank(r int64) int64 {
	w, b := r/64, r%64
	if w == int64(len(t.owned)) {
		return t.share
	}
	return t.ranks[w] + int64(bits.OnesCount64(t.owned[w]&(1<<b-1)))
}

// String renders the tuple as "segment in sequence", e.g. "0:1/2 in 0,1/2,1".
func (t Tuple) String() string {
	if t.sequence.IsZero() {
		return Segment{}.String()
	}
	return t.segment.String() + " in " + t.sequence.String()
}

// ExecutionTuple parses ExecutionSegment and ExecutionSegmentSequence.
// An empty ExecutionSegment gives the full segment, whatever the sequence;
// otherwise the segment must be one of the sequence's segments. Errors are
// FieldErrors at executionSegment or executionSegmentSequence.
func (o Options) ExecutionTuple() (Tuple, error) {
	var seq Sequence
	var seqErr error
	if o.ExecutionSegmentSequence != "" {
		seq, seqErr = ParseSequence(o.ExecutionSegmentSequence)
		seqErr = at("executionSegmentSequence", seqErr)
	}
	if o.ExecutionSegment == "" {
		return Tuple{}, seqErr
	}
	seg, err := ParseSegment(o.ExecutionSegment)
	if err != nil || seqErr != nil {
		return Tuple{}, errors.Join(at("executionSegment", err), seqErr)
	}
	t, err := NewTuple(seg, seq)
	return t, at("executionSegment", err)
}

// ScaleScenario returns sc with its VU-based quantities scaled to the
// tuple's segment by Scale, as k6 does: vus, startVUs, preAllocatedVUs,
// maxVUs, the stage targets of ramping-vus and the iterations of
// shared-iterations. The iterations of per-vu-iterations stay per VU. The
// rates of the arrival-rate executors are not scaled: each instance keeps
// the global schedule and runs only the global iteration indices it Owns,
// so that together the instances run the global schedule exactly once.
// A segment may receive 0 of a quantity (1 VU split in two, say); its
// executor then has nothing to run, or, for an arrival-rate scenario left
// without VUs, drops the iterations it owns. externally-controlled keeps
// the whole test's counts: its executor scales them, and the counts the
// REST API sets later, itself.
func ScaleScenario(sc Scenario, t Tuple) Scenario {
	if sc.Executor == ExternallyControlled {
		return sc
	}
	return scaleCounts(sc, t)
}

// scaleCounts is ScaleScenario for every executor.
func scaleCounts(sc Scenario, t Tuple) Scenario {
	if t.IsFull() {
		return sc
	}
	sc.VUs, sc.StartVUs = t.Scale(sc.VUs), t.Scale(sc.StartVUs)
	sc.PreAllocatedVUs, sc.MaxVUs = t.Scale(sc.PreAllocatedVUs), t.Scale(sc.MaxVUs)
	if sc.Executor == SharedIterations {
		sc.Iterations = t.Scale(sc.Iterations)
	}
	if sc.Executor == RampingVUs {
		stages := make([]Stage, len(sc.Stages))
		for i, st := range sc.Stages {
			stages[i] = Stage{Duration: st.Duration, Target: t.Scale(st.Target)}
		}
		sc.Stages = stages
	}
	return sc
}

// Global returns the global index of the segment's local-th owned index
// (from 0): the inverse of counting owned indices, so that instance-local
// numbers (VU ids, iterations) map to numbers unique across the instances
// of a sequence. The full segment maps every index to itself; negative
// input gives -1, as does a segment that owns nothing.
func (t Tuple) Global(local int64) int64 {
	switch {
	case local < 0:
		return -1
	case t.period == 0:
		return local
	case t.share == 0:
		return -1
	}
	cycle, r := local/t.share, local%t.share
	// The word holding the r-th owned slot: the last word whose rank is ≤ r.
	w := sort.Search(len(t.ranks), func(i int) bool { return t.ranks[i] > r }) - 1
	word, left := t.owned[w], r-t.ranks[w]
	for ; left > 0; left-- {
		word &= word - 1 // drop the lowest owned slot
	}
	return cycle*t.period + int64(w)*64 + int64(bits.TrailingZeros64(word))
}
