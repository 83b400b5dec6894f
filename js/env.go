package js

import (
	"slices"
	"sort"

	"github.com/grafana/sobek"
)

// envObject is __ENV: a view of the run's environment, shared read-only
// by every VU, with this VU's changes on top. Scripts see an ordinary
// object (properties can be read, set, added and deleted), but a VU holds
// no copy of the environment until the script changes it.
type envObject struct {
	rt   *sobek.Runtime
	base map[string]string
	// own holds the values the script set.
	own map[string]sobek.Value
	// hidden holds the base keys deleted or set again after a delete.
	hidden map[string]struct{}
	// added lists the keys of own not listed among the base keys, in the
	// order they were added.
	added []string
}

var _ sobek.DynamicObject = (*envObject)(nil)

func (e *envObject) inBase(key string) bool {
	if _, ok := e.base[key]; !ok {
		return false
	}
	_, hidden := e.hidden[key]
	return !hidden
}

func (e *envObject) Get(key string) sobek.Value {
	if v, ok := e.own[key]; ok {
		return v
	}
	if e.inBase(key) {
		return e.rt.ToValue(e.base[key])
	}
	return nil
}

func (e *envObject) Set(key string, val sobek.Value) bool {
	if _, ok := e.own[key]; !ok && !e.inBase(key) {
		e.added = append(e.added, key)
	}
	if e.own == nil {
		e.own = make(map[string]sobek.Value)
	}
	e.own[key] = val
	return true
}

func (e *envObject) Has(key string) bool {
	_, ok := e.own[key]
	return ok || e.inBase(key)
}

func (e *envObject) Delete(key string) bool {
	if _, ok := e.own[key]; ok {
		delete(e.own, key)
		if i := slices.Index(e.added, key); i >= 0 {
			e.added = slices.Delete(e.added, i, i+1)
		}
	}
	if _, ok := e.base[key]; ok {
		if e.hidden == nil {
			e.hidden = make(map[string]struct{})
		}
		e.hidden[key] = struct{}{}
	}
	return true
}

// Keys lists the environment's keys, sorted, then the keys the script
// added, in order.
func (e *envObject) Keys() []string {
	keys := make([]string, 0, len(e.base)+len(e.added))
	for k := range e.base {
		if e.inBase(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return append(keys, e.added...)
}
