package k6execution

import (
	"errors"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// execution is the "k6/execution" module of one VU.
type execution struct {
	vu modules.VU
	rt *sobek.Runtime
}

func newExecution(vu modules.VU) modules.Instance {
	e := &execution{vu: vu, rt: vu.Runtime()}
	root := e.rt.NewObject()
	named := map[string]any{
		"scenario": e.scenario(), "vu": e.vuInfo(), "instance": e.instance(), "test": e.test(),
	}
	for k, v := range named {
		_ = root.Set(k, v)
	}
	return modules.Static{Default: root, Named: named}
}

// getters defines read-only properties computed on each access.
func (e *execution) getters(props map[string]func() any) *sobek.Object {
	obj := e.rt.NewObject()
	for name, get := range props {
		_ = obj.DefineAccessorProperty(name, e.rt.ToValue(func() any { return get() }), nil, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
	}
	return obj
}

// needIteration throws when called outside an iteration, like k6.
func (e *execution) needIteration(what string) *modules.State {
	st := e.vu.State()
	if e.vu.InInit() {
		panic(e.rt.NewGoError(errors.New(what + " is not available in the init context")))
	}
	return st
}

func (e *execution) scenario() *sobek.Object {
	sc := func() *modules.ScenarioInfo {
		st := e.needIteration("exec.scenario")
		if st.Scenario == nil {
			panic(e.rt.NewGoError(errors.New("exec.scenario is only available inside a scenario's iterations")))
		}
		return st.Scenario
	}
	return e.getters(map[string]func() any{
		"name":                func() any { return sc().Name },
		"executor":            func() any { return sc().Executor },
		"startTime":           func() any { return sc().StartTime.UnixMilli() },
		"progress":            func() any { return sc().Progress() },
		"iterationInInstance": func() any { sc(); return e.vu.State().IterationInInstance },
		"iterationInTest":     func() any { sc(); return e.vu.State().IterationInTest },
		"row":                 func() any { sc(); return e.row() },
	})
}

// row returns the trace-replay iteration's row as a plain object, parsed
// into this VU's runtime on each access (undefined for other executors).
func (e *execution) row() any {
	raw := e.vu.State().Row
	if raw == nil {
		return sobek.Undefined()
	}
	parse, _ := sobek.AssertFunction(e.rt.Get("JSON").ToObject(e.rt).Get("parse"))
	v, err := parse(sobek.Undefined(), e.rt.ToValue(string(raw)))
	if err != nil {
		panic(err)
	}
	return v
}

func (e *execution) vuInfo() *sobek.Object {
	st := func() *modules.State { return e.needIteration("exec.vu") }
	tags := e.rt.NewDynamicObject(&tagsObject{vu: e.vu})
	metadata := e.rt.NewDynamicObject(&metadataObject{vu: e.vu})
	return e.getters(map[string]func() any{
		"idInInstance":        func() any { return st().VUID },
		"idInTest":            func() any { return st().VUIDInTest },
		"iterationInInstance": func() any { return st().Iteration },
		"iterationInScenario": func() any { return st().VUScenarioIteration },
		"tags":                func() any { st(); return tags },
		"metrics":             func() any { st(); return map[string]any{"tags": tags, "metadata": metadata} },
	})
}

func (e *execution) instance() *sobek.Object {
	info := func() modules.ExecutionInfo { return e.vu.State().Run.Info }
	return e.getters(map[string]func() any{
		"iterationsInterrupted":  func() any { return info().IterationsInterrupted() },
		"iterationsCompleted":    func() any { return info().IterationsCompleted() },
		"vusActive":              func() any { return info().VUsActive() },
		"vusInitialized":         func() any { return info().VUsInitialized() },
		"currentTestRunDuration": func() any { return float64(info().Elapsed()) / float64(time.Millisecond) },
	})
}

func (e *execution) test() *sobek.Object {
	obj := e.getters(map[string]func() any{
		"options": func() any { return e.vu.State().Run.Options },
	})
	_ = obj.Set("abort", e.abort)
	_ = obj.Set("fail", e.fail)
	return obj
}

// fail marks the test as failed (exit code 110 at the end) and lets it go
// on, as k6's exec.test.fail() does; the message, if any, is logged.
func (e *execution) fail(msg ...string) {
	reason := ""
	if len(msg) > 0 {
		reason = msg[0]
	}
	if f := e.vu.State().Run.Fail; f != nil {
		f(reason)
	}
}

// abort stops the whole test (exit code 108): the runner is told, and the
// current call is interrupted so no more script code runs in this VU.
func (e *execution) abort(reason ...string) {
	msg := ""
	if len(reason) > 0 {
		msg = reason[0]
	}
	if ab := e.vu.State().Run.Abort; ab != nil {
		ab(msg)
	}
	e.rt.Interrupt(abortError(msg))
}

// tagsObject exposes the VU's tags to JS (exec.vu.tags); writes replace the
// VU's tag set so samples already pushed keep their tags.
type tagsObject struct{ vu modules.VU }

func (t *tagsObject) Get(key string) sobek.Value {
	if v, ok := t.vu.State().Tags[key]; ok {
		return t.vu.Runtime().ToValue(v)
	}
	return nil
}

func (t *tagsObject) Set(key string, val sobek.Value) bool {
	st := t.vu.State()
	st.Tags = st.Tags.With(key, val.String())
	st.VUTags = st.VUTags.With(key, val.String())
	return true
}

func (t *tagsObject) Has(key string) bool { _, ok := t.vu.State().Tags[key]; return ok }

func (t *tagsObject) Delete(key string) bool {
	st := t.vu.State()
	st.Tags, st.VUTags = without(st.Tags, key), without(st.VUTags, key)
	return true
}

func (t *tagsObject) Keys() []string { return metrics.SortedNames(t.vu.State().Tags) }

// metadataObject exposes the VU's metadata to JS
// (exec.vu.metrics.metadata); writes replace the VU's metadata so samples
// already pushed keep theirs.
type metadataObject struct{ vu modules.VU }

func (m *metadataObject) Get(key string) sobek.Value {
	if v, ok := m.vu.State().Metadata[key]; ok {
		return m.vu.Runtime().ToValue(v)
	}
	return nil
}

func (m *metadataObject) Set(key string, val sobek.Value) bool {
	st := m.vu.State()
	st.Metadata = st.Metadata.With(key, val.String())
	return true
}

func (m *metadataObject) Has(key string) bool { _, ok := m.vu.State().Metadata[key]; return ok }

func (m *metadataObject) Delete(key string) bool {
	st := m.vu.State()
	st.Metadata = without(st.Metadata, key)
	return true
}

func (m *metadataObject) Keys() []string { return metrics.SortedNames(m.vu.State().Metadata) }

// abortError is the value a test.abort() interrupt carries; the js package
// recognises it by its AbortReason method.
type abortError string

func (a abortError) Error() string       { return "test aborted: " + string(a) }
func (a abortError) AbortReason() string { return string(a) }

// without returns a copy of tags without key.
func without(tags metrics.Tags, key string) metrics.Tags {
	out := make(metrics.Tags, len(tags))
	for k, v := range tags {
		if k != key {
			out[k] = v
		}
	}
	return out
}
