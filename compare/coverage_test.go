package compare

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/usefullatency/usefullatency/result"
)

// compareLat compares metric "lat" of two one-run sides.
func compareLat(t *testing.T, base, new []float64, opts Options) map[string]Row {
	t.Helper()
	opts.Metrics = []string{"lat"}
	r, err := Compare([]*result.File{run(trend("lat", base))}, []*result.File{run(trend("lat", new))}, opts)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]Row{}
	for _, row := range r.Rows {
		rows[row.Stat] = row
	}
	return rows
}

// TestCoverageIdenticalSides checks the intervals' coverage: two samples
// of one law, 200 seeded repetitions, and the 95 % interval of the
// difference must hold zero in about 95 % of them (90–99 %) for the
// median, p(95) and the mean (resampled exactly at this size).
func TestCoverageIdenticalSides(t *testing.T) {
	const reps, n = 200, 500
	held := map[string]int{}
	for rep := range reps {
		rng := rand.New(rand.NewPCG(uint64(rep), 100))
		rows := compareLat(t, lognormal(rng, n, 1000, 0.5, 1), lognormal(rng, n, 1000, 0.5, 1),
			Options{Resamples: 1000, Seed: uint64(rep) + 1})
		for stat, row := range rows {
			if row.Low <= 0 && 0 <= row.High {
				held[stat]++
			}
			if row.RelLow > 0 || row.RelHigh < 0 {
				if row.Low <= 0 && 0 <= row.High {
					t.Errorf("rep %d %s: the relative interval [%v, %v] and the absolute one [%v, %v] disagree on zero", rep, stat, row.RelLow, row.RelHigh, row.Low, row.High)
				}
			}
		}
	}
	for _, stat := range []string{"p(50)", "p(95)", "avg"} {
		cover := float64(held[stat]) / reps
		t.Logf("%s: zero held in %.1f%% of %d repetitions", stat, 100*cover, reps)
		if cover < 0.90 || cover > 0.99 {
			t.Errorf("%s: the 95%% interval held zero in %.1f%% of %d repetitions, want 90–99%%", stat, 100*cover, reps)
		}
	}
	t.Logf("p(99): zero held in %.1f%% (a tail percentile of %d values: the bootstrap is known to undercover)", 100*float64(held["p(99)"])/reps, n)
}

// TestKnownShiftRegresses checks that a 10 % slowdown of every request is
// called a regression beyond 5 %, with the interval of the relative
// difference covering 10 % in most repetitions.
func TestKnownShiftRegresses(t *testing.T) {
	const reps, n = 50, 20000 // above exactMeanUpTo: avg by the normal approximation
	regressed, covered := map[string]int{}, map[string]int{}
	for rep := range reps {
		rng := rand.New(rand.NewPCG(uint64(rep), 200))
		rows := compareLat(t, lognormal(rng, n, 1000, 0.5, 1), lognormal(rng, n, 1000, 0.5, 1.1),
			Options{Resamples: 1000, Seed: uint64(rep) + 1})
		for stat, row := range rows {
			if row.Verdict == Regressed {
				regressed[stat]++
			}
			if row.RelLow <= 0.1 && 0.1 <= row.RelHigh {
				covered[stat]++
			}
		}
	}
	for _, stat := range []string{"p(50)", "p(95)", "avg"} {
		t.Logf("%s: regressed in %d, covered 10%% in %d of %d", stat, regressed[stat], covered[stat], reps)
		if regressed[stat] < reps*9/10 {
			t.Errorf("%s: regressed in %d of %d repetitions, want at least 90%%", stat, regressed[stat], reps)
		}
		if covered[stat] < reps*85/100 {
			t.Errorf("%s: the interval covered the 10%% shift in %d of %d repetitions, want at least 85%%", stat, covered[stat], reps)
		}
	}
}

