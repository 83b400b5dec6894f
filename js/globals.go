package js

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/grafana/sobek"
)

// installGlobals makes the VU's global object, whose globals are built
// when the script first uses one (lazyGlobals): __ENV, __VU, __ITER and
// console, open(), require(), crypto (the Web Crypto API: getRandomValues,
// randomUUID and subtle), the timers (setTimeout, clearTimeout,
// setInterval, clearInterval) and the web globals of package web
// (TextEncoder, TextDecoder, URL, URLSearchParams, structuredClone).
func (vu *VU) installGlobals() { vu.global = vu.newGlobalObject() }

// setIterGlobals updates __ITER and overlays a scenario's env on __ENV.
func (vu *VU) setIterGlobals(env map[string]string) {
	vu.global.setIter(vu.state.Iteration)
	if len(env) == 0 {
		return
	}
	obj := vu.rt.Get("__ENV").ToObject(vu.rt)
	for k, v := range env {
		_ = obj.Set(k, v)
	}
}

// open reads a file relative to the calling module; mode "b" returns an
// ArrayBuffer, anything else a string. Only init code may call it.
func (vu *VU) open(name string, mode ...string) (sobek.Value, error) {
	if !vu.inInit {
		return nil, &InitOnlyError{API: "open()"}
	}
	data, err := vu.ReadFile(vu.ResolvePath(name))
	if err != nil {
		return nil, fmt.Errorf("open(%q): %v", name, err)
	}
	if len(mode) > 0 && mode[0] == "b" {
		return vu.rt.ToValue(vu.rt.NewArrayBuffer(data)), nil
	}
	return vu.rt.ToValue(string(data)), nil
}

// ResolvePath returns the absolute path of name: a relative name is
// resolved against the directory of the calling module.
func (vu *VU) ResolvePath(name string) string {
	if filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(filepath.Dir(vu.callerPath()), name)
}

// ReadFile reads path through the bundle: from its archive when it runs
// one, else from the disk; the read is reported to Config.OnRead, so that
// `usefullatency archive` stores the file.
func (vu *VU) ReadFile(path string) ([]byte, error) { return vu.bundle.readFile(path) }

// processStart is when the process started, as far as the console's
// lines count: their [0001] is the seconds since then, as k6's are.
var processStart = time.Now()

// consoleLevels maps the console methods to their log levels.
var consoleLevels = map[string]string{
	"log": "INFO", "info": "INFO", "debug": "DEBU", "warn": "WARN", "error": "ERRO",
}

// consoleMethods are the names of the console methods, sorted.
var consoleMethods = []string{"debug", "error", "info", "log", "warn"}

// console returns the console object: every method writes one line to the
// run's log, k6-style: `INFO[0001] message  source=console`. The methods
// are created when they are read, so an idle VU holds none of them.
func (vu *VU) console() *sobek.Object {
	return vu.rt.NewDynamicObject(&consoleObject{vu: vu})
}

// consoleObject is the console of one VU. Scripts may replace, add and
// delete its properties, as with any object.
type consoleObject struct {
	vu *VU
	// own holds the properties the script set or deleted (nil value).
	own   map[string]sobek.Value
	added []string
}

var _ sobek.DynamicObject = (*consoleObject)(nil)

func (c *consoleObject) Get(key string) sobek.Value {
	if v, ok := c.own[key]; ok {
		return v // nil when deleted
	}
	if level, ok := consoleLevels[key]; ok {
		return c.vu.rt.ToValue(c.logAt(level))
	}
	return nil
}

func (c *consoleObject) Set(key string, val sobek.Value) bool {
	if !c.Has(key) {
		c.added = append(c.added, key)
	}
	if c.own == nil {
		c.own = make(map[string]sobek.Value)
	}
	c.own[key] = val
	return true
}

func (c *consoleObject) Has(key string) bool {
	if v, ok := c.own[key]; ok {
		return v != nil
	}
	_, ok := consoleLevels[key]
	return ok
}

func (c *consoleObject) Delete(key string) bool {
	if !c.Has(key) {
		return true
	}
	if c.own == nil {
		c.own = make(map[string]sobek.Value)
	}
	if _, ok := consoleLevels[key]; ok {
		c.own[key] = nil
	} else {
		delete(c.own, key)
	}
	if i := slices.Index(c.added, key); i >= 0 {
		c.added = slices.Delete(c.added, i, i+1)
	}
	return true
}

func (c *consoleObject) Keys() []string {
	keys := make([]string, 0, len(consoleMethods)+len(c.added))
	for _, k := range consoleMethods {
		if v, ok := c.own[k]; !ok || v != nil {
			keys = append(keys, k)
		}
	}
	for _, k := range c.added {
		if _, ok := consoleLevels[k]; !ok {
			keys = append(keys, k)
		}
	}
	return keys
}

func (c *consoleObject) logAt(level string) func(sobek.FunctionCall) sobek.Value {
	vu := c.vu
	return func(call sobek.FunctionCall) sobek.Value {
		parts := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			parts[i] = vu.formatArg(a)
		}
		secs := int(time.Since(processStart).Seconds())
		fmt.Fprintf(vu.state.Run.Log, "%s[%04d] %s  source=console\n", level, secs, strings.Join(parts, " "))
		return sobek.Undefined()
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
