// Package js runs test scripts: it parses a script and its imports once
// (the Bundle) — ES modules, CommonJS files and TypeScript stripped of its
// types — then evaluates them in one sobek runtime per virtual user (the
// VU), each with its own event loop.
package js

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/grafana/sobek"
	"github.com/grafana/sobek/parser"
	"github.com/usefullatency/usefullatency/js/modules"
)

// Bundle is a script parsed and linked once; VUs evaluate it.
type Bundle struct {
	// Path is the absolute path of the main script.
	Path string

	cfg     Config
	main    sobek.CyclicModuleRecord
	mu      sync.Mutex
	records map[string]sobek.ModuleRecord
	paths   map[sobek.ModuleRecord]string
	evals   evaluations
	// linkMu serializes linking modules required at run time by VUs.
	linkMu   sync.Mutex
	linked   map[sobek.ModuleRecord]bool
	warnings []string
	// exports are the main module's exports resolved so far, by name
	// (*sobek.ResolvedBinding, nil for a name it does not export): every
	// iteration looks its function up, and resolving allocates.
	exports sync.Map
}

// resolveExport returns where the main module's export name is bound, or
// nil; the same for every VU, resolved once.
func (b *Bundle) resolveExport(name string) *sobek.ResolvedBinding {
	if v, ok := b.exports.Load(name); ok {
		return v.(*sobek.ResolvedBinding)
	}
	binding, _ := b.main.ResolveExport(name)
	b.exports.Store(name, binding)
	return binding
}

// Config is where a bundle reads its files and how it loads remote
// modules. The zero value reads the disk, fetches remote modules with a
// 60 s timeout and keeps no disk cache.
type Config struct {
	// Files, when set, serves every file and remote module the bundle
	// reads (imports, require(), open(), source maps) instead of the disk
	// and the network: the files of an archive.
	Files Files
	// OnRead, when set, is called with every file and remote module the
	// bundle reads, each time it reads one; an archive is made of them.
	OnRead func(name string, data []byte)
	// HTTPClient fetches https:// and http:// modules; nil is a client
	// with a 60 s timeout.
	HTTPClient *http.Client
	// CacheDir keeps every fetched module for later runs, which use it
	// when a fetch fails; "" keeps none. DefaultCacheDir is the usual one.
	CacheDir string
	// Offline serves remote modules from CacheDir only: none is fetched,
	// and one that is not cached fails the load at once.
	Offline bool
	// MaxFileSize is the largest local file the bundle reads, in bytes;
	// zero is DefaultMaxFileSize (1 GiB). See ReadLocalFile.
	MaxFileSize int64
	// Secrets are the run's secret sources (--secret-source), which the
	// runner hands to its VUs as modules.Run.Secrets for k6/secrets; the
	// bundle does not use them. nil is no source.
	Secrets modules.Secrets
}

// NewBundle reads, parses and links the script at path with its imports,
// caching remote modules in DefaultCacheDir. Syntax errors name
// file:line:column.
func NewBundle(path string) (*Bundle, error) {
	return NewBundleConfig(path, Config{CacheDir: DefaultCacheDir()})
}

// NewBundleConfig is NewBundle with cfg for remote modules.
func NewBundleConfig(path string, cfg Config) (*Bundle, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	b := &Bundle{
		cfg:     cfg,
		Path:    abs,
		records: make(map[string]sobek.ModuleRecord),
		paths:   make(map[sobek.ModuleRecord]string),
		linked:  make(map[sobek.ModuleRecord]bool),
	}
	rec, err := b.load(abs)
	if err != nil {
		return nil, err
	}
	main, ok := rec.(sobek.CyclicModuleRecord)
	if !ok {
		return nil, fmt.Errorf("%s: not an ES module", path)
	}
	if err := b.link(main); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	b.main = main
	return b, nil
}

// link links rec once; VUs may require a file nothing imported.
func (b *Bundle) link(rec sobek.CyclicModuleRecord) error {
	b.linkMu.Lock()
	defer b.linkMu.Unlock()
	if b.linked[rec] {
		return nil
	}
	if err := rec.Link(); err != nil {
		return err
	}
	b.linked[rec] = true
	return nil
}

// resolve is sobek's HostResolveImportedModuleFunc: it maps an import
// specifier, relative to the importing module, to its record.
func (b *Bundle) resolve(ref any, specifier string) (sobek.ModuleRecord, error) {
	return b.resolveFrom(b.ModulePath(ref), specifier)
}

// resolveFrom maps a specifier to its record: a built-in or extension
// module by name, an http(s) URL, or a file relative to the importing
// module (a file path or a URL) or absolute.
func (b *Bundle) resolveFrom(importer, specifier string) (sobek.ModuleRecord, error) {
	if modules.Get(specifier) != nil {
		return b.native(specifier)
	}
	if strings.HasPrefix(specifier, "k6") {
		return nil, fmt.Errorf("module %q is not supported by usefullatency (supported: %s)",
			specifier, strings.Join(modules.Names(), ", "))
	}
	if isRemote(specifier) {
		return b.load(specifier)
	}
	if !strings.HasPrefix(specifier, ".") && !strings.HasPrefix(specifier, "/") &&
		!strings.HasPrefix(specifier, "file://") {
		return nil, fmt.Errorf("cannot import %q: only relative paths, URLs and built-in modules are supported", specifier)
	}
	if isRemote(importer) && !strings.HasPrefix(specifier, "file://") {
		base, err := url.Parse(importer)
		if err != nil {
			return nil, err
		}
		ref, err := url.Parse(specifier)
		if err != nil {
			return nil, fmt.Errorf("cannot import %q: %v", specifier, err)
		}
		return b.load(base.ResolveReference(ref).String())
	}
	specifier = strings.TrimPrefix(specifier, "file://")
	if filepath.IsAbs(specifier) {
		return b.load(filepath.Clean(specifier))
	}
	return b.load(filepath.Join(filepath.Dir(importer), specifier))
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
	src, err := b.readSource(path)
	if err != nil {
		return nil, err
	}
	rec, err := b.parse(path, src)
	if err != nil {
		return nil, err
	}
	return b.remember(path, rec), nil
}

// parse parses src as an ES module; a file without import, export or
// top-level await is CommonJS, as in k6. A file neither parser accepts
// reports the ES module syntax error.
func (b *Bundle) parse(path, src string) (sobek.CyclicModuleRecord, error) {
	ast, esmErr := sobek.Parse(path, src, parser.IsModule, b.sourceMaps())
	if esmErr == nil && (len(ast.ImportEntries) > 0 || len(ast.ExportEntries) > 0 || ast.HasTLA) {
		rec, err := sobek.ModuleFromAST(ast, b.resolve)
		if err != nil {
			return nil, syntaxError(err)
		}
		return rec, nil
	}
	cjs, err := compileCommonJS(b, path, src, b.sourceMaps())
	switch {
	case err == nil:
		return cjs, nil
	case esmErr != nil:
		return nil, syntaxError(esmErr)
	}
	rec, err := sobek.ModuleFromAST(ast, b.resolve)
	if err != nil {
		return nil, syntaxError(err)
	}
	return rec, nil
}

// loaded reports whether path is a file of the bundle.
func (b *Bundle) loaded(path string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.records[path]
	return ok
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
