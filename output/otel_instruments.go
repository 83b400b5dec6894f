package output

import (
	"context"
	"fmt"
	"io"

	otelmetric "go.opentelemetry.io/otel/metric"

	"github.com/usefullatency/usefullatency/metrics"
)

// otelInstrument records the samples of one k6 metric into the OpenTelemetry
// instrument(s) k6 maps its type to.
type otelInstrument interface {
	record(ctx context.Context, value float64, a *otelAttrs)
}

// otelInstruments creates one instrument per k6 metric on first use and
// turns sample tags into attributes. It is used by one goroutine only (the
// buffer's).
type otelInstruments struct {
	meter                otelmetric.Meter
	prefix               string
	singleCounterForRate bool
	byMetric             map[*metrics.Metric]otelInstrument
	attrs                *otelAttrCache
	// log receives one warning per metric the SDK refuses.
	log io.Writer
	// name is the output's type, for warnings.
	name string
}

func newOtelInstruments(meter otelmetric.Meter, cfg otelConfig, name string, log io.Writer) *otelInstruments {
	return &otelInstruments{meter: meter, prefix: cfg.prefix, singleCounterForRate: cfg.singleCounterForRate,
		byMetric: map[*metrics.Metric]otelInstrument{}, attrs: newOtelAttrCache(), name: name, log: log}
}

// record adds one sample to its metric's instrument; every tag with a
// non-empty value becomes an attribute.
func (in *otelInstruments) record(ctx context.Context, s metrics.Sample) {
	if inst := in.instrument(s.Metric); inst != nil {
		inst.record(ctx, s.Value, in.attrs.of(s.Tags))
	}
}

// instrument returns the metric's instrument, creating it the first time;
// nil, after one warning, for a metric the SDK refuses (e.g. a name that
// is not a valid instrument name): its samples are not exported.
func (in *otelInstruments) instrument(m *metrics.Metric) otelInstrument {
	inst, ok := in.byMetric[m]
	if ok {
		return inst
	}
	inst, err := in.create(m)
	if err != nil {
		fmt.Fprintf(in.log, "WARN %s: metric %s is not exported: %s\n", in.name, in.prefix+m.Name, err)
		inst = nil
	}
	in.byMetric[m] = inst
	return inst
}

// create maps a k6 metric type to instruments as k6 documents it: Counter
// → Float64Counter, Gauge → Float64Gauge, Trend → Float64Histogram, Rate →
// one Int64Counter with the attribute condition=zero|nonzero (or, legacy,
// the counters name.occurred and name.total).
func (in *otelInstruments) create(m *metrics.Metric) (otelInstrument, error) {
	name, unit := in.prefix+m.Name, otelUnit(m.Contains)
	switch m.Type {
	case metrics.Counter:
		c, err := in.meter.Float64Counter(name, otelmetric.WithUnit(unit))
		return otelCounter{c}, err
	case metrics.Gauge:
		g, err := in.meter.Float64Gauge(name, otelmetric.WithUnit(unit))
		return otelGauge{g}, err
	case metrics.Trend:
		h, err := in.meter.Float64Histogram(name, otelmetric.WithUnit(unit))
		return otelHistogram{h}, err
	case metrics.Rate:
		if in.singleCounterForRate {
			c, err := in.meter.Int64Counter(name)
			return &otelRate{counter: c}, err
		}
		occurred, err := in.meter.Int64Counter(name + ".occurred")
		if err != nil {
			return nil, err
		}
		total, err := in.meter.Int64Counter(name + ".total")
		return otelRatePair{occurred: occurred, total: total}, err
	}
	return nil, fmt.Errorf("unknown metric type %v", m.Type)
}

// otelUnit is the UCUM unit of a metric's values: ms for times, By for
// data, none otherwise.
func otelUnit(c metrics.ValueType) string {
	switch c {
	case metrics.Time:
		return "ms"
	case metrics.Data:
		return "By"
	}
	return ""
}

type otelCounter struct{ c otelmetric.Float64Counter }

func (o otelCounter) record(ctx context.Context, v float64, a *otelAttrs) { o.c.Add(ctx, v, a.opt) }

type otelGauge struct{ g otelmetric.Float64Gauge }

func (o otelGauge) record(ctx context.Context, v float64, a *otelAttrs) { o.g.Record(ctx, v, a.opt) }

type otelHistogram struct{ h otelmetric.Float64Histogram }

func (o otelHistogram) record(ctx context.Context, v float64, a *otelAttrs) {
	o.h.Record(ctx, v, a.opt)
}

// otelRate counts a Rate's samples by condition: "nonzero" for a value
// other than 0, "zero" for 0.
type otelRate struct{ counter otelmetric.Int64Counter }

func (o *otelRate) record(ctx context.Context, v float64, a *otelAttrs) {
	o.counter.Add(ctx, 1, a.condition(v != 0))
}

// otelRatePair is the legacy form of a Rate: name.occurred counts the
// non-zero samples, name.total all of them.
type otelRatePair struct{ occurred, total otelmetric.Int64Counter }

func (o otelRatePair) record(ctx context.Context, v float64, a *otelAttrs) {
	if v != 0 {
		o.occurred.Add(ctx, 1, a.opt)
	}
	o.total.Add(ctx, 1, a.opt)
}
