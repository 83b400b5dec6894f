package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDroppedIterations: 10 iterations/s for 3 s, one VU busy 1 s per
// iteration. About 3 run and 27 are dropped; the maxVUs warning is logged
// once.
func TestDroppedIterations(t *testing.T) {
	out := filepath.Join(t.TempDir(), "export.json")
	r := run(t, "run", "-q", "--summary-export", out, script("dropped.js"))
	r.wantCode(t, 0)
	exp := export(t, out)
	if got := number(t, exp, "metrics", "dropped_iterations", "count"); got < 26 || got > 28 {
		t.Errorf("dropped_iterations = %v, want 26..28", got)
	}
	if got := number(t, exp, "metrics", "iterations", "count"); got < 2 || got > 4 {
		t.Errorf("iterations = %v, want 2..4", got)
	}
	if n := strings.Count(r.stderr, "WARN "); n != 1 || !strings.Contains(r.stderr, "maxVUs") {
		t.Errorf("want the maxVUs warning once, got %d warnings:\n%s", n, r.stderr)
	}
}

// TestInterruptedIterationsNotCounted: an iteration cut off by the end of
// gracefulStop or by an abort emits no iterations sample.
func TestInterruptedIterationsNotCounted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		script   string
		env      []string
		wantCode int
		metric   string
		want     float64
		// runs repeats the run, for failures that are races.
		runs int
	}{
		{name: "completes within gracefulStop", script: "interrupted.js", env: []string{"GRACEFUL_STOP=1s"},
			metric: "iterations", want: 2, runs: 1},
		{name: "interrupted when gracefulStop expires", script: "interrupted.js", env: []string{"GRACEFUL_STOP=0s"},
			metric: "iterations", want: 1, runs: 4},
		{name: "interrupted by test.abort()", script: "abort_interrupts.js", wantCode: 108,
			metric: "iterations{scenario:sleeper}", want: 0, runs: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for i := range tt.runs {
				t.Run(fmt.Sprintf("run %d", i), func(t *testing.T) {
					t.Parallel()
					out := filepath.Join(t.TempDir(), "export.json")
					r := invocation{args: []string{"run", "-q", "--summary-export", out, script(tt.script)}, env: tt.env}.run(t)
					r.wantCode(t, tt.wantCode)
					if got := number(t, export(t, out), "metrics", tt.metric, "count"); got != tt.want {
						t.Errorf("%s = %v, want %v", tt.metric, got, tt.want)
					}
				})
			}
		})
	}
}

// segmentScripts are scenarios whose iterations can be split exactly.
var segmentScripts = []struct {
	name, script string
	total        int
}{
	{"constant-arrival-rate", "segments/constant_arrival_rate.js", 30},
	{"shared-iterations", "segments/shared_iterations.js", 31},
	{"per-vu-iterations", "segments/per_vu_iterations.js", 20},
}

var segments = []string{"0:1/3", "1/3:2/3", "2/3:1"}

const sequence = "0,1/3,2/3,1"

// segmentRun is one instance's share of a segmented test.
type segmentRun struct {
	iterations float64
	iterIDs    []int // exec.scenario.iterationInTest of every iteration
	vuIDs      []int // exec.vu.idInTest of every iteration
}

// runSegment runs script with segment ("" for the whole test).
func runSegment(t *testing.T, name, segment string) segmentRun {
	t.Helper()
	out := filepath.Join(t.TempDir(), "export.json")
	args := []string{"run", "-q", "--no-summary", "--summary-export", out}
	if segment != "" {
		args = append(args, "--execution-segment", segment, "--execution-segment-sequence", sequence)
	}
	r := run(t, append(args, script(name))...)
	r.wantCode(t, 0)
	var s segmentRun
	s.iterations = number(t, export(t, out), "metrics", "iterations", "count")
	for _, m := range regexp.MustCompile(`iit=(\d+) vu=(\d+)`).FindAllStringSubmatch(r.stderr, -1) {
		it, _ := strconv.Atoi(m[1])
		vu, _ := strconv.Atoi(m[2])
		s.iterIDs, s.vuIDs = append(s.iterIDs, it), append(s.vuIDs, vu)
	}
	return s
}

// runSegments runs the whole test and its three segments concurrently,
// as parallel subtests of one group.
func runSegments(t *testing.T, name string) (whole segmentRun, parts []segmentRun) {
	t.Helper()
	parts = make([]segmentRun, len(segments))
	t.Run("runs", func(t *testing.T) {
		t.Run("whole", func(t *testing.T) {
			t.Parallel()
			whole = runSegment(t, name, "")
		})
		for i, seg := range segments {
			t.Run(seg, func(t *testing.T) {
				t.Parallel()
				parts[i] = runSegment(t, name, seg)
			})
		}
	})
	return whole, parts
}

// TestExecutionSegments runs each scenario whole and as three segments of
// the sequence 0,1/3,2/3,1: the segments' iterations sum exactly to the
// whole, and test-wide identifiers stay unique across instances.
func TestExecutionSegments(t *testing.T) {
	t.Parallel()
	for _, tt := range segmentScripts {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			whole, parts := runSegments(t, tt.script)
			if whole.iterations != float64(tt.total) {
				t.Errorf("whole test: iterations = %v, want %d", whole.iterations, tt.total)
			}
			var sum float64
			var iterIDs []int
			for i, p := range parts {
				sum += p.iterations
				iterIDs = append(iterIDs, p.iterIDs...)
				if p.iterations == 0 {
					t.Errorf("segment %s ran no iteration", segments[i])
				}
			}
			if sum != whole.iterations {
				t.Errorf("segments' iterations sum to %v, want %v (the whole test)", sum, whole.iterations)
			}
			t.Run("iterationInTest unique across instances", func(t *testing.T) {
				slices.Sort(iterIDs)
				want := make([]int, tt.total)
				for i := range want {
					want[i] = i
				}
				if !slices.Equal(iterIDs, want) {
					t.Errorf("iterationInTest over all segments = %v, want 0..%d once each", iterIDs, tt.total-1)
				}
			})
			t.Run("vu.idInTest unique across instances", func(t *testing.T) {
				owner := map[int]int{}
				for i, p := range parts {
					for _, vu := range p.vuIDs {
						if other, dup := owner[vu]; dup && other != i {
							t.Errorf("exec.vu.idInTest %d used by segments %s and %s", vu, segments[other], segments[i])
						}
						owner[vu] = i
					}
				}
			})
		})
	}
}
