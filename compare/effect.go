package compare

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Effects are the smallest changes that count, per kind of row: a row
// takes the absolute effect of its kind when one is given, else the
// relative one.
type Effects struct {
	// Relative is the relative effect, 0.05 for 5 %; it applies to every
	// row without an absolute effect of its kind. DefaultEffects has 5 %.
	Relative float64 `json:"relative"`
	// Time is the absolute effect of time trends, in ms; 0 for none.
	Time float64 `json:"time_ms,omitempty"`
	// Value is the absolute effect of rates (a fraction: 0.01 is one
	// percentage point), counters and trends that are not times, in their
	// unit; 0 for none.
	Value float64 `json:"value,omitempty"`
}

// DefaultEffects is a relative effect of 5 %.
var DefaultEffects = Effects{Relative: 0.05}

// TimeFloor is the least difference, in ms, a time trend's row needs under
// a relative effect to count as a change: a moment that takes
// microseconds (a loopback's first event, a server-reported queue) moves
// by more than 5 % from one run to the next without anyone waiting
// longer. An absolute time effect (--min-effect 50ms) replaces it.
const TimeFloor = 1.0

// forRow returns the effect of a row: the absolute effect of its kind,
// else the relative effect.
func (e Effects) forRow(isTime bool) Effect {
	switch {
	case isTime && e.Time > 0:
		return Effect{Absolute: e.Time}
	case !isTime && e.Value > 0:
		return Effect{Absolute: e.Value}
	}
	if isTime {
		return Effect{Relative: e.Relative, Floor: TimeFloor}
	}
	return Effect{Relative: e.Relative}
}

// ParseEffects parses the values of --min-effect, each one of: a relative
// effect "5%", an absolute time "50ms" ("1.5s", "200us": a duration Go's
// time.ParseDuration reads, for time trends) or a plain number "0.01" (for
// rates, counters and trends that are not times). Effects start from
// DefaultEffects; a later value of a kind replaces an earlier one.
func ParseEffects(values []string) (Effects, error) {
	e := DefaultEffects
	for _, raw := range values {
		v := strings.TrimSpace(raw)
		if pct, ok := strings.CutSuffix(v, "%"); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
			if err != nil || f < 0 || f != f {
				return e, fmt.Errorf("%w: --min-effect %q: want a percentage like 5%%, a time like 50ms or a number like 0.01", ErrOption, raw)
			}
			e.Relative = f / 100
			continue
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			if f <= 0 || f != f {
				return e, fmt.Errorf("%w: --min-effect %q: an absolute effect must be above 0", ErrOption, raw)
			}
			e.Value = f
			continue
		}
		d, err := time.ParseDuration(strings.ReplaceAll(v, "µs", "us"))
		if err != nil || d <= 0 {
			return e, fmt.Errorf("%w: --min-effect %q: want a percentage like 5%%, a time like 50ms or a number like 0.01", ErrOption, raw)
		}
		e.Time = float64(d) / float64(time.Millisecond)
	}
	return e, nil
}

// String writes the effects as the table's heading does: "5%",
// "50ms for times, 5% otherwise".
func (e Effects) String() string { return effectText(e) }
