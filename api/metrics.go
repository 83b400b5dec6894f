package api

import (
	"fmt"
	"net/http"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/runner"
)

// metricAttributes are the attributes of a metrics resource. Tainted is
// null for a metric without thresholds, else whether one is crossed.
type metricAttributes struct {
	Type     string             `json:"type"`
	Contains string             `json:"contains"`
	Tainted  *bool              `json:"tainted"`
	Sample   map[string]float64 `json:"sample"`
}

// metricResource describes m, whose counter rate is per second of elapsed.
func metricResource(m *metrics.Metric, elapsed time.Duration) resource[metricAttributes] {
	a := metricAttributes{Type: m.Type.String(), Contains: m.Contains.String(), Sample: sample(m, elapsed)}
	if len(m.Thresholds) > 0 {
		tainted := false
		for _, t := range m.Thresholds {
			tainted = tainted || t.Failed
		}
		a.Tainted = &tainted
	}
	return resource[metricAttributes]{Type: "metrics", ID: m.Name, Attributes: a}
}

// sample returns the statistics k6 reports for a metric's type: count and
// rate of a counter, value of a gauge, rate of a rate, and min, max, avg,
// med, p(90) and p(95) of a trend.
func sample(m *metrics.Metric, elapsed time.Duration) map[string]float64 {
	switch s := m.Sink.(type) {
	case *metrics.CounterSink:
		return map[string]float64{"count": s.Sum, "rate": s.Rate(elapsed)}
	case *metrics.GaugeSink:
		return map[string]float64{"value": s.Value}
	case *metrics.RateSink:
		return map[string]float64{"rate": s.Rate()}
	case *metrics.TrendSink:
		return map[string]float64{"min": s.Min, "max": s.Max, "avg": s.Avg(),
			"med": s.P(0.5), "p(90)": s.P(0.9), "p(95)": s.P(0.95)}
	}
	return map[string]float64{}
}

// listMetrics answers GET /v1/metrics: every metric with samples.
func listMetrics(w http.ResponseWriter, ctl *runner.Control) {
	doc := document[[]resource[metricAttributes]]{Data: []resource[metricAttributes]{}}
	ctl.ReadMetrics(func(observed []*metrics.Metric, elapsed time.Duration) {
		for _, m := range observed {
			doc.Data = append(doc.Data, metricResource(m, elapsed))
		}
	})
	writeJSON(w, doc)
}

// getMetric answers GET /v1/metrics/{id}, id being a metric's name.
func getMetric(w http.ResponseWriter, ctl *runner.Control, id string) {
	var doc *document[resource[metricAttributes]]
	ctl.ReadMetrics(func(observed []*metrics.Metric, elapsed time.Duration) {
		for _, m := range observed {
			if m.Name == id {
				doc = &document[resource[metricAttributes]]{metricResource(m, elapsed)}
			}
		}
	})
	if doc == nil {
		writeError(w, http.StatusNotFound, "Not Found", fmt.Sprintf("no metric %q has samples", id))
		return
	}
	writeJSON(w, doc)
}
