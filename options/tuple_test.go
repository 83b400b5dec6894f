package options

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// tuplesOf returns one tuple per segment of the sequence.
func tuplesOf(t *testing.T, sequence string) []Tuple {
	t.Helper()
	seq, err := ParseSequence(sequence)
	if err != nil {
		t.Fatal(err)
	}
	var out []Tuple
	for _, seg := range seq.Segments() {
		tu, err := NewTuple(seg, seq)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tu)
	}
	return out
}

var testSequences = []string{"0,1/3,2/3,1", "0,1/4,1/2,1", "0,0.3,1", "0,1/2,1", "0,1/7,3/5,0.61,1", "0,1"}

func TestTupleOwnershipPartitions(t *testing.T) {
	for _, sequence := range testSequences {
		t.Run(sequence, func(t *testing.T) {
			tuples := tuplesOf(t, sequence)
			for i := range int64(1000) {
				owners := 0
				for _, tu := range tuples {
					if tu.Owns(i) {
						owners++
					}
				}
				if owners != 1 {
					t.Fatalf("index %d has %d owners", i, owners)
				}
			}
		})
	}
}

func TestTupleScaleSumsAndCounts(t *testing.T) {
	for _, sequence := range testSequences {
		t.Run(sequence, func(t *testing.T) {
			tuples := tuplesOf(t, sequence)
			for _, tu := range tuples {
				var owned int64
				for n := range int64(500) {
					if got := tu.Scale(n); got != owned {
						t.Fatalf("%v: Scale(%d) = %d, counted %d", tu, n, got, owned)
					}
					if tu.Owns(n) {
						owned++
					}
				}
			}
			for _, n := range []int64{0, 1, 2, 3, 7, 10, 99, 1000, 123457, 1 << 40} {
				var sum int64
				for _, tu := range tuples {
					sum += tu.Scale(n)
				}
				if sum != n {
					t.Fatalf("Scale(%d) sums to %d", n, sum)
				}
			}
		})
	}
}

func TestTupleShareIsExactPerPeriod(t *testing.T) {
	tuples := tuplesOf(t, "0,0.3,1")
	if p := tuples[0].Period(); p != 10 {
		t.Fatalf("period = %d, want 10", p)
	}
	if a, b := tuples[0].Scale(10), tuples[1].Scale(10); a != 3 || b != 7 {
		t.Fatalf("Scale(10) = %d, %d; want 3, 7", a, b)
	}
	if a := tuples[0].Scale(1000); a != 300 {
		t.Fatalf("Scale(1000) = %d, want 300", a)
	}
}

func TestTupleStripes(t *testing.T) {
	tests := []struct {
		name, sequence string
		want           string // owner of indices 0.., one digit per index
	}{
		{"halves alternate", "0,1/2,1", "0101010101"},
		{"thirds rotate", "0,1/3,2/3,1", "012012012"},
		{"quarter, quarter, half interleave", "0,1/4,1/2,1", "20122012"},
		{"thirty seventy interleave", "0,0.3,1", "1011011101"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tuples := tuplesOf(t, tt.sequence)
			var got strings.Builder
			for i := range int64(len(tt.want)) {
				for j, tu := range tuples {
					if tu.Owns(i) {
						got.WriteByte(byte('0' + j))
					}
				}
			}
			if got.String() != tt.want {
				t.Fatalf("owners = %s, want %s", got.String(), tt.want)
			}
		})
	}
}

