package options

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/usefullatency/usefullatency/metrics"
)

// checkTrendStats names every entry of stats that is not a summary trend
// stat (metrics.InSummary: avg, min, med, max, count or p(N) with
// 0 ≤ N ≤ 100) in one error.
func checkTrendStats(stats []string) error {
	var bad []string
	for _, s := range stats {
		st, err := metrics.ParseStat(s)
		if err == nil {
			err = st.ValidFor(metrics.Trend, metrics.InSummary)
		}
		if err != nil {
			bad = append(bad, strconv.Quote(s))
		}
	}
	if bad == nil {
		return nil
	}
	return fmt.Errorf("invalid trend stat %s: want avg, min, med, max, count or p(N) with 0 ≤ N ≤ 100",
		strings.Join(bad, ", "))
}

// checkTimeUnit accepts the summaryTimeUnit values k6 documents: s, ms, us,
// or empty for mixed units.
func checkTimeUnit(s string) error {
	switch s {
	case "", "s", "ms", "us":
		return nil
	}
	return fmt.Errorf("invalid time unit %q: want s, ms or us", s)
}

// ProbeTransports are the values of --probe-transport.
var ProbeTransports = []string{"reactor", "nethttp"}

// checkProbeTransport accepts "" (the default) and ProbeTransports.
func checkProbeTransport(s string) error {
	if s == "" || slices.Contains(ProbeTransports, s) {
		return nil
	}
	return fmt.Errorf("invalid probe transport %q: want reactor or nethttp", s)
}

// ProbeCaptures are the values of --probe-capture.
var ProbeCaptures = []string{"auto", "on", "off"}

// checkProbeCapture accepts "" (the default, auto) and ProbeCaptures.
func checkProbeCapture(s string) error {
	if s == "" || slices.Contains(ProbeCaptures, s) {
		return nil
	}
	return fmt.Errorf("invalid probe capture %q: want auto, on or off", s)
}

// checkCIDRs names every entry of list that is neither a CIDR range
// ("10.0.0.0/8") nor an IP address.
func checkCIDRs(list []string) error {
	var bad []string
	for _, s := range list {
		if _, err := netip.ParsePrefix(s); err != nil {
			if _, err := netip.ParseAddr(s); err != nil {
				bad = append(bad, strconv.Quote(s))
			}
		}
	}
	if bad == nil {
		return nil
	}
	return fmt.Errorf("invalid IP range %s: want CIDR ranges such as 10.0.0.0/8", strings.Join(bad, ", "))
}

// Validate checks consolidated options and returns every problem at once,
// each a one-line FieldError naming the option, scenario and field:
// summaryTrendStats entries, summaryTimeUnit, the timeouts, the execution
// segment and sequence (the segment must be one of the sequence's
// segments), blacklistIPs, and every scenario (see Scenario.Validate); there must be at
// least one scenario.
func (o Options) Validate() []error {
	return append(o.validateSettings(), o.validateScenarios()...)
}

// validateSettings checks everything but the scenarios.
func (o Options) validateSettings() []error {
	p := &problems{}
	p.add("summaryTrendStats", checkTrendStats(o.SummaryTrendStats))
	p.add("summaryTimeUnit", checkTimeUnit(o.SummaryTimeUnit))
	p.add("probeTransport", checkProbeTransport(o.ProbeTransport))
	p.add("probeCapture", checkProbeCapture(o.ProbeCapture))
	p.check(o.SetupTimeout >= 0, "setupTimeout", errNegative)
	p.check(o.TeardownTimeout >= 0, "teardownTimeout", errNegative)
	_, err := o.ExecutionTuple()
	p.add("executionSegment", err)
	p.add("blacklistIPs", checkCIDRs(o.BlacklistIPs))
	return p.errs
}

// validateScenarios checks that there are scenarios and that each is valid.
func (o Options) validateScenarios() []error {
	p := &problems{}
	p.check(len(o.Scenarios) > 0, "scenarios", errors.New("no scenario defined"))
	for _, sc := range o.Scenarios {
		p.errs = append(p.errs, sc.Validate()...)
	}
	return p.errs
}
