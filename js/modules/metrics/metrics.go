package k6metrics

import (
	"fmt"
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
		_ = obj.Set("add", func(value sobek.Value, tags ...sobek.Value) (bool, error) {
			return add(vu, m, value, tags)
		})
		return nil
	}
}

// add pushes one sample of m with the VU's tags plus the given ones.
func add(vu modules.VU, m *metrics.Metric, value sobek.Value, tags []sobek.Value) (bool, error) {
	if vu.InInit() {
		return false, fmt.Errorf("%s.add(): metrics can't be added to in the init context", m.Name)
	}
	v := value.ToFloat()
	if value.ExportType() != nil && value.ExportType().Kind().String() == "bool" {
		v = 0
		if value.ToBoolean() {
			v = 1
		}
	}
	st := vu.State()
	st.Push(metrics.Sample{Metric: m, Tags: modules.MergeTags(vu.Runtime(), st.Tags, tags), Time: time.Now(), Value: v})
	return true, nil
}

func typeTitle(t metrics.MetricType) string {
	s := t.String()
	return string(s[0]-32) + s[1:]
}
