package k6http

import (
	"fmt"

	"github.com/grafana/sobek"
)

// statusSet is what http.expectedStatuses returns: the statuses a response
// callback counts as expected responses (expected_response tag,
// http_req_failed).
type statusSet struct {
	ranges []statusRange
}

// statusRange is the statuses from min to max, both included.
type statusRange struct{ min, max int }

// defaultExpected is k6's default response callback: 200 to 399.
var defaultExpected = &statusSet{ranges: []statusRange{{200, 399}}}

// challengeExpected counts the 401 challenge of digest authentication as
// expected, whatever the response callback, as k6 does.
var challengeExpected = &statusSet{ranges: []statusRange{{401, 401}}}

// has reports whether status is in the set.
func (s *statusSet) has(status int) bool {
	for _, r := range s.ranges {
		if status >= r.min && status <= r.max {
			return true
		}
	}
	return false
}

// expectedStatuses is http.expectedStatuses(...): each argument a status
// or an object {min, max}.
func expectedStatuses(rt *sobek.Runtime, args []sobek.Value) (*statusSet, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("k6/http: expectedStatuses needs at least one status or {min, max}")
	}
	s := &statusSet{}
	for i, a := range args {
		r, err := statusRangeOf(rt, a)
		if err != nil {
			return nil, fmt.Errorf("k6/http: expectedStatuses argument %d: %w", i+1, err)
		}
		s.ranges = append(s.ranges, r)
	}
	return s, nil
}

// statusRangeOf reads a whole-number status or {min, max}.
func statusRangeOf(rt *sobek.Runtime, v sobek.Value) (statusRange, error) {
	switch x := v.Export().(type) {
	case int64:
		return statusRange{int(x), int(x)}, nil
	case map[string]any:
		obj := v.ToObject(rt)
		lo, hi := obj.Get("min"), obj.Get("max")
		if !isWhole(lo) || !isWhole(hi) {
			return statusRange{}, fmt.Errorf("want {min, max} with whole numbers, got %s", jsonOf(rt, v))
		}
		return statusRange{int(lo.ToInteger()), int(hi.ToInteger())}, nil
	}
	return statusRange{}, fmt.Errorf("want a whole number or {min, max}, got %s", v.String())
}

// responseCallback reads the responseCallback param or the argument of
// setResponseCallback: what expectedStatuses returned, or null for no
// callback (no expected_response tag, no http_req_failed sample).
func responseCallback(v sobek.Value) (*statusSet, error) {
	if isNullish(v) {
		return nil, nil
	}
	if s, ok := v.Export().(*statusSet); ok {
		return s, nil
	}
	return nil, fmt.Errorf("want the result of http.expectedStatuses() or null, got %s", v.String())
}

// isWhole reports whether v is a whole number.
func isWhole(v sobek.Value) bool {
	if isNullish(v) {
		return false
	}
	_, ok := v.Export().(int64)
	return ok
}

// jsonOf returns v as JSON for an error message.
func jsonOf(rt *sobek.Runtime, v sobek.Value) string {
	b, err := v.ToObject(rt).MarshalJSON()
	if err != nil {
		return v.String()
	}
	return string(b)
}
