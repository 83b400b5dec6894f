package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/executor"
)

// poissonDue is the number of iterations arrival/poisson.js has due with
// poisson arrivals of the seed: computed from the schedule's pure function,
// which the runs must follow exactly.
func poissonDue(seed int64) float64 {
	a := executor.NewArrivals(1, executor.ArrivalSeed(seed, "arrivals"))
	n := int64(0)
	for a.ConstantAt(n, 50, time.Second) < 3*time.Second {
		n++
	}
	return float64(n)
}

// arrivalRun is what one run of arrival/poisson.js (or a merge) exported.
type arrivalRun struct {
	iterations, dropped, iitSum, lagCount float64
}

func readArrivalRun(t *testing.T, path string) arrivalRun {
	t.Helper()
	m := export(t, path)
	r := arrivalRun{iterations: number(t, m, "metrics", "iterations", "count")}
	if v, ok := lookup(m, "metrics", "dropped_iterations", "count"); ok {
		r.dropped = v.(float64)
	}
	r.iitSum = number(t, m, "metrics", "iit", "avg") * number(t, m, "metrics", "iit", "count")
	r.lagCount = number(t, m, "metrics", "schedule_lag", "count")
	return r
}

// TestArrivalPoissonSegmentsMerge runs a 3 s poisson scenario at 50/s once
// whole and once per segment of 0,1/3,2/3,1, concurrently: every run
// follows the seeded schedule exactly (started + dropped = the iterations
// the pure schedule has due, not the 150 of the regular schedule), each
// iteration has its schedule_lag, and `usefullatency merge` of the three
// segments gives the whole run's iteration count and the same global
// indices (0 + 1 + … + n−1).
func TestArrivalPoissonSegmentsMerge(t *testing.T) {
	t.Parallel()
	due := poissonDue(0)
	if due == 150 {
		t.Fatal("the poisson schedule has exactly the regular schedule's 150 iterations: the test cannot tell them apart")
	}
	dir := t.TempDir()
	var whole result
	files := make([]string, len(segments))
	t.Run("runs", func(t *testing.T) {
		t.Run("whole", func(t *testing.T) {
			t.Parallel()
			whole = run(t, "run", "--no-summary", "--summary-trend-stats", "count,avg,min,max",
				"--summary-export", filepath.Join(dir, "whole.json"), script("arrival/poisson.js"))
			whole.wantCode(t, 0)
		})
		for i, seg := range segments {
			files[i] = filepath.Join(dir, "share"+string(rune('0'+i))+".res")
			t.Run(seg, func(t *testing.T) {
				t.Parallel()
				run(t, "run", "-q", "--no-summary", "--execution-segment", seg, "--execution-segment-sequence", sequence,
					"-o", "result="+files[i], script("arrival/poisson.js")).wantCode(t, 0)
			})
		}
	})
	if t.Failed() {
		return
	}
	if want := "50.00 iterations/s poisson (seed 0) for 3s"; !strings.Contains(whole.stderr, want) {
		t.Errorf("banner lacks %q:\n%s", want, whole.stderr)
	}
	one := readArrivalRun(t, filepath.Join(dir, "whole.json"))
	mergedPath := filepath.Join(dir, "merged.json")
	run(t, append([]string{"merge", "--no-summary", "--summary-trend-stats", "count,avg,min,max", "--summary-export", mergedPath}, files...)...).wantCode(t, 0)
	merged := readArrivalRun(t, mergedPath)
	for name, r := range map[string]arrivalRun{"whole run": one, "merge of the segments": merged} {
		if r.iterations+r.dropped != due {
			t.Errorf("%s: %v iterations + %v dropped, want the %v the seeded schedule has due", name, r.iterations, r.dropped, due)
		}
		if r.lagCount != r.iterations {
			t.Errorf("%s: %v schedule_lag samples for %v iterations", name, r.lagCount, r.iterations)
		}
	}
	if one.dropped > 0 || merged.dropped > 0 {
		t.Logf("the loaded machine dropped iterations (whole %v, segments %v): counts compared with the drops", one.dropped, merged.dropped)
		return
	}
	if merged.iterations != one.iterations {
		t.Errorf("merged segments ran %v iterations, one process %v", merged.iterations, one.iterations)
	}
	if n := one.iterations; one.iitSum != n*(n-1)/2 || merged.iitSum != one.iitSum {
		t.Errorf("sum of iterationInTest: whole %v, merged %v; want %v (each index once)", one.iitSum, merged.iitSum, n*(n-1)/2)
	}
}

// TestArrivalOptionsInspectAndErrors: inspect shows the arrival options;
// an unknown arrival, burstiness without gamma or out of range and a
// fractional seed exit 104 with one line naming the option, before any
// iteration.
func TestArrivalOptionsInspectAndErrors(t *testing.T) {
	t.Parallel()
	r := invocation{env: []string{"ARRIVAL=gamma", "BURSTINESS=0.25", "SEED=7"}, args: []string{"inspect", script("arrival/poisson.js")}}.run(t)
	r.wantCode(t, 0)
	var view struct {
		Scenarios map[string]map[string]any `json:"scenarios"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &view); err != nil {
		t.Fatalf("inspect output: %v\n%s", err, r.stdout)
	}
	if sc := view.Scenarios["arrivals"]; sc["arrival"] != "gamma" || sc["burstiness"] != 0.25 || sc["arrivalSeed"] != 7.0 {
		t.Errorf("inspect shows %v, want arrival gamma, burstiness 0.25, arrivalSeed 7", sc)
	}
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"ARRIVAL=uniform"}, `scenarios.arrivals.arrival: unknown arrival process "uniform": want one of constant, poisson, gamma`},
		{[]string{"BURSTINESS=2"}, "scenarios.arrivals.burstiness: only applies to arrival: 'gamma'"},
		{[]string{"ARRIVAL=gamma", "BURSTINESS=0"}, "scenarios.arrivals.burstiness: 0 is out of range"},
		{[]string{"SEED=1.5"}, "scenarios.arrivals.arrivalSeed: 1.5 is not an integer"},
	} {
		r := invocation{env: tc.env, args: []string{"run", "-q", script("arrival/poisson.js")}}.run(t)
		r.wantCode(t, 104)
		if line := r.errorLine(t); !strings.Contains(line, tc.want) {
			t.Errorf("%v: error line %q, want it to contain %q", tc.env, line, tc.want)
		}
		if r.elapsed > 10*time.Second {
			t.Errorf("%v: refused after %s, want before the scenario ran", tc.env, r.elapsed)
		}
	}
}
