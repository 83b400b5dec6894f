package options

import "time"

// rampingVUsPlan is the plan of a ramping-vus scenario: the VU count of
// its stages (rampRawSteps), where a VU that ramping down stops keeps its
// place for gracefulRampDown unless the count climbs back within that
// time (reserveRampDowns), and 0 VUs at the latest at the end of the
// stages plus gracefulStop.
func rampingVUsPlan(sc Scenario) []PlanStep {
	steps := rampRawSteps(sc.StartVUs, sc.Stages)
	end := stagesDuration(sc.Stages) + time.Duration(sc.GracefulStop)
	if sc.GracefulRampDown > 0 {
		steps = reserveRampDowns(steps, time.Duration(sc.GracefulRampDown), end)
	}
	if steps[len(steps)-1].Planned != 0 {
		steps = append(steps, PlanStep{At: end})
	}
	return steps
}

// rampRawSteps lists the changes of the VU count of ramping stages, as k6
// times them: ramping from a to b over a stage of length D ending at E,
// the count reaches v at E − ⌊D·(b−v)/(b−a)⌋ going up and at
// E − ⌊D·(v−b)/(a−b)⌋ going down; a stage of length 0 jumps at once.
func rampRawSteps(start int64, stages []Stage) []PlanStep {
	steps := []PlanStep{{At: 0, Planned: start}}
	add := func(at time.Duration, vus int64) {
		if steps[len(steps)-1].Planned != vus {
			steps = append(steps, PlanStep{At: at, Planned: vus})
		}
	}
	from, end := start, time.Duration(0)
	for _, st := range stages {
		to, d := st.Target, time.Duration(st.Duration)
		end += d
		switch {
		case to == from:
		case d == 0:
			add(end, to)
		case to > from:
			for v := from + 1; v <= to; v++ {
				add(end-time.Duration(int64(d)*(to-v)/(to-from)), v)
			}
		default:
			for v := from - 1; v >= to; v-- {
				add(end-time.Duration(int64(d)*(v-to)/(from-to)), v)
			}
		}
		from = to
	}
	return steps
}

// reserveRampDowns keeps the VUs a downward step stops for grace more:
// the step takes effect at its time + grace, or not at all when the count
// climbs back to the level before it within that time, or when that is
// past end. Like k6, it emits the steps in the order it meets them, which
// is not always the order of their times; the merge sorts them.
func reserveRampDowns(raw []PlanStep, grace, end time.Duration) []PlanStep {
	out := []PlanStep{raw[0]}
	last, slope := raw[0].Planned, 0
	for i := 1; i < len(raw); i++ {
		s := raw[i]
		if s.Planned > last {
			out = append(out, s)
			last = s.Planned
			continue
		}
		if s.Planned == last {
			continue
		}
		until := s.At + grace
		if back := climbBack(raw, i, &slope, last, until); back > 0 {
			i = back - 1
			continue
		}
		if until >= end {
			break
		}
		out = append(out, PlanStep{At: until, Planned: s.Planned})
		last = s.Planned
	}
	return out
}

// climbBack returns the index of the first step after i, no later than
// until, whose count is at least level, or 0. slope remembers how far the
// downward slope that step i is on has been seen, where the next search
// may start: steps on it are all below level.
func climbBack(raw []PlanStep, i int, slope *int, level int64, until time.Duration) int {
	falling := true
	for j := max(*slope, i+1); j < len(raw) && raw[j].At <= until; j++ {
		if raw[j].Planned >= level {
			return j
		}
		if falling {
			if raw[j-1].Planned > raw[j].Planned {
				*slope = j
			} else {
				falling = false
			}
		}
	}
	return 0
}
