package uiprobe

import (
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// Layer is the value of the "layer" tag on the UI probe's samples; the
// stream probe's samples carry none.
const Layer = "ui"

// Samples returns the result's samples in the probe's metrics of reg
// (registered if needed): usefulsse_first_text, usefulsse_useful and
// usefulsse_complete for the moments reached, usefulsse_useful_reached and
// usefulsse_failed (the watch ended with an error code), all tagged with tags plus layer=ui (and error_code when the watch
// failed), at the answer's end on the wall clock (now when the page never
// reported).
func (r *Result) Samples(reg *metrics.Registry, tags metrics.Tags) []metrics.Sample {
	tags = tags.With("layer", Layer)
	if r.ErrorCode != "" {
		tags = tags.With("error_code", r.ErrorCode)
	}
	at := r.EndedAt
	if at.IsZero() {
		at = time.Now()
	}
	out := make([]metrics.Sample, 0, 5)
	add := func(name string, v float64) {
		m := metrics.ProbeMetric(name).MustRegister(reg)
		out = append(out, metrics.Sample{Metric: m, Tags: tags, Time: at, Value: v})
	}
	for _, t := range []struct {
		name string
		v    *float64
	}{{metrics.ProbeFirstText, r.Timings.FirstText}, {metrics.ProbeUseful, r.Timings.Useful}, {metrics.ProbeComplete, r.Timings.Complete}} {
		if t.v != nil {
			add(t.name, *t.v)
		}
	}
	reached := 0.0
	if r.UsefulReached {
		reached = 1
	}
	add(metrics.ProbeUsefulReached, reached)
	failed := 0.0
	if r.ErrorCode != "" {
		failed = 1
	}
	add(metrics.ProbeFailed, failed)
	return out
}
