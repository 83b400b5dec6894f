package options

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The conversions below read the values sobek's Export() produces for a
// script's options object: map[string]any, []any, int64, float64, string
// and bool. k6 marshals that object to JSON and unmarshals it into
// guregu/null.v3 types (null.Int, null.Float, null.Bool) and its own
// NullDuration; toInt, toFloat, toBool and toDuration accept exactly the
// forms those types accept, so that a script reading its options from
// __ENV ({vus: __ENV.VUS}) runs as it does under k6. JavaScript numbers
// may arrive as int64 or float64, so integer fields accept integral floats
// and reject fractional ones, as null.Int does.

// errNull is what the conversions return for a value k6 reads as null:
// null itself, and "" for null.Int and null.Float. Callers leave the
// option unset, as if the script had not given it; it is never reported.
var errNull = errors.New("options: null value")

// toInt reads an integer as k6's null.Int does: a number without fraction,
// or a string of decimal digits with an optional sign ("4", "+4", "-4";
// not " 4", "4.0" or "1e3"). null and "" give errNull.
func toInt(v any) (int64, error) {
	switch n := v.(type) {
	case nil:
		return 0, errNull
	case string:
		return parseIntString(n)
	case int64:
		return n, nil
	case int:
		return int64(n), nil
	case float64:
		if math.Trunc(n) != n || math.IsInf(n, 0) {
			return 0, fmt.Errorf("%v is not an integer", n)
		}
		if n < -(1<<63) || n >= 1<<63 {
			return 0, fmt.Errorf("%v is out of range", n)
		}
		return int64(n), nil
	}
	return 0, fmt.Errorf("expected an integer, got %s", describe(v))
}

// parseIntString reads null.Int's string form with strconv.ParseInt in
// base 10; "" gives errNull.
func parseIntString(s string) (int64, error) {
	if s == "" {
		return 0, errNull
	}
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%s is out of range", describe(s))
	case err != nil:
		return 0, fmt.Errorf("expected an integer, got %s", describe(s))
	}
	return n, nil
}

// toFloat reads a number as k6's null.Float does: a number, or a string
// strconv.ParseFloat reads ("1.5", "1e3", ".5"). null and "" give errNull.
// NaN and infinities are left to the caller's range check.
func toFloat(v any) (float64, error) {
	switch n := v.(type) {
	case nil:
		return 0, errNull
	case string:
		if n == "" {
			return 0, errNull
		}
		f, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return 0, fmt.Errorf("expected a number, got %s", describe(v))
		}
		return f, nil
	case int64:
		return float64(n), nil
	case int:
		return float64(n), nil
	case float64:
		return n, nil
	}
	return 0, fmt.Errorf("expected a number, got %s", describe(v))
}

// toDuration reads a duration as k6's NullDuration does: a number of
// milliseconds, or a string that strconv.ParseFloat reads as milliseconds
// ("1500", "1e3") or else a duration such as "1m30s" or "1d2h" (see
// ParseDuration; no surrounding spaces, and "" is refused). null gives
// errNull.
func toDuration(v any) (Duration, error) {
	switch d := v.(type) {
	case nil:
		return 0, errNull
	case string:
		if ms, err := strconv.ParseFloat(d, 64); err == nil {
			return msToDuration(ms)
		}
		if strings.TrimSpace(d) != d {
			return 0, invalidDuration(d)
		}
		p, err := ParseDuration(d)
		return Duration(p), err
	case int64:
		return msToDuration(float64(d))
	case int:
		return msToDuration(float64(d))
	case float64:
		return msToDuration(d)
	}
	return 0, fmt.Errorf("expected a duration string or milliseconds, got %s", describe(v))
}

// msToDuration converts a number of milliseconds, rounded to the nearest
// nanosecond, failing on NaN, infinities and values beyond ±292 years.
func msToDuration(ms float64) (Duration, error) {
	ns := math.Round(ms * float64(time.Millisecond))
	if math.IsNaN(ns) || ns >= 1<<63 || ns < -(1<<63) {
		return 0, fmt.Errorf("%v milliseconds is out of range", ms)
	}
	return Duration(ns), nil
}

func toString(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	return "", fmt.Errorf("expected a string, got %s", describe(v))
}

// toBool reads a boolean as k6's null.Bool does: true or false only, so
// "true" and "" are refused. null gives errNull.
func toBool(v any) (bool, error) {
	switch b := v.(type) {
	case nil:
		return false, errNull
	case bool:
		return b, nil
	}
	return false, fmt.Errorf("expected a boolean, got %s", describe(v))
}

func toObject(v any) (map[string]any, error) {
	if m, ok := v.(map[string]any); ok {
		return m, nil
	}
	return nil, fmt.Errorf("expected an object, got %s", describe(v))
}

func toArray(v any) ([]any, error) {
	if a, ok := v.([]any); ok {
		return a, nil
	}
	return nil, fmt.Errorf("expected an array, got %s", describe(v))
}

// toStringMap reads an object whose values are all strings.
func toStringMap(v any) (map[string]string, error) {
	m, err := toObject(v)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		s, err := toString(m[k])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = s
	}
	return out, nil
}

// toStringList reads an array of strings.
func toStringList(v any) ([]string, error) {
	a, err := toArray(v)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(a))
	for i, e := range a {
		if out[i], err = toString(e); err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
	}
	return out, nil
}

// describe names the JavaScript type of an exported value for messages.
func describe(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("string %q", t)
	case bool:
		return "boolean"
	case int64, int, float64:
		return fmt.Sprintf("number %v", t)
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// sortedKeys returns m's keys in ascending order, so that errors and
// warnings come out in a stable order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// splitList splits a comma-separated list, trimming spaces and dropping
// empty entries.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// ptrTo turns a conversion result into an optional value.
func ptrTo[T any](v T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}