// TestSmallSamplesUndecided checks that 20 requests a side cannot decide a
// 10 % shift: in most of 20 seeded repetitions no clear change, undecided,
// and every undecided row names more requests than there are to decide
// it.
func TestSmallSamplesUndecided(t *testing.T) {
	const reps = 20
	undecided := map[string]int{}
	for rep := range reps {
		rng := rand.New(rand.NewPCG(uint64(rep), 300))
		rows := compareLat(t, lognormal(rng, 20, 1000, 0.5, 1), lognormal(rng, 20, 1000, 0.5, 1.1), Options{Seed: uint64(rep) + 1})
		for stat, row := range rows {
			if !row.Undecided {
				continue
			}
			undecided[stat]++
			if row.Verdict != NoChange {
				t.Errorf("rep %d %s: undecided with verdict %q", rep, stat, row.Verdict)
			}
			if row.NeedRequests <= 20 {
				t.Errorf("rep %d %s: %d requests would decide it; want more than the 20 there are", rep, stat, row.NeedRequests)
			}
		}
	}
	for _, stat := range []string{"p(50)", "p(95)", "p(99)", "avg"} {
		if undecided[stat] < reps*8/10 {
			t.Errorf("%s: undecided in %d of %d repetitions of 20 requests, want most", stat, undecided[stat], reps)
		}
	}
}

// TestNeedRequestsDecides checks the estimate of the requests that decide
// a row: running that many on the same laws decides it in most cases.
func TestNeedRequestsDecides(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 300))
	row := compareLat(t, lognormal(rng, 200, 1000, 0.5, 1), lognormal(rng, 200, 1000, 0.5, 1.12), Options{})["p(50)"]
	if !row.Undecided || row.NeedRequests <= 200 {
		t.Fatalf("200 requests a side: undecided %v, need %d; want undecided with more than 200", row.Undecided, row.NeedRequests)
	}
	decided := 0
	for rep := range 10 {
		rng := rand.New(rand.NewPCG(uint64(rep), 301))
		n := row.NeedRequests
		again := compareLat(t, lognormal(rng, n, 1000, 0.5, 1), lognormal(rng, n, 1000, 0.5, 1.12), Options{Seed: uint64(rep) + 1, Resamples: 500})["p(50)"]
		if !again.Undecided {
			decided++
		}
	}
	t.Logf("%d requests a side decided a 12%% shift of the median in %d of 10 repetitions", row.NeedRequests, decided)
	if decided < 7 {
		t.Errorf("%d requests a side decided the row in %d of 10 repetitions, want most", row.NeedRequests, decided)
	}
}

// TestRepeatsCountRunToRunNoise checks that a side of several runs that
// disagree with each other gets a wider interval than the same values
// taken as one run: the runs are resampled too.
func TestRepeatsCountRunToRunNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 400))
	var baseRuns, newRuns []*result.File
	var baseAll, newAll []float64
	for i := range 5 {
		offset := 1 + 0.15*math.Sin(float64(i)*2.1) // runs differ by up to ±15 %
		b := lognormal(rng, 2000, 1000, 0.5, offset)
		n := lognormal(rng, 2000, 1000, 0.5, offset)
		baseRuns, newRuns = append(baseRuns, run(trend("lat", b))), append(newRuns, run(trend("lat", n)))
		baseAll, newAll = append(baseAll, b...), append(newAll, n...)
	}
	r, err := Compare(baseRuns, newRuns, Options{Metrics: []string{"lat"}})
	if err != nil {
		t.Fatal(err)
	}
	pooled := compareLat(t, baseAll, newAll, Options{})
	for _, row := range r.Rows {
		if row.BaseRuns != 5 || row.NewRuns != 5 || row.BaseN != 10000 {
			t.Errorf("%s: runs %d/%d, values %d; want 5 runs of 2000", row.Stat, row.BaseRuns, row.NewRuns, row.BaseN)
		}
		one := pooled[row.Stat]
		if !near(row.Base, one.Base) || !near(row.New, one.New) {
			t.Errorf("%s: pooled value %v/%v of the runs differs from the merged values' %v/%v", row.Stat, row.Base, row.New, one.Base, one.New)
		}
		if w, w1 := row.High-row.Low, one.High-one.Low; w < 1.5*w1 {
			t.Errorf("%s: the interval over 5 disagreeing runs is %v wide, as one run's %v; want wider", row.Stat, w, w1)
		}
	}
}

// near reports whether a and b are equal to 1e-12 of their size.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b)) }
