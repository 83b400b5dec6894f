package js

import (
	"fmt"
	"sort"
	"sync"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// nativeRecord is the module record of a native module ("k6", …). It is a
// sobek.CyclicModuleRecord without a body: instantiating it in a VU creates
// the native module instance of that VU, and an import binds a name to the
// instance's export, converted to a JavaScript value on first use. Unlike a
// generated source module it needs no module environment, no evaluation
// promise and no conversion of the exports nobody imports.
type nativeRecord struct {
	name    string
	names   []string // exported names, sorted, with "default"
	bundle  *Bundle
	exports map[string]struct{}
}

var _ sobek.CyclicModuleRecord = (*nativeRecord)(nil)

func newNativeRecord(b *Bundle, name string, named []string) *nativeRecord {
	r := &nativeRecord{name: name, bundle: b, exports: make(map[string]struct{}, len(named)+1)}
	r.exports["default"] = struct{}{}
	for _, n := range named {
		r.exports[n] = struct{}{}
	}
	for n := range r.exports {
		r.names = append(r.names, n)
	}
	sort.Strings(r.names)
	return r
}

func (r *nativeRecord) GetExportedNames(callback func([]string), _ ...sobek.ModuleRecord) bool {
	callback(r.names)
	return true
}

func (r *nativeRecord) ResolveExport(name string, _ ...sobek.ResolveSetElement) (*sobek.ResolvedBinding, bool) {
	if _, ok := r.exports[name]; !ok {
		return nil, false
	}
	return &sobek.ResolvedBinding{Module: r, BindingName: name}, false
}

func (r *nativeRecord) Link() error                  { return nil }
func (r *nativeRecord) InitializeEnvironment() error { return nil }
func (r *nativeRecord) RequestedModules() []string   { return nil }

func (r *nativeRecord) Evaluate(rt *sobek.Runtime) *sobek.Promise {
	return rt.CyclicModuleRecordEvaluate(r, r.bundle.resolve)
}

// Instantiate creates the module instance of the VU whose runtime
// evaluates the bundle.
func (r *nativeRecord) Instantiate(rt *sobek.Runtime) (sobek.CyclicModuleInstance, error) {
	vu := r.bundle.evaluating(rt)
	if vu == nil {
		return nil, fmt.Errorf("module %s: imported outside of a VU's init code", r.name)
	}
	// Exceptions the module throws while it is instantiated reject the
	// evaluation, as they did when the instance was created by module code.
	var mod modules.Instance
	if jsErr := rt.Try(func() { mod = modules.Get(r.name).NewModuleInstance(vu) }); jsErr != nil {
		return nil, jsErr
	}
	return &nativeInstance{rt: rt, mod: mod}, nil
}

// nativeInstance is a native module instantiated in one VU. Its exports
// are asked for when a VU first reads an import: an idle VU holds none.
type nativeInstance struct {
	rt      *sobek.Runtime
	mod     modules.Instance
	exports *modules.Exports
	values  []binding
}

// binding is an export converted to a JavaScript value; a VU imports few
// names of a module, so a slice is smaller than a map.
type binding struct {
	name  string
	value sobek.Value
}

func (i *nativeInstance) HasTLA() bool { return false }

func (i *nativeInstance) ExecuteModule(*sobek.Runtime, func(any) error, func(any) error) (sobek.CyclicModuleInstance, error) {
	return i, nil
}

// GetBindingValue converts an export on first use and keeps the value, so
// every import of a name sees the same object.
func (i *nativeInstance) GetBindingValue(name string) sobek.Value {
	for _, b := range i.values {
		if b.name == name {
			return b.value
		}
	}
	if i.exports == nil {
		ex := i.mod.Exports()
		i.exports = &ex
	}
	v := sobek.Undefined() // a name this VU's instance lacks, as m.named.x was
	if name == "default" {
		v = i.rt.ToValue(i.exports.Default)
	} else if x, ok := i.exports.Named[name]; ok {
		v = i.rt.ToValue(x)
	}
	i.values = append(i.values, binding{name, v})
	return v
}

// evaluations maps the runtimes evaluating a bundle to their VUs, for the
// duration of the evaluation only.
type evaluations struct {
	mu  sync.Mutex
	vus map[*sobek.Runtime]*VU
}

func (b *Bundle) evaluating(rt *sobek.Runtime) *VU {
	b.evals.mu.Lock()
	defer b.evals.mu.Unlock()
	return b.evals.vus[rt]
}

func (b *Bundle) startEvaluation(vu *VU) (done func()) {
	b.evals.mu.Lock()
	if b.evals.vus == nil {
		b.evals.vus = make(map[*sobek.Runtime]*VU)
	}
	b.evals.vus[vu.rt] = vu
	b.evals.mu.Unlock()
	return func() {
		b.evals.mu.Lock()
		delete(b.evals.vus, vu.rt)
		b.evals.mu.Unlock()
	}
}
