package options

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

const day = 24 * time.Hour

var (
	// bareNumberRE matches a number without unit, read as milliseconds.
	bareNumberRE = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)$`)
	// dayPrefixRE matches "<days>d" followed by an optional Go duration.
	dayPrefixRE = regexp.MustCompile(`^([+-]?)(\d+)d(.*)$`)
)

// ParseDuration reads a duration the way k6 does: a Go duration string
// ("1m30s", "250ms", "-2h"), a whole number of days optionally followed by a
// Go duration ("1d", "1d2h30m"), or a bare number meaning milliseconds
// ("1500" is 1.5s, "0.5" is 500µs). Surrounding spaces are ignored. The
// result must fit a time.Duration (about ±292 years).
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return 0, errors.New("empty duration")
	case bareNumberRE.MatchString(s):
		return parseMillis(s)
	case dayPrefixRE.MatchString(s):
		return parseDays(s)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, invalidDuration(s)
	}
	return d, nil
}

func invalidDuration(s string) error {
	return fmt.Errorf(`invalid duration %q: want e.g. "1m30s", "1d2h" or a number of milliseconds`, s)
}

func parseMillis(s string) (time.Duration, error) {
	ms, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, invalidDuration(s)
	}
	d, err := msToDuration(ms)
	return time.Duration(d), err
}

// parseDays reads "[sign]<n>d[go duration]" as sign × (n×24h + rest).
func parseDays(s string) (time.Duration, error) {
	m := dayPrefixRE.FindStringSubmatch(s)
	sign, digits, rest := m[1], m[2], m[3]
	days, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || days > math.MaxInt64/int64(day) {
		return 0, fmt.Errorf("duration %q is out of range", s)
	}
	var tail time.Duration
	if rest != "" {
		if rest[0] == '+' || rest[0] == '-' {
			return 0, invalidDuration(s)
		}
		if tail, err = time.ParseDuration(rest); err != nil {
			return 0, invalidDuration(s)
		}
	}
	if tail > math.MaxInt64-time.Duration(days)*day {
		return 0, fmt.Errorf("duration %q is out of range", s)
	}
	d := time.Duration(days)*day + tail
	if sign == "-" {
		d = -d
	}
	return d, nil
}

// String renders d as a Go duration string, e.g. "1m30s".
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalJSON renders d as a JSON string in Go duration form, e.g. "1m30s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads a duration string (see ParseDuration) or a number of
// milliseconds. A JSON null leaves d unchanged.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v == nil {
		return nil
	}
	p, err := toDuration(v)
	if err != nil {
		return err
	}
	*d = p
	return nil
}
