package options

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The arrival processes of the arrival-rate executors (the scenario option
// "arrival"). They are ours: k6's schedule is always ArrivalConstant.
const (
	// ArrivalConstant is k6's perfectly regular schedule, the default.
	ArrivalConstant = "constant"
	// ArrivalPoisson draws exponential inter-arrival times: a Poisson
	// process, the gamma process of shape 1.
	ArrivalPoisson = "poisson"
	// ArrivalGamma draws gamma inter-arrival times of shape Burstiness.
	ArrivalGamma = "gamma"
)

// arrivalNames lists the values of "arrival" for messages.
var arrivalNames = []string{ArrivalConstant, ArrivalPoisson, ArrivalGamma}

// MaxBurstiness is the largest gamma shape accepted: the inter-arrival
// times then vary by 0.1 % (the coefficient of variation is 1/√k), a
// regular schedule for every purpose.
const MaxBurstiness = 1e6

// arrivalFields are the options of the arrival process, accepted by both
// arrival-rate executors and shown by inspect only when the process is not
// the constant one.
var arrivalFields = []string{"arrival", "burstiness", "arrivalSeed"}

// ArrivalShape returns the gamma shape k of the scenario's inter-arrival
// times, whose mean stays timeUnit/rate: 0 for the regular schedule
// (arrival "constant" or unset), 1 for "poisson", Burstiness (1 when
// unset) for "gamma".
func (sc Scenario) ArrivalShape() float64 {
	switch sc.Arrival {
	case ArrivalPoisson:
		return 1
	case ArrivalGamma:
		if sc.Burstiness == 0 {
			return 1
		}
		return sc.Burstiness
	}
	return 0
}

// toArrival reads the name of an arrival process.
func toArrival(v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	return s, checkArrival(s)
}

// checkArrival accepts "" and the names of arrivalNames.
func checkArrival(s string) error {
	if s == "" || slices.Contains(arrivalNames, s) {
		return nil
	}
	return fmt.Errorf("unknown arrival process %q: want one of %s", s, strings.Join(arrivalNames, ", "))
}

// toBurstiness reads a gamma shape: a number in (0, MaxBurstiness], in
// any form toFloat reads.
func toBurstiness(v any) (float64, error) {
	k, err := toFloat(v)
	if err != nil {
		return 0, err
	}
	return k, checkBurstiness(k)
}

// checkBurstiness accepts a gamma shape in (0, MaxBurstiness].
func checkBurstiness(k float64) error {
	if !(k > 0 && k <= MaxBurstiness) { // NaN fails both
		return fmt.Errorf("%v is out of range: want a number more than 0 and at most %g (1 is poisson, below 1 burstier, above 1 more regular)", k, MaxBurstiness)
	}
	return nil
}

// validateArrival checks the arrival process of an arrival-rate scenario:
// a known arrival, and burstiness only with arrival "gamma", in range.
func validateArrival(p *problems, sc Scenario) {
	p.add("arrival", checkArrival(sc.Arrival))
	if sc.Burstiness == 0 {
		return
	}
	p.check(sc.Arrival == ArrivalGamma, "burstiness", errors.New(`only applies to arrival: 'gamma' (poisson is burstiness 1)`))
	p.add("burstiness", checkBurstiness(sc.Burstiness))
}

// hideArrival reports whether inspect leaves out arrival and arrivalSeed:
// when the schedule is the regular one, as for k6's executors.
func hideArrival(sc *Scenario) bool { return sc.ArrivalShape() == 0 }

// hideBurstiness reports whether inspect leaves out burstiness: unless the
// arrival is "gamma".
func hideBurstiness(sc *Scenario) bool { return sc.Arrival != ArrivalGamma }
