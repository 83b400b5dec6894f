package output

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	otelmetric "go.opentelemetry.io/otel/metric"

	"github.com/usefullatency/usefullatency/metrics"
)

// otelInstrument records the samples of one k6 metric into the OpenTelemetry
// instrument(s) k6 maps its type to.
type otelInstrument interface {
	record(ctx context.Context, value float64, kvs []attribute.KeyValue)
}

// otelInstruments creates one instrument per k6 metric on first use and
// turns sample tags into attributes. It is used by one goroutine only (the
// buffer's).
type otelInstruments struct {
	meter                otelmetric.Meter
	prefix               string
	singleCounterForRate bool
	byMetric             map[*metrics.Metric]otelInstrument
	// kvs is reused for the attributes of each sample.
	kvs []attribute.KeyValue
}

func newOtelInstruments(meter otelmetric.Meter, cfg otelConfig) *otelInstruments {
	return &otelInstruments{meter: meter, prefix: cfg.prefix, singleCounterForRate: cfg.singleCounterForRate,
		byMetric: map[*metrics.Metric]otelInstrument{}}
}

// record adds one sample to its metric's instrument; every tag with a
// non-empty value becomes an attribute.
func (in *otelInstruments) record(ctx context.Context, s metrics.Sample) error {
	inst, err := in.instrument(s.Metric)
	if err != nil {
		return err
	}
	in.kvs = in.kvs[:0]
	for k, v := range s.Tags {
		if v != "" {
			in.kvs = append(in.kvs, attribute.String(k, v))
		}
	}
	inst.record(ctx, s.Value, in.kvs)
	return nil
}

// instrument returns the metric's instrument, creating it the first time.
func (in *otelInstruments) instrument(m *metrics.Metric) (otelInstrument, error) {
	if inst, ok := in.byMetric[m]; ok {
		return inst, nil
	}
	inst, err := in.create(m)
	if err != nil {
		return nil, fmt.Errorf("metric %s: %w", m.Name, err)
	}
	in.byMetric[m] = inst
	return inst, nil
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

func (o otelCounter) record(ctx context.Context, v float64, kvs []attribute.KeyValue) {
	o.c.Add(ctx, v, otelmetric.WithAttributes(kvs...))
}

type otelGauge struct{ g otelmetric.Float64Gauge }

func (o otelGauge) record(ctx context.Context, v float64, kvs []attribute.KeyValue) {
	o.g.Record(ctx, v, otelmetric.WithAttributes(kvs...))
}

type otelHistogram struct{ h otelmetric.Float64Histogram }

func (o otelHistogram) record(ctx context.Context, v float64, kvs []attribute.KeyValue) {
	o.h.Record(ctx, v, otelmetric.WithAttributes(kvs...))
}

// otelRate counts a Rate's samples by condition: "nonzero" for a value
// other than 0, "zero" for 0.
type otelRate struct {
	counter otelmetric.Int64Counter
	kvs     []attribute.KeyValue
}

func (o *otelRate) record(ctx context.Context, v float64, kvs []attribute.KeyValue) {
	cond := "zero"
	if v != 0 {
		cond = "nonzero"
	}
	o.kvs = append(append(o.kvs[:0], kvs...), attribute.String("condition", cond))
	o.counter.Add(ctx, 1, otelmetric.WithAttributes(o.kvs...))
}

// otelRatePair is the legacy form of a Rate: name.occurred counts the
// non-zero samples, name.total all of them.
type otelRatePair struct{ occurred, total otelmetric.Int64Counter }

func (o otelRatePair) record(ctx context.Context, v float64, kvs []attribute.KeyValue) {
	opt := otelmetric.WithAttributes(kvs...)
	if v != 0 {
		o.occurred.Add(ctx, 1, opt)
	}
	o.total.Add(ctx, 1, opt)
}