func TestFullTuple(t *testing.T) {
	var zero Tuple
	full, err := NewTuple(Segment{}, Sequence{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tu := range []Tuple{zero, full} {
		if !tu.IsFull() || !tu.Owns(0) || !tu.Owns(1<<62) || tu.Owns(-1) {
			t.Fatalf("%v: full tuple ownership wrong", tu)
		}
		if tu.Scale(1<<62) != 1<<62 || tu.Scale(-5) != 0 || tu.Period() != 1 {
			t.Fatalf("%v: full tuple scale wrong", tu)
		}
	}
}

func TestNewTupleWithoutSequence(t *testing.T) {
	seg, _ := ParseSegment("1/3:2/3")
	tu, err := NewTuple(seg, Sequence{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tu.Sequence().String(); got != "0,1/3,2/3,1" {
		t.Fatalf("sequence = %s", got)
	}
	if tu.Scale(3) != 1 || tu.Scale(30) != 10 {
		t.Fatalf("Scale(3), Scale(30) = %d, %d", tu.Scale(3), tu.Scale(30))
	}
	seg, _ = ParseSegment("0:1/2")
	if tu, _ = NewTuple(seg, Sequence{}); tu.Sequence().String() != "0,1/2,1" {
		t.Fatalf("sequence = %s", tu.Sequence())
	}
}

func TestNewTupleErrors(t *testing.T) {
	tests := []struct {
		name, segment, sequence, want string
	}{
		{"segment not in sequence", "1/3:2/3", "0,1/4,1/2,1", "not one of the segments"},
		{"segment spans two", "0:1/2", "0,1/4,1/2,1", "not one of the segments"},
		{"full with finer sequence", "0:1", "0,1/2,1", "not one of the segments"},
		{"period too large", "0:1/4194305", "", "period above"},
		{"largest period", "0:1/4194304", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seg, err := ParseSegment(tt.segment)
			if err != nil {
				t.Fatal(err)
			}
			var seq Sequence
			if tt.sequence != "" {
				if seq, err = ParseSequence(tt.sequence); err != nil {
					t.Fatal(err)
				}
			}
			_, err = NewTuple(seg, seq)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("NewTuple error = %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewTuple error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestNewTupleTooManySegments(t *testing.T) {
	points := []string{"0"}
	for i := 1; i <= 80; i++ {
		points = append(points, fmt.Sprintf("%d/1048576", i))
	}
	seq, err := ParseSequence(strings.Join(points, ","))
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewTuple(seq.Segments()[0], seq)
	if err == nil || !strings.Contains(err.Error(), "too many segments") {
		t.Fatalf("NewTuple error = %v", err)
	}
}

func TestExecutionTuple(t *testing.T) {
	tests := []struct {
		name, segment, sequence string
		want                    string
		wantErrs                []string
	}{
		{"unset is full", "", "", "0:1", nil},
		{"sequence alone is full", "", "0,1/2,1", "0:1", nil},
		{"segment in sequence", "1/2:1", "0,1/2,1", "1/2:1 in 0,1/2,1", nil},
		{"segment alone", "25%", "", "0:1/4 in 0,1/4,1", nil},
		{"not in sequence", "0:1/3", "0,1/2,1", "", []string{"executionSegment: segment 0:1/3 is not one"}},
		{"both invalid", "x", "y", "", []string{"executionSegment: execution segment", "executionSegmentSequence:"}},
		{"bad sequence alone", "", "1,0", "", []string{"executionSegmentSequence: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tu, err := Options{ExecutionSegment: tt.segment, ExecutionSegmentSequence: tt.sequence}.ExecutionTuple()
			checkErrors(t, err, tt.wantErrs...)
			if err == nil && tu.String() != tt.want {
				t.Fatalf("tuple = %s, want %s", tu, tt.want)
			}
		})
	}
}

func TestScaleScenario(t *testing.T) {
	tuples := tuplesOf(t, "0,1/3,2/3,1")
	ramp := NewScenario("ramp", RampingVUs)
	ramp.StartVUs, ramp.Stages = 4, []Stage{{Duration(time.Minute), 10}, {Duration(time.Minute), 0}}
	shared := NewScenario("shared", SharedIterations)
	shared.VUs, shared.Iterations = 5, 100
	perVU := NewScenario("pervu", PerVUIterations)
	perVU.VUs, perVU.Iterations = 5, 7
	arrival := NewScenario("arrival", ConstantArrivalRate)
	arrival.Rate, arrival.PreAllocatedVUs, arrival.MaxVUs = 30, 10, 20

	var sums [8]int64
	for _, tu := range tuples {
		r, s, p, a := ScaleScenario(ramp, tu), ScaleScenario(shared, tu), ScaleScenario(perVU, tu), ScaleScenario(arrival, tu)
		for i, v := range []int64{r.StartVUs, r.Stages[0].Target, s.VUs, s.Iterations, p.VUs, a.PreAllocatedVUs, a.MaxVUs} {
			sums[i] += v
		}
		if p.Iterations != 7 || a.Rate != 30 || r.Stages[0].Duration != Duration(time.Minute) {
			t.Fatalf("%v: per-VU iterations, rates and stage durations must not be scaled: %+v %+v", tu, p, a)
		}
	}
	if want := [8]int64{4, 10, 5, 100, 5, 10, 20, 0}; sums != want {
		t.Fatalf("scaled sums = %v, want %v", sums, want)
	}
	if ramp.Stages[0].Target != 10 {
		t.Fatal("ScaleScenario modified the caller's stages")
	}
	if got := ScaleScenario(shared, Tuple{}); got.VUs != 5 || got.Iterations != 100 {
		t.Fatalf("full tuple changed the scenario: %+v", got)
	}
}

func TestRoundRobinCounts(t *testing.T) {
	weights := []int64{3, 5, 2, 10}
	var counts []int
	for j := range weights {
		n := 0
		for _, w := range roundRobin(weights, 20, j) {
			n += popcount(w)
		}
		counts = append(counts, n)
	}
	if !slices.Equal(counts, []int{3, 5, 2, 10}) {
		t.Fatalf("counts = %v", counts)
	}
}

func popcount(w uint64) int {
	n := 0
	for ; w != 0; w &= w - 1 {
		n++
	}
	return n
}

func TestTupleGlobalInvertsOwnership(t *testing.T) {
	for _, seqText := range []string{"0,1/3,2/3,1", "0,1/4,1/2,1", "0,0.3,1", "0,1/7,1"} {
		seq, err := ParseSequence(seqText)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]bool{}
		for _, seg := range seq.Segments() {
			tup, err := NewTuple(seg, seq)
			if err != nil {
				t.Fatal(err)
			}
			var local int64
			for g := int64(0); g < 500; g++ {
				if !tup.Owns(g) {
					continue
				}
				if got := tup.Global(local); got != g {
					t.Fatalf("%s %s: Global(%d) = %d, want %d", seqText, seg, local, got, g)
				}
				if seen[g] {
					t.Fatalf("%s: %d owned twice", seqText, g)
				}
				seen[g] = true
				local++
			}
		}
		if len(seen) != 500 {
			t.Fatalf("%s: %d of 500 indices owned", seqText, len(seen))
		}
	}
	if (Tuple{}).Global(42) != 42 {
		t.Fatal("the full segment maps indices to themselves")
	}
}
