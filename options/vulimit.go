package options

import (
	"errors"
	"fmt"
)

// DefaultMaxVUs is the ceiling of VUs one instance takes unless told
// otherwise (run --no-vu-limit): every VU count of a scenario and their
// sum over the scenarios. 1,000,000.
const DefaultMaxVUs = 1_000_000

// BytesPerVU is the memory one VU takes while the VUs are initialised:
// 144 KiB, measured as the peak RSS of the smallest script (an empty
// default function) at 2,000 and 20,000 VUs, (3.07 GB − 0.33 GB) / 18,000
// = 147 KB, whether the VUs then idle in an arrival-rate pool or iterate.
// A script that imports more takes more.
const BytesPerVU = 144 << 10

// VULimit is the ceiling CheckVULimit applies.
type VULimit struct {
	// MaxVUs bounds every VU count and the sum over the scenarios.
	MaxVUs int64
	// Memory is the memory of the machine in bytes: the VUs initialised
	// before the test starts must fit in it at BytesPerVU each. 0
	// skips this check.
	Memory uint64
}

// vuCount is one VU count of a scenario: where the user set it, its value
// for this instance and for the whole test, and whether its VUs are
// initialised before the test starts (maxVUs beyond preAllocatedVUs are
// started on demand).
type vuCount struct {
	path        string
	n, whole    int64
	initialised bool
}

// CheckVULimit refuses VU counts this instance cannot take, each problem
// naming its option: a count above l.MaxVUs (vus, startVUs, the targets
// of ramping-vus' stages, preAllocatedVUs, maxVUs), the scenarios' counts
// together above l.MaxVUs, or the VUs initialised before the test starts
// needing more than l.Memory at BytesPerVU each. Counts are this
// instance's share under its execution segment. Options that fail
// Validate may give a nil error: Consolidate reports them.
func (o Options) CheckVULimit(l VULimit) error {
	tuple, err := o.ExecutionTuple()
	if err != nil {
		return nil
	}
	var errs []error
	var total, initialised int64
	var largest vuCount // the largest initialised count, named when only one scenario has any
	scenarios := 0
	for _, sc := range o.Scenarios {
		counts := o.vuCounts(sc, scaleCounts(sc, tuple))
		var peak, init int64
		for _, c := range counts {
			if c.n > l.MaxVUs {
				errs = append(errs, &FieldError{Path: c.path, Err: fmt.Errorf(
					"%s is more than the ceiling of %d VUs per instance; --no-vu-limit lifts it", c.text(), l.MaxVUs)})
			}
			peak = max(peak, c.n)
			if c.initialised {
				init = max(init, c.n)
				if c.n > largest.n {
					largest = c
				}
			}
		}
		if init > 0 {
			scenarios++
		}
		total, initialised = saturatingAdd(total, peak), saturatingAdd(initialised, init)
	}
	if errs != nil {
		return errors.Join(errs...)
	}
	if total > l.MaxVUs {
		return &FieldError{Path: "scenarios", Err: fmt.Errorf(
			"together %d VUs, more than the ceiling of %d VUs per instance; --no-vu-limit lifts it", total, l.MaxVUs)}
	}
	return checkVUMemory(initialised, largest, scenarios, l.Memory)
}

// checkVUMemory refuses n VUs initialised before the start when they need
// more than memory; the error names the largest count when one scenario
// initialises VUs, else the scenarios.
func checkVUMemory(n int64, largest vuCount, scenarios int, memory uint64) error {
	if memory == 0 || uint64(n) <= memory/BytesPerVU {
		return nil
	}
	need := float64(n) * BytesPerVU
	what, path := fmt.Sprintf("together %d VUs", n), "scenarios"
	if scenarios == 1 {
		what, path = largest.text(), largest.path
	}
	return &FieldError{Path: path, Err: fmt.Errorf(
		"%s initialised before the test starts need at least %s (%d KiB each), more than this machine's %s of memory; --no-vu-limit lifts the check",
		what, gibText(need), BytesPerVU>>10, gibText(float64(memory)))}
}

// vuCounts lists the VU counts of sc, whose share for this instance is
// scaled, named as the user wrote them: the shortcuts' "vus" and
// "stages[i].target" for the scenario Consolidate derived from them.
func (o Options) vuCounts(sc, scaled Scenario) []vuCount {
	path := func(field string) string { return "scenarios." + sc.Name + "." + field }
	if o.derived {
		path = func(field string) string {
			if field == "startVUs" {
				return "vus"
			}
			return field
		}
	}
	c := func(field string, whole, n int64, initialised bool) vuCount {
		return vuCount{path: path(field), n: n, whole: whole, initialised: initialised}
	}
	switch sc.Executor {
	case ConstantVUs, PerVUIterations, SharedIterations:
		return []vuCount{c("vus", sc.VUs, scaled.VUs, true)}
	case RampingVUs:
		out := []vuCount{c("startVUs", sc.StartVUs, scaled.StartVUs, true)}
		for i, st := range sc.Stages {
			out = append(out, c(fmt.Sprintf("stages[%d].target", i), st.Target, scaled.Stages[i].Target, true))
		}
		return out
	case ExternallyControlled: // maxVUs are initialised before the start
		return []vuCount{c("vus", sc.VUs, scaled.VUs, true), c("maxVUs", sc.MaxVUs, scaled.MaxVUs, true)}
	case ConstantArrivalRate, RampingArrivalRate, TraceReplay:
		return []vuCount{
			c("preAllocatedVUs", sc.PreAllocatedVUs, scaled.PreAllocatedVUs, true),
			c("maxVUs", sc.MaxVUs, scaled.MaxVUs, false),
		}
	}
	return nil
}

// text renders the count, with the whole test's when this instance runs a
// share of it.
func (c vuCount) text() string {
	if c.n == c.whole {
		return fmt.Sprintf("%d VUs", c.n)
	}
	return fmt.Sprintf("%d VUs (this instance's share of %d)", c.n, c.whole)
}

// gibText renders bytes in GiB with one decimal.
func gibText(b float64) string { return fmt.Sprintf("%.1f GiB", b/(1<<30)) }

// saturatingAdd adds two non-negative counts, stopping at the largest
// int64.
func saturatingAdd(a, b int64) int64 {
	if a > 0 && b > 1<<63-1-a {
		return 1<<63 - 1
	}
	return a + b
}
