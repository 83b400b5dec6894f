package js

import (
	"fmt"

	"github.com/grafana/sobek"
)

// errOutsideInit is the error of a module loaded after init code ended.
func errOutsideInit(what string) error {
	return fmt.Errorf("module %s: loaded outside of a VU's init code", what)
}

// requireFrom returns the require function of the module file: it loads a
// file relative to it, a URL or a built-in module, and returns what a
// CommonJS file set as module.exports, or an ES module's namespace object.
// Only init code may call it, as in k6.
func (vu *VU) requireFrom(file string) sobek.Value {
	return vu.rt.ToValue(func(specifier string) (sobek.Value, error) {
		return vu.require(file, specifier)
	})
}

// requireGlobal is the global require: relative specifiers resolve against
// the calling ES module's file.
func (vu *VU) requireGlobal(specifier string) (sobek.Value, error) {
	return vu.require(vu.callerPath(), specifier)
}

// callerPath is the file of the code that runs: the ES module sobek
// reports as active, else the innermost frame of a file the bundle loaded
// (a CommonJS file, whose functions sobek knows by program only).
func (vu *VU) callerPath() string {
	if m, ok := vu.rt.GetActiveScriptOrModule().(sobek.ModuleRecord); ok {
		return vu.bundle.ModulePath(m)
	}
	for _, f := range vu.rt.CaptureCallStack(0, nil) {
		if name := f.SrcName(); vu.bundle.loaded(name) {
			return name
		}
	}
	return vu.bundle.Path
}

func (vu *VU) require(importer, specifier string) (sobek.Value, error) {
	if !vu.inInit {
		return nil, &InitOnlyError{API: "require()"}
	}
	rec, err := vu.bundle.resolveFrom(importer, specifier)
	if err != nil {
		return nil, fmt.Errorf("require(%q): %v", specifier, err)
	}
	if cjs, ok := rec.(*cjsRecord); ok {
		inst := vu.commonJS(cjs)
		if err := inst.run(); err != nil {
			return nil, err
		}
		return inst.exports(), nil
	}
	cyclic, ok := rec.(sobek.CyclicModuleRecord)
	if !ok {
		return nil, fmt.Errorf("require(%q): not a module", specifier)
	}
	if err := vu.bundle.link(cyclic); err != nil {
		return nil, fmt.Errorf("require(%q): %v", specifier, err)
	}
	promise := vu.rt.CyclicModuleRecordEvaluate(cyclic, vu.bundle.resolve)
	if promise.State() == sobek.PromiseStateRejected {
		panic(promise.Result())
	}
	return vu.rt.NamespaceObjectFor(rec), nil
}
