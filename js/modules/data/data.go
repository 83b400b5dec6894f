package k6data

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// newData is the "k6/data" module: SharedArray.
func newData(vu modules.VU) modules.Instance {
	named := map[string]any{"SharedArray": sharedArray(vu)}
	return modules.Static{Default: named, Named: named}
}

// sharedArray returns the SharedArray constructor: new SharedArray(name, fn)
// calls fn once per run (in the first VU that gets there), keeps each
// element as JSON, and gives every VU a read-only view of the same data.
func sharedArray(vu modules.VU) func(sobek.ConstructorCall) *sobek.Object {
	return func(call sobek.ConstructorCall) *sobek.Object {
		rt := vu.Runtime()
		if !vu.InInit() {
			panic(rt.NewGoError(errors.New("new SharedArray(): only available in the init context")))
		}
		name := call.Argument(0).String()
		fn, ok := sobek.AssertFunction(call.Argument(1))
		if name == "" || !ok {
			panic(rt.NewGoError(errors.New("new SharedArray(name, fn): a non-empty name and a function returning an array are required")))
		}
		data, err := vu.State().Run.Shared.GetOrBuild("SharedArray:"+name, func() (any, error) {
			return buildShared(rt, fn)
		})
		if err != nil {
			panic(rt.NewGoError(fmt.Errorf("SharedArray %q: %w", name, err)))
		}
		parse, _ := sobek.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
		return rt.NewDynamicArray(&sharedView{rt: rt, elems: data.([]string), parse: parse})
	}
}

// buildShared runs fn and serialises each element of its array result.
func buildShared(rt *sobek.Runtime, fn sobek.Callable) (any, error) {
	res, err := fn(sobek.Undefined())
	if err != nil {
		return nil, err
	}
	obj, ok := res.(*sobek.Object)
	if !ok || obj.ClassName() != "Array" {
		return nil, errors.New("the function must return an array")
	}
	n := int(obj.Get("length").ToInteger())
	elems := make([]string, n)
	for i := range n {
		b, err := json.Marshal(obj.Get(fmt.Sprint(i)).Export())
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		elems[i] = string(b)
	}
	return elems, nil
}

// sharedView is one VU's read-only view of a SharedArray.
type sharedView struct {
	rt    *sobek.Runtime
	elems []string
	parse sobek.Callable
}

func (s *sharedView) Len() int { return len(s.elems) }

func (s *sharedView) Get(i int) sobek.Value {
	if i < 0 || i >= len(s.elems) {
		return sobek.Undefined()
	}
	v, err := s.parse(sobek.Undefined(), s.rt.ToValue(s.elems[i]))
	if err != nil {
		panic(err)
	}
	return v
}

func (s *sharedView) Set(int, sobek.Value) bool {
	panic(s.rt.NewTypeError("SharedArray is read-only"))
}

func (s *sharedView) SetLen(int) bool {
	panic(s.rt.NewTypeError("SharedArray is read-only"))
}
