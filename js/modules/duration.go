package modules

import (
	"fmt"
	"math"
	"time"

	"github.com/grafana/sobek"

	"github.com/usefullatency/usefullatency/options"
)

// PositiveDuration reads a script's duration param as k6 takes it: a
// duration string ("30s", "1m30s") or a number of milliseconds. It must be
// positive.
func PositiveDuration(v sobek.Value) (time.Duration, error) {
	var d time.Duration
	if s, ok := v.Export().(string); ok {
		dur, err := options.ParseDuration(s)
		if err != nil {
			return 0, err
		}
		d = dur
	} else {
		ms := v.ToFloat()
		if math.IsNaN(ms) || math.IsInf(ms, 0) {
			return 0, fmt.Errorf("want a duration string or milliseconds, got %s", v.String())
		}
		d = time.Duration(ms * float64(time.Millisecond))
	}
	if d <= 0 {
		return 0, fmt.Errorf("must be positive, got %s", v.String())
	}
	return d, nil
}
