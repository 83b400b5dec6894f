package options

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// scenarioNameRE is the k6 rule for scenario names.
var scenarioNameRE = regexp.MustCompile(`^[0-9a-zA-Z_-]+$`)

// k6 defaults shared by several executors.
const (
	defaultGracefulStop = Duration(30 * time.Second)
	defaultTimeUnit     = Duration(time.Second)
	defaultMaxDuration  = Duration(10 * time.Minute)
	defaultExec         = "default"
)

// NewScenario returns a scenario named name for executor with k6's
// defaults: startTime 0, gracefulStop 30s, exec "default"; for the
// arrival-rate executors timeUnit 1s (and startRate 0); for constant-vus
// vus 1; for ramping-vus startVUs 1 and gracefulRampDown 30s; for
// per-vu-iterations and shared-iterations vus 1, iterations 1 and
// maxDuration 10m; for trace-replay timeUnit 1ms, speed 1 and
// timestampField "timestamp"; for externally-controlled vus 0 and no
// gracefulStop (0). Fields without a default (rate, duration, stages,
// preAllocatedVUs, maxVUs) stay zero.
func NewScenario(name, executor string) Scenario {
	sc := Scenario{Name: name, Executor: executor, GracefulStop: defaultGracefulStop, Exec: defaultExec}
	switch executor {
	case ConstantArrivalRate, RampingArrivalRate:
		sc.TimeUnit = defaultTimeUnit
	case ConstantVUs:
		sc.VUs = 1
	case RampingVUs:
		sc.StartVUs, sc.GracefulRampDown = 1, defaultGracefulStop
	case PerVUIterations, SharedIterations:
		sc.VUs, sc.Iterations, sc.MaxDuration = 1, 1, defaultMaxDuration
	case TraceReplay:
		sc.TimeUnit, sc.Speed, sc.TimestampField = defaultTraceTimeUnit, 1, defaultTimestampField
	case ExternallyControlled:
		sc.GracefulStop = 0
	}
	return sc
}

// parseScenarios reads the script's scenarios object, name → config,
// returning the scenarios sorted by name and every problem found.
func parseScenarios(v any) ([]Scenario, error) {
	m, err := toObject(v)
	if err != nil {
		return nil, at("scenarios", err)
	}
	out := make([]Scenario, 0, len(m))
	var errs []error
	for _, name := range sortedKeys(m) {
		sc, scErrs := parseScenario(name, m[name])
		out = append(out, sc)
		errs = append(errs, scErrs...)
	}
	return out, errors.Join(errs...)
}

// parseScenario reads one scenario: the executor first, then its fields
// over NewScenario's defaults, then the required fields and the maxVUs
// default (preAllocatedVUs; vus for externally-controlled).
func parseScenario(name string, v any) (Scenario, []error) {
	path := "scenarios." + name
	p := &problems{path: path}
	p.check(scenarioNameRE.MatchString(name), "", fmt.Errorf(
		"invalid scenario name %q: use only letters, digits, '_' and '-'", name))
	raw, err := toObject(v)
	if err != nil {
		p.check(false, "", err)
		return Scenario{Name: name}, p.errs
	}
	executor, err := parseExecutor(raw["executor"])
	if err != nil {
		p.check(false, "executor", err)
		return Scenario{Name: name}, p.errs
	}
	sc := NewScenario(name, executor)
	given, errs := setScenarioFields(&sc, path, raw)
	p.errs = append(p.errs, errs...)
	for _, key := range executors[executor].required {
		p.check(given[key], key, fmt.Errorf("required for executor %s", executor))
	}
	if !given["maxVUs"] {
		sc.MaxVUs = sc.PreAllocatedVUs
		if executor == ExternallyControlled {
			sc.MaxVUs = sc.VUs
		}
	}
	return sc, p.errs
}

// parseExecutor reads and checks the executor name.
func parseExecutor(v any) (string, error) {
	if v == nil {
		return "", fmt.Errorf("required, one of %s", strings.Join(executorNames, ", "))
	}
	name, err := toString(v)
	if err != nil {
		return "", err
	}
	if _, ok := executors[name]; !ok {
		return "", fmt.Errorf("unsupported executor %q: want one of %s", name, strings.Join(executorNames, ", "))
	}
	return name, nil
}

// setScenarioFields sets every non-null field of raw on sc, rejecting
// fields the executor does not accept (gracefulStop, whatever its value,
// for an executor without one). given holds the fields that were
// not null, valid or not; "" counts as null for the numeric fields, as in
// k6, so a required one is then missing.
func setScenarioFields(sc *Scenario, path string, raw map[string]any) (given map[string]bool, errs []error) {
	spec := executors[sc.Executor]
	given = make(map[string]bool, len(raw))
	for _, key := range sortedKeys(raw) {
		switch {
		case key == "executor" || raw[key] == nil:
		case !spec.allows(key):
			errs = append(errs, &FieldError{Path: path, Err: fmt.Errorf(
				"unknown field %q for executor %s", key, sc.Executor)})
		case key == "gracefulStop" && spec.noGracefulStop:
			errs = append(errs, &FieldError{Path: path + "." + key, Err: errNoGracefulStop})
		default:
			err := scenarioFields[key].set(sc, path+"."+key, raw[key])
			given[key] = !errors.Is(err, errNull)
			if err != nil && given[key] {
				errs = append(errs, err)
			}
		}
	}
	return given, errs
}

// Validate checks the scenario's values against k6's rules for its
// executor and returns every problem, each located at
// "scenarios.<name>.<field>". Durations must be positive where a scenario
// needs time to run (duration, maxDuration, timeUnit) and not negative
// elsewhere; VU counts, iterations and rates follow the executor's rules.
func (sc Scenario) Validate() []error {
	p := &problems{path: "scenarios." + sc.Name}
	p.check(scenarioNameRE.MatchString(sc.Name), "", fmt.Errorf(
		"invalid scenario name %q: use only letters, digits, '_' and '-'", sc.Name))
	spec, ok := executors[sc.Executor]
	if !ok {
		p.check(false, "executor", fmt.Errorf("unsupported executor %q", sc.Executor))
		return p.errs
	}
	p.check(sc.Exec != "", "exec", errors.New("must name an exported function"))
	p.check(sc.StartTime >= 0, "startTime", errNegative)
	p.check(sc.GracefulStop >= 0, "gracefulStop", errNegative)
	spec.validate(p, sc)
	return p.errs
}

// MarshalJSON renders the scenario as k6 inspect does: the common fields
// (executor, startTime, gracefulStop, exec, then env and tags when set)
// followed by every field of its executor, durations as Go duration
// strings. The arrival-rate executors' arrival and arrivalSeed appear only
// for a random arrival process, burstiness (resolved: 1 when unset) only
// for arrival "gamma".
func (sc Scenario) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for _, key := range slices.Concat(commonFields, executors[sc.Executor].fields) {
		f := scenarioFields[key]
		if f.omit != nil && f.omit(&sc) {
			continue
		}
		v := f.get(&sc)
		if m, ok := v.(map[string]string); ok && len(m) == 0 {
			continue
		}
		b, err := encodeJSON(v, "")
		if err != nil {
			return nil, err
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, "%q:%s", key, b)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
