package k6

import (
	"errors"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// core is the "k6" module of one VU.
type core struct{ vu modules.VU }

// newCore instantiates the "k6" module in vu.
func newCore(vu modules.VU) modules.Instance { return &core{vu: vu} }

// Exports returns the module's functions, bound to the VU. The VU asks
// for them when the script first reads an import, so an idle VU holds
// only the core.
func (c *core) Exports() modules.Exports {
	named := map[string]any{
		"check": c.check, "group": c.group, "sleep": c.sleep, "fail": c.fail,
		"randomSeed": c.randomSeed,
	}
	return modules.Exports{Default: named, Named: named}
}

var errNoConditions = errors.New("check() needs an object of conditions as its second argument")

var errInit = errors.New("not available in the init context: call it inside an exported function")

// check evaluates each named condition against val, pushes one `checks`
// sample per name and returns true only if all passed. A condition that
// throws records a failure and the exception propagates.
// It is a native function, not a reflected one: scripts call it once or
// more per iteration, and a reflected call allocates its arguments.
func (c *core) check(call sobek.FunctionCall) sobek.Value {
	rt := c.vu.Runtime()
	if c.vu.InInit() {
		panic(rt.NewGoError(errInit))
	}
	val, arg := call.Argument(0), call.Argument(1)
	if sobek.IsUndefined(arg) {
		panic(rt.NewGoError(errNoConditions))
	}
	conds, st := arg.ToObject(rt), c.vu.State() // null throws a TypeError, as in k6
	tags := modules.MergeTags(rt, st.Tags, call.Arguments[min(2, len(call.Arguments)):])
	all := true
	for _, name := range conds.Keys() {
		pass, err := evalCondition(conds.Get(name), val)
		c.record(st, tags, name, pass)
		if err != nil {
			panic(err)
		}
		all = all && pass
	}
	return rt.ToValue(all)
}

func evalCondition(cond, val sobek.Value) (bool, error) {
	fn, ok := sobek.AssertFunction(cond)
	if !ok {
		return cond.ToBoolean(), nil
	}
	res, err := fn(sobek.Undefined(), val)
	if err != nil {
		return false, err
	}
	return res.ToBoolean(), nil
}

func (c *core) record(st *modules.State, tags metrics.Tags, name string, pass bool) {
	st.Group.Check(name).Record(pass)
	v := 0.0
	if pass {
		v = 1
	}
	st.Push(metrics.Sample{Metric: st.Run.Builtin.Checks, Tags: tags.With("check", name), Time: time.Now(), Value: v})
}

// group runs fn inside the named group, tagging samples with the group path
// and emitting group_duration.
func (c *core) group(name string, fn sobek.Callable) (sobek.Value, error) {
	if c.vu.InInit() {
		return nil, errInit
	}
	st := c.vu.State()
	parent, parentTags := st.Group, st.Tags
	g := parent.Group(name)
	st.Group, st.Tags = g, parentTags.With("group", g.Path)
	defer func() { st.Group, st.Tags = parent, parentTags }()
	start := time.Now()
	res, err := fn(sobek.Undefined())
	end := time.Now()
	if err != nil {
		return nil, err
	}
	if _, ok := res.Export().(*sobek.Promise); ok {
		return nil, errors.New("group() does not support async functions: await inside the group is not measured")
	}
	st.Push(metrics.Sample{Metric: st.Run.Builtin.GroupDuration, Tags: st.Tags, Time: end,
		Value: float64(end.Sub(start)) / float64(time.Millisecond)})
	return res, nil
}

// sleep pauses the VU for secs seconds, or until the iteration is stopped.
func (c *core) sleep(secs float64) {
	if secs <= 0 {
		return
	}
	t := time.NewTimer(time.Duration(secs * float64(time.Second)))
	defer t.Stop()
	modules.Blocking(c.vu, func() {
		select {
		case <-t.C:
		case <-c.vu.Context().Done():
		}
	})
}

// fail throws an error with msg, ending the iteration.
func (c *core) fail(msg string) error {
	return errors.New(msg)
}

// randomSeed seeds Math.random of this VU.
func (c *core) randomSeed(seed int64) {
	c.vu.Runtime().SetRandSource(newRandSource(seed))
}
