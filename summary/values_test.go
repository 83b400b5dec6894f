package summary

import (
	"testing"

	"github.com/usefullatency/usefullatency/metrics"
)

func TestTrendStatUnknownIsLeftOut(t *testing.T) {
	m := &metrics.Metric{Name: "x", Type: metrics.Trend, Sink: metrics.NewSink(metrics.Trend)}
	m.Sink.Add(3)
	got := values(m, []string{"avg", "p99", "sum", "count"}, 0)
	if len(got) != 2 || got["avg"] != 3.0 || got["count"] != 1.0 {
		t.Errorf("values = %v, want only avg 3 and count 1", got)
	}
}

func TestFlattenListsSubmetricsOnce(t *testing.T) {
	reg := metrics.NewRegistry()
	parent := reg.MustNewMetric("http_req_duration", metrics.Trend, metrics.Time)
	sub, err := reg.Submetric(parent, "status:200")
	if err != nil {
		t.Fatal(err)
	}
	got := flatten([]*metrics.Metric{parent, sub, nil})
	if len(got) != 2 || got[0] != parent || got[1] != sub {
		t.Errorf("flatten = %v, want the parent then its submetric, once each", got)
	}
}
