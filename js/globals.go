package js

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// installGlobals defines what every script sees before its code runs:
// __ENV, __VU, __ITER, console, open() and the native module hook.
func (vu *VU) installGlobals() error {
	rt := vu.rt
	env := rt.NewObject()
	for k, v := range vu.state.Run.Env {
		_ = env.Set(k, v)
	}
	for name, v := range map[string]any{
		"__ENV":      env,
		"__VU":       vu.state.VUID,
		"__ITER":     0,
		"console":    vu.console(),
		"open":       vu.open,
		nativeGlobal: vu.nativeExports,
	} {
		if err := rt.Set(name, v); err != nil {
			return err
		}
	}
	return nil
}

// setIterGlobals updates __ITER and overlays a scenario's env on __ENV.
func (vu *VU) setIterGlobals(env map[string]string) {
	_ = vu.rt.Set("__ITER", vu.state.Iteration)
	if len(env) == 0 {
		return
	}
	obj := vu.rt.Get("__ENV").ToObject(vu.rt)
	for k, v := range env {
		_ = obj.Set(k, v)
	}
}

// nativeExports instantiates a native module in this VU on first import
// and returns {default, named}.
func (vu *VU) nativeExports(name string) map[string]any {
	inst, ok := vu.instances[name]
	if !ok {
		inst = modules.Get(name).NewModuleInstance(vu)
		vu.instances[name] = inst
	}
	ex := inst.Exports()
	named := ex.Named
	if named == nil {
		named = map[string]any{}
	}
	return map[string]any{"default": ex.Default, "named": named}
}

// open reads a file relative to the calling module; mode "b" returns an
// ArrayBuffer, anything else a string. Only init code may call it.
func (vu *VU) open(name string, mode ...string) (sobek.Value, error) {
	if !vu.inInit {
		return nil, &InitOnlyError{API: "open()"}
	}
	path := name
	if !filepath.IsAbs(path) {
		base := vu.bundle.ModulePath(vu.rt.GetActiveScriptOrModule())
		path = filepath.Join(filepath.Dir(base), name)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("open(%q): %v", name, err)
	}
	if len(mode) > 0 && mode[0] == "b" {
		return vu.rt.ToValue(vu.rt.NewArrayBuffer(data)), nil
	}
	return vu.rt.ToValue(string(data)), nil
}

// console returns the console object: every method writes one line to the
// run's log, k6-style: `INFO[0001] message  source=console`.
func (vu *VU) console() map[string]any {
	start := time.Now()
	logAt := func(level string) func(sobek.FunctionCall) sobek.Value {
		return func(call sobek.FunctionCall) sobek.Value {
			parts := make([]string, len(call.Arguments))
			for i, a := range call.Arguments {
				parts[i] = vu.formatArg(a)
			}
			secs := int(time.Since(start).Seconds())
			fmt.Fprintf(vu.state.Run.Log, "%s[%04d] %s  source=console\n", level, secs, strings.Join(parts, " "))
			return sobek.Undefined()
		}
	}
	return map[string]any{
		"log": logAt("INFO"), "info": logAt("INFO"), "debug": logAt("DEBU"),
		"warn": logAt("WARN"), "error": logAt("ERRO"),
	}
}

// formatArg renders objects as JSON, like k6's console does.
func (vu *VU) formatArg(v sobek.Value) string {
	if obj, ok := v.(*sobek.Object); ok && obj.ClassName() != "Function" && obj.ClassName() != "Error" {
		if b, err := obj.MarshalJSON(); err == nil {
			return string(b)
		}
	}
	return v.String()
}
