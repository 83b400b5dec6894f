package metrics

// CheckTally counts the results of each check per value of a tag (per
// scenario, say), by check name in the order checks were first seen.
// Subscribe Add to an Engine to feed it.
type CheckTally struct {
	tag    string
	checks *Metric
	parts  map[string]*tallyPart
}

// tallyPart is the count of one tag value.
type tallyPart struct {
	order  []string
	counts map[string]*CheckCount
}

// CheckCount is the result of one named check.
type CheckCount struct {
	Name          string
	Passes, Fails int64
}

// NewCheckTally returns a tally of the samples of checks (the built-in
// checks rate, whose samples carry the "check" tag) by tag.
func NewCheckTally(tag string, checks *Metric) *CheckTally {
	return &CheckTally{tag: tag, checks: checks, parts: map[string]*tallyPart{}}
}

// Add counts the check samples among samples that carry the tag. It is
// meant to run under the engine lock (Engine.Subscribe).
func (t *CheckTally) Add(samples []Sample) {
	for i := range samples {
		s := &samples[i]
		if s.Metric != t.checks {
			continue
		}
		part, name := s.Tags[t.tag], s.Tags["check"]
		if part == "" || name == "" {
			continue
		}
		p := t.parts[part]
		if p == nil {
			p = &tallyPart{counts: map[string]*CheckCount{}}
			t.parts[part] = p
		}
		c := p.counts[name]
		if c == nil {
			c = &CheckCount{Name: name}
			p.counts[name] = c
			p.order = append(p.order, name)
		}
		if s.Value != 0 {
			c.Passes++
		} else {
			c.Fails++
		}
	}
}

// Checks returns the checks of one tag value, in first-seen order.
func (t *CheckTally) Checks(part string) []CheckCount {
	p := t.parts[part]
	if p == nil {
		return nil
	}
	out := make([]CheckCount, len(p.order))
	for i, name := range p.order {
		out[i] = *p.counts[name]
	}
	return out
}
