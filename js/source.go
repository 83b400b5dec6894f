package js

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/grafana/sobek/parser"
)

// readSource reads the module at path (a file or an http(s) URL) as
// JavaScript: a TypeScript file
// (.ts, .mts, .cts) loses its types, with an inline source map so error
// positions point at the TypeScript lines.
func (b *Bundle) readSource(path string) (string, error) {
	data, err := b.readFile(path)
	if err != nil {
		if isRemote(path) {
			return "", err
		}
		return "", fmt.Errorf("cannot read script: %v", err)
	}
	src := string(data)
	if !isTypeScript(path) {
		return src, nil
	}
	return stripTypes(path, src)
}

func isTypeScript(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return true
	}
	return false
}

// stripTypes transforms TypeScript into JavaScript sobek runs. Imports and
// exports stay as written (no format conversion), so a TypeScript file may
// be an ES module or CommonJS; ES2022 keeps top-level await.
func stripTypes(path, src string) (string, error) {
	res := api.Transform(src, api.TransformOptions{
		Loader:     api.LoaderTS,
		Target:     api.ES2022,
		Sourcemap:  api.SourceMapInline,
		Sourcefile: path,
		LogLevel:   api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		return "", tsError(path, res.Errors[0])
	}
	return string(res.Code), nil
}

// tsError is a TypeScript syntax error as one line naming file:line:column.
func tsError(path string, m api.Message) error {
	if m.Location == nil {
		return fmt.Errorf("SyntaxError: %s: %s", path, m.Text)
	}
	return fmt.Errorf("SyntaxError: %s: %s (%s:%d:%d)", path, m.Text, path, m.Location.Line, m.Location.Column+1)
}

// sourceMaps returns the parser option that loads the source map a file
// names in its sourceMappingURL comment. A map that is missing or is not
// JSON is skipped with one warning naming it, as k6 does, instead of being
// a syntax error; inline (data:) maps sobek decodes itself, and the maps of
// remote modules are not fetched.
func (b *Bundle) sourceMaps() parser.Option {
	return parser.WithSourceMapLoader(func(url string) ([]byte, error) {
		if isRemote(url) {
			return nil, nil // maps of remote modules are not fetched
		}
		path := strings.TrimPrefix(url, "file://")
		data, err := b.readFile(path)
		if err != nil {
			b.warnf("source map %s: %v; error positions are those of the generated file",
				path, unwrapPathError(err))
			return nil, nil
		}
		if !json.Valid(data) {
			b.warnf("source map %s is not JSON; error positions are those of the generated file", path)
			return nil, nil
		}
		return data, nil
	})
}

// unwrapPathError drops the operation and path os errors repeat.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// warnf records a warning once.
func (b *Bundle) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, w := range b.warnings {
		if w == msg {
			return
		}
	}
	b.warnings = append(b.warnings, msg)
}

// Warnings returns what loading the script's files found worth a warning
// (a missing source map), one line each.
func (b *Bundle) Warnings() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.warnings...)
}
