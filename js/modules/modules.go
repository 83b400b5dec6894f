// Package modules is the registry of native JavaScript modules ("k6",
// "k6/metrics", "k6/x/usefulsse", …) and the interface a module sees of the
// virtual user it is instantiated in. Extensions register here from an
// init function, the way an xk6 extension registers into k6.
package modules

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/grafana/sobek"
)

// Module is a native module. NewModuleInstance is called once per VU, while
// the VU's init code runs.
type Module interface {
	NewModuleInstance(vu VU) Instance
}

// ModuleFunc adapts a constructor function to Module.
type ModuleFunc func(vu VU) Instance

// NewModuleInstance calls f.
func (f ModuleFunc) NewModuleInstance(vu VU) Instance { return f(vu) }

// Instance is a module instantiated in one VU.
type Instance interface {
	Exports() Exports
}

// Exports are the values a module exports: Default is the default export and
// Named the named ones. The set of names must be the same for every VU.
type Exports struct {
	Default any
	Named   map[string]any
}

// VU is what a native module sees of the virtual user it runs in.
type VU interface {
	// Runtime returns the VU's JavaScript runtime. It must only be used on
	// the VU's goroutine (inside calls from JavaScript or loop callbacks).
	Runtime() *sobek.Runtime
	// Context is canceled when the current iteration must stop.
	Context() context.Context
	// InInit reports whether the VU runs init code (module evaluation).
	InInit() bool
	// State returns the VU's run state: its ids, tags, group and metrics.
	State() *State
	// RegisterCallback reserves a slot on the VU's event loop: the loop
	// keeps running until the returned function is called, from any
	// goroutine, with a callback that then runs on the loop.
	RegisterCallback() func(func() error)
	// ResolvePath returns the absolute path of a file named as open()
	// names it: a relative name is resolved against the directory of the
	// calling module.
	ResolvePath(name string) string
	// ReadFile reads the file at an absolute path as open() reads it: from
	// the test's archive when it runs one, else from the disk, and records
	// it for `usefullatency archive`. An error for a missing file wraps
	// fs.ErrNotExist.
	ReadFile(path string) ([]byte, error)
}

var (
	mu       sync.RWMutex
	registry = map[string]Module{}
)

// Register makes m importable under name. It panics when the name is taken:
// that is a programming error.
func Register(name string, m Module) {
	mu.Lock()
	defer mu.Unlock()
	if _, ok := registry[name]; ok {
		panic(fmt.Sprintf("modules: %q registered twice", name))
	}
	registry[name] = m
}

// Get returns the module registered under name, or nil.
func Get(name string) Module {
	mu.RLock()
	defer mu.RUnlock()
	return registry[name]
}

// Names returns the registered module names, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
