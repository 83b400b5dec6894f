package options

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseStages reads stages in the form of the -s/--stage flag and the
// K6_STAGES variable: comma-separated "duration:target" pairs such as
// "30s:10,1m:20". The duration is read by ParseDuration and must not be
// negative; the target is a non-negative integer. A stage without ":target"
// keeps the previous stage's target (0 for the first stage), holding the
// load steady for that duration. Repeated -s flags can be joined with
// commas and parsed at once, so that a stage without target follows the
// previous flag's.
func ParseStages(s string) ([]Stage, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("no stages given")
	}
	parts := strings.Split(s, ",")
	stages := make([]Stage, 0, len(parts))
	var target int64
	for i, part := range parts {
		st, err := parseStage(strings.TrimSpace(part), target)
		if err != nil {
			return nil, fmt.Errorf("stage %d %q: %w", i+1, part, err)
		}
		stages = append(stages, st)
		target = st.Target
	}
	return stages, nil
}

// parseStage reads one "duration[:target]" stage; prev is the target kept
// when none is given.
func parseStage(s string, prev int64) (Stage, error) {
	durText, targetText, hasTarget := strings.Cut(s, ":")
	d, err := ParseDuration(durText)
	if err != nil {
		return Stage{}, err
	}
	if d < 0 {
		return Stage{}, errors.New("duration must not be negative")
	}
	st := Stage{Duration: Duration(d), Target: prev}
	if !hasTarget {
		return st, nil
	}
	st.Target, err = strconv.ParseInt(strings.TrimSpace(targetText), 10, 64)
	if err != nil || st.Target < 0 {
		return Stage{}, fmt.Errorf("target %q is not a non-negative integer", targetText)
	}
	return st, nil
}

// parseStageList reads a script's stages at path: an array of objects with
// a duration (string or milliseconds) and an integer target, both required.
// It reports one FieldError per bad stage.
func parseStageList(path string, v any) ([]Stage, error) {
	list, err := toArray(v)
	if err != nil {
		return nil, at(path, err)
	}
	stages := make([]Stage, len(list))
	var errs []error
	for i, raw := range list {
		if stages[i], err = parseStageObject(raw); err != nil {
			errs = append(errs, at(fmt.Sprintf("%s[%d]", path, i), err))
		}
	}
	return stages, errors.Join(errs...)
}

// parseStageObject reads one stage of a script: {duration, target}, where
// a null target, or "", is missing, as in k6.
func parseStageObject(v any) (Stage, error) {
	m, err := toObject(v)
	if err != nil {
		return Stage{}, err
	}
	for _, k := range sortedKeys(m) {
		if k != "duration" && k != "target" {
			return Stage{}, fmt.Errorf("unknown field %q: a stage has only duration and target", k)
		}
	}
	var st Stage
	var durErr, targetErr error
	st.Duration, durErr = toDuration(m["duration"])
	st.Target, targetErr = toInt(m["target"])
	switch {
	case errors.Is(durErr, errNull) || errors.Is(targetErr, errNull):
		return Stage{}, errors.New("a stage needs both duration and target")
	case durErr != nil:
		return Stage{}, fmt.Errorf("duration: %w", durErr)
	case targetErr != nil:
		return Stage{}, fmt.Errorf("target: %w", targetErr)
	}
	return st, nil
}
