package metrics

import (
	"slices"
	"strings"
	"testing"
)

// TestProbeMetricsArePRODUCTs pins the probe's metrics to the table of
// PRODUCT.md ("Metrics"), spelled out here: scripts' thresholds, dashboards
// and the summary export depend on these names, so a rename must fail here
// first.
func TestProbeMetricsArePRODUCTs(t *testing.T) {
	want := []MetricSpec{
		{"usefulsse_queue", Trend, Time},
		{"usefulsse_headers", Trend, Time},
		{"usefulsse_first_event", Trend, Time},
		{"usefulsse_first_text", Trend, Time},
		{"usefulsse_useful", Trend, Time},
		{"usefulsse_complete", Trend, Time},
		{"usefulsse_max_gap", Trend, Time},
		{"usefulsse_mark", Trend, Time},
		{"usefulsse_connecting", Trend, Time},
		{"usefulsse_tls_handshaking", Trend, Time},
		{"usefulsse_useful_reached", Rate, Default},
		{"usefulsse_failed", Rate, Default},
		{"usefulsse_good", Rate, Default},
		{"usefulsse_events", Counter, Default},
		{"usefulsse_heartbeats", Counter, Default},
		{"usefulsse_empty_events", Counter, Default},
		{"usefulsse_tokens", Counter, Default},
		{"usefulsse_cost", Counter, Default},
		{"usefulsse_read_lag", Trend, Time},
		{"usefulsse_coalesced_events", Counter, Default},
		{"usefulsse_client_cpu", Gauge, Default},
	}
	got := ProbeMetrics()
	if !slices.Equal(got, want) {
		t.Errorf("ProbeMetrics() =\n%v\nwant\n%v", got, want)
	}
	for _, s := range got {
		if !strings.HasPrefix(s.Name, ProbePrefix) || !ValidName(s.Name) {
			t.Errorf("%q: want a valid name starting with %q", s.Name, ProbePrefix)
		}
		if ProbeMetric(s.Name) != s {
			t.Errorf("ProbeMetric(%q) = %v, want %v", s.Name, ProbeMetric(s.Name), s)
		}
	}
	got[0].Name = "changed"
	if ProbeMetrics()[0].Name != "usefulsse_queue" {
		t.Error("ProbeMetrics returned the table itself: a caller changed it")
	}
}

// TestProbeMoments pins the summary's and the report's "where the time goes"
// columns: their order, their labels, and that each reads a time Trend of
// the probe.
func TestProbeMoments(t *testing.T) {
	want := []Moment{
		{"queue", "usefulsse_queue"},
		{"first_event", "usefulsse_first_event"},
		{"first_text", "usefulsse_first_text"},
		{"useful", "usefulsse_useful"},
		{"complete", "usefulsse_complete"},
	}
	if got := ProbeMoments(); !slices.Equal(got, want) {
		t.Errorf("ProbeMoments() = %v, want %v", got, want)
	}
	for _, m := range want {
		if s := ProbeMetric(m.Metric); s.Type != Trend || s.Contains != Time {
			t.Errorf("moment %s reads %v, want a Trend of times", m.Label, s)
		}
	}
	wantNames := []string{"usefulsse_queue", "usefulsse_first_event", "usefulsse_first_text", "usefulsse_useful",
		"usefulsse_complete", "usefulsse_useful_reached", "usefulsse_failed", "usefulsse_good"}
	if got := ProbeBreakdownNames(); !slices.Equal(got, wantNames) {
		t.Errorf("ProbeBreakdownNames() = %v, want %v", got, wantNames)
	}
}

// TestProbeRegistration registers every probe metric with its declared type
// and value type, idempotently, and refuses an unknown name.
func TestProbeRegistration(t *testing.T) {
	reg := NewRegistry()
	for _, s := range ProbeMetrics() {
		m := s.MustRegister(reg)
		if m.Name != s.Name || m.Type != s.Type || m.Contains != s.Contains {
			t.Errorf("%s registered as %s %s %s", s.Name, m.Name, m.Type, m.Contains)
		}
		if again := s.MustRegister(reg); again != m {
			t.Errorf("%s: a second registration made a new metric", s.Name)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("ProbeMetric of an unknown name did not panic")
		}
	}()
	ProbeMetric(ProbePrefix + "nope")
}
