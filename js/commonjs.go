package js

import (
	"path/filepath"

	"github.com/grafana/sobek"
	"github.com/grafana/sobek/parser"
)

// cjsWrapperHead and cjsWrapperTail turn a CommonJS file into a function
// of its module variables. The head keeps the file's first line on line 1,
// so only columns of that line shift; the tail's own line is one sobek's
// source-map lookup skips.
const (
	cjsWrapperHead = "(function (exports, require, module, __filename, __dirname) {"
	cjsWrapperTail = "\n})"
)

// cjsRecord is the module record of a CommonJS file: a script whose
// top-level code runs as a function of (exports, require, module,
// __filename, __dirname). It is compiled once per bundle; every VU runs it
// once. Imported from an ES module, its default export is module.exports
// (its default property when it is marked __esModule) and any other name
// is the property of module.exports with that name.
type cjsRecord struct {
	path   string
	prg    *sobek.Program
	bundle *Bundle
}

var _ sobek.CyclicModuleRecord = (*cjsRecord)(nil)

// compileCommonJS compiles src, the source of path, as a CommonJS module
// in sloppy mode, as Node.js and k6 run such files.
func compileCommonJS(b *Bundle, path, src string, opts ...parser.Option) (*cjsRecord, error) {
	ast, err := sobek.Parse(path, cjsWrapperHead+src+cjsWrapperTail, opts...)
	if err != nil {
		return nil, err
	}
	prg, err := sobek.CompileAST(ast, false)
	if err != nil {
		return nil, err
	}
	return &cjsRecord{path: path, prg: prg, bundle: b}, nil
}

func (r *cjsRecord) GetExportedNames(callback func([]string), _ ...sobek.ModuleRecord) bool {
	callback([]string{"default"})
	return true
}

// ResolveExport binds every name: which properties module.exports will
// have is known only once the file ran.
func (r *cjsRecord) ResolveExport(name string, _ ...sobek.ResolveSetElement) (*sobek.ResolvedBinding, bool) {
	return &sobek.ResolvedBinding{Module: r, BindingName: name}, false
}

func (r *cjsRecord) Link() error                  { return nil }
func (r *cjsRecord) InitializeEnvironment() error { return nil }
func (r *cjsRecord) RequestedModules() []string   { return nil }

func (r *cjsRecord) Evaluate(rt *sobek.Runtime) *sobek.Promise {
	return rt.CyclicModuleRecordEvaluate(r, r.bundle.resolve)
}

// Instantiate returns the VU's instance of the file, the one require()
// also uses, so a file imported and required runs once.
func (r *cjsRecord) Instantiate(rt *sobek.Runtime) (sobek.CyclicModuleInstance, error) {
	vu := r.bundle.evaluating(rt)
	if vu == nil {
		return nil, errOutsideInit(r.path)
	}
	return vu.commonJS(r), nil
}

// cjsInstance is a CommonJS file in one VU: its module object once it ran.
type cjsInstance struct {
	vu      *VU
	record  *cjsRecord
	started bool
	module  *sobek.Object
}

// commonJS returns the VU's instance of r, creating it on first use.
func (vu *VU) commonJS(r *cjsRecord) *cjsInstance {
	if inst, ok := vu.cjs[r]; ok {
		return inst
	}
	if vu.cjs == nil {
		vu.cjs = make(map[*cjsRecord]*cjsInstance)
	}
	inst := &cjsInstance{vu: vu, record: r}
	vu.cjs[r] = inst
	return inst
}

func (i *cjsInstance) HasTLA() bool { return false }

func (i *cjsInstance) ExecuteModule(*sobek.Runtime, func(any) error, func(any) error) (sobek.CyclicModuleInstance, error) {
	return i, i.run()
}

// run runs the file's top-level code once. A require() cycle sees the
// exports as they are when it happens, as in Node.js.
func (i *cjsInstance) run() error {
	if i.started {
		return nil
	}
	i.started = true
	rt := i.vu.rt
	i.module = rt.NewObject()
	exports := rt.NewObject()
	_ = i.module.Set("exports", exports)
	fnValue, err := rt.RunProgram(i.record.prg)
	if err != nil {
		return err
	}
	fn, _ := sobek.AssertFunction(fnValue)
	path := i.record.path
	_, err = fn(exports, exports, i.vu.requireFrom(path), i.module,
		rt.ToValue(path), rt.ToValue(filepath.Dir(path)))
	return err
}

// exports returns module.exports.
func (i *cjsInstance) exports() sobek.Value {
	if i.module == nil {
		return sobek.Undefined()
	}
	return i.module.Get("exports")
}

// GetBindingValue returns the default export for "default" (see
// defaultExport) and the property name of module.exports otherwise.
func (i *cjsInstance) GetBindingValue(name string) sobek.Value {
	ex := i.exports()
	if name == "default" {
		return i.defaultExport(ex)
	}
	return property(i.vu.rt, ex, name)
}

// defaultExport is what an ES module's default import of this CommonJS
// file gets, as in k6: module.exports, or its default property when the
// file marks itself as compiled from an ES module (__esModule, as esbuild,
// Babel and TypeScript do), so `import chai from 'k6chaijs.js'` is the
// bundle's default export and not its exports object.
func (i *cjsInstance) defaultExport(ex sobek.Value) sobek.Value {
	if marked := property(i.vu.rt, ex, "__esModule"); marked != nil && marked.ToBoolean() {
		if d := property(i.vu.rt, ex, "default"); d != nil && !sobek.IsUndefined(d) {
			return d
		}
	}
	return ex
}

// mainExport is what a CommonJS main script exports under name: the
// property of module.exports (webpack and Babel put the default function
// at exports.default), or module.exports itself when it is the default
// function.
func (i *cjsInstance) mainExport(name string) sobek.Value {
	ex := i.exports()
	v := property(i.vu.rt, ex, name)
	if name == "default" && (v == nil || sobek.IsUndefined(v)) {
		if _, ok := sobek.AssertFunction(ex); ok {
			return ex
		}
	}
	return v
}

// property returns v[name], or undefined when v is not an object.
func property(rt *sobek.Runtime, v sobek.Value, name string) sobek.Value {
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return sobek.Undefined()
	}
	return v.ToObject(rt).Get(name)
}
