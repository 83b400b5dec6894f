// Package js runs test scripts: it parses a script and its imports once as
// ES modules (the Bundle), then evaluates them in one sobek runtime per
// virtual user (the VU), each with its own event loop.
package js

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// Bundle is a script parsed and linked once; VUs evaluate it.
type Bundle struct {
	// Path is the absolute path of the main script.
	Path string

	main    sobek.CyclicModuleRecord
	mu      sync.Mutex
	records map[string]sobek.ModuleRecord
	paths   map[sobek.ModuleRecord]string
	evals   evaluations
}

// NewBundle reads, parses and links the script at path with its imports.
// Syntax errors name file:line:column.
func NewBundle(path string) (*Bundle, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	b := &Bundle{
		Path:    abs,
		records: make(map[string]sobek.ModuleRecord),
		paths:   make(map[sobek.ModuleRecord]string),
	}
	rec, err := b.load(abs)
	if err != nil {
		return nil, err
	}
	main, ok := rec.(sobek.CyclicModuleRecord)
	if !ok {
		return nil, fmt.Errorf("%s: not an ES module", path)
	}
	if err := main.Link(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	b.main = main
	return b, nil
}

// resolve is sobek's HostResolveImportedModuleFunc: it maps an import
// specifier, relative to the importing module, to its record.
func (b *Bundle) resolve(ref any, specifier string) (sobek.ModuleRecord, error) {
	if modules.Get(specifier) != nil {
		return b.native(specifier)
	}
	if strings.HasPrefix(specifier, "k6") {
		return nil, fmt.Errorf("module %q is not supported by usefullatency (supported: %s)",
			specifier, strings.Join(modules.Names(), ", "))
	}
	if !strings.HasPrefix(specifier, ".") && !strings.HasPrefix(specifier, "/") &&
		!strings.HasPrefix(specifier, "file://") {
		return nil, fmt.Errorf("cannot import %q: only relative paths and built-in modules are supported", specifier)
	}
	return b.load(b.pathFor(ref, specifier))
}

// pathFor resolves specifier against the directory of the importing module.
func (b *Bundle) pathFor(ref any, specifier string) string {
	specifier = strings.TrimPrefix(specifier, "file://")
	if filepath.IsAbs(specifier) {
		return filepath.Clean(specifier)
	}
	dir := filepath.Dir(b.Path)
	if rec, ok := ref.(sobek.ModuleRecord); ok {
		b.mu.Lock()
		if p, ok := b.paths[rec]; ok {
			dir = filepath.Dir(p)
		}
		b.mu.Unlock()
	}
	return filepath.Join(dir, specifier)
}

// ModulePath returns the file of a module record, or the main script's.
func (b *Bundle) ModulePath(rec any) string {
	if r, ok := rec.(sobek.ModuleRecord); ok {
		b.mu.Lock()
		defer b.mu.Unlock()
		if p, ok := b.paths[r]; ok {
			return p
		}
	}
	return b.Path
}

func (b *Bundle) load(path string) (sobek.ModuleRecord, error) {
	b.mu.Lock()
	if rec, ok := b.records[path]; ok {
		b.mu.Unlock()
		return rec, nil
	}
	b.mu.Unlock()
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read script: %v", err)
	}
	rec, err := sobek.ParseModule(path, string(src), b.resolve)
	if err != nil {
		return nil, syntaxError(err)
	}
	return b.remember(path, rec), nil
}

func (b *Bundle) remember(key string, rec sobek.ModuleRecord) sobek.ModuleRecord {
	b.mu.Lock()
	defer b.mu.Unlock()
	if old, ok := b.records[key]; ok {
		return old
	}
	b.records[key] = rec
	b.paths[rec] = key
	return rec
}

// native returns the record of a native module, so native modules link
// like any other module.
func (b *Bundle) native(name string) (sobek.ModuleRecord, error) {
	b.mu.Lock()
	rec, ok := b.records[name]
	b.mu.Unlock()
	if ok {
		return rec, nil
	}
	names, err := exportNames(name)
	if err != nil {
		return nil, err
	}
	return b.remember(name, newNativeRecord(b, name, names)), nil
}

// exportNames instantiates the module once in a throwaway init VU to learn
// the names it exports; modules export the same names in every VU.
func exportNames(name string) (names []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("module %s: %v", name, r)
		}
	}()
	probe := &VU{rt: sobek.New(), inInit: true, loop: NewEventLoop(), state: &modules.State{}}
	inst := modules.Get(name).NewModuleInstance(probe)
	for n := range inst.Exports().Named {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

// syntaxError turns a parse error into one line naming file:line:column.
func syntaxError(err error) error {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i > 0 {
		msg = msg[:i]
	}
	if !strings.HasPrefix(msg, "SyntaxError") {
		msg = "SyntaxError: " + msg
	}
	return errors.New(msg)
}
