package k6metrics

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// newMetrics is the "k6/metrics" module: Counter, Gauge, Rate and Trend
// constructors, usable only in init code.
func newMetrics(vu modules.VU) modules.Instance {
	named := map[string]any{
		"Counter": constructor(vu, metrics.Counter),
		"Gauge":   constructor(vu, metrics.Gauge),
		"Rate":    constructor(vu, metrics.Rate),
		"Trend":   constructor(vu, metrics.Trend),
	}
	return modules.Static{Default: named, Named: named}
}

// constructor returns the JS constructor of one metric type:
// new Trend(name, isTime) and friends.
func constructor(vu modules.VU, typ metrics.MetricType) func(sobek.ConstructorCall) *sobek.Object {
	return func(call sobek.ConstructorCall) *sobek.Object {
		rt := vu.Runtime()
		if !vu.InInit() {
			panic(rt.NewGoError(fmt.Errorf("new %s(): metrics must be created in the init context (top-level code)", typeTitle(typ))))
		}
		name := call.Argument(0).String()
		vt := metrics.Default
		if call.Argument(1).ToBoolean() {
			vt = metrics.Time
		}
		m, err := vu.State().Run.Registry.NewMetric(name, typ, vt)
		if err != nil {
			panic(rt.NewGoError(err))
		}
		obj := call.This
		_ = obj.Set("name", name)
		// A native function, not a reflected one: add runs once or more
		// per iteration, and reflection's call costs allocations each time.
		_ = obj.Set("add", func(call sobek.FunctionCall) sobek.Value {
			ok, err := add(vu, m, call.Argument(0), call.Arguments[min(1, len(call.Arguments)):])
			if err != nil {
				panic(rt.NewGoError(err))
			}
			return rt.ToValue(ok)
		})
		return nil
	}
}

// add pushes one sample of m with the VU's tags plus the given ones. A
// value that is not a number (undefined, null, NaN, a string that is not
// one) is dropped and add returns false, as in k6: with the throw option
// it throws, otherwise the first one per metric is logged as a warning.
func add(vu modules.VU, m *metrics.Metric, value sobek.Value, tags []sobek.Value) (bool, error) {
	if vu.InInit() {
		return false, fmt.Errorf("%s.add(): metrics can't be added to in the init context", m.Name)
	}
	v, ok := sampleValue(value)
	if !ok {
		return false, invalidValue(vu, m, value)
	}
	st := vu.State()
	st.Push(metrics.Sample{Metric: m, Tags: modules.MergeTags(vu.Runtime(), st.Tags, tags), Time: time.Now(), Value: v})
	return true, nil
}

// sampleValue reads a sample's value: a number, or a boolean as 1 or 0.
// ok is false for undefined, null and anything that is NaN as a number.
func sampleValue(value sobek.Value) (v float64, ok bool) {
	if value == nil || sobek.IsUndefined(value) || sobek.IsNull(value) {
		return 0, false
	}
	if value.ExportType() != nil && value.ExportType().Kind() == reflect.Bool {
		if value.ToBoolean() {
			return 1, true
		}
		return 0, true
	}
	v = value.ToFloat()
	return v, !math.IsNaN(v)
}

// warnedInvalid holds the metrics whose first invalid value was logged.
// Metrics are created per run, so their pointers never collide.
var warnedInvalid sync.Map

// invalidValue reports a dropped sample: an exception when the throw
// option is on, else one warning line per metric.
func invalidValue(vu modules.VU, m *metrics.Metric, value sobek.Value) error {
	msg := fmt.Sprintf("%s.add(): %q is not a valid value (want a number or a boolean); the sample was dropped",
		m.Name, value.String())
	run := vu.State().Run
	if throw, _ := run.Options["throw"].(bool); throw {
		return errors.New(msg)
	}
	if _, seen := warnedInvalid.LoadOrStore(m, true); !seen && run.Log != nil {
		fmt.Fprintf(run.Log, "WARN %s; later invalid values of %s are dropped silently\n", msg, m.Name)
	}
	return nil
}

func typeTitle(t metrics.MetricType) string {
	s := t.String()
	return string(s[0]-32) + s[1:]
}
