package web

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/grafana/sobek"
)

//go:embed web.js
var source string

var (
	compileOnce sync.Once
	program     *sobek.Program
	compileErr  error
)

// Globals are the names Install defines.
var Globals = []string{"TextEncoder", "TextDecoder", "URL", "URLSearchParams", "structuredClone"}

// Install defines the globals of Globals in rt.
func Install(rt *sobek.Runtime) error {
	compileOnce.Do(func() { program, compileErr = sobek.Compile("web.js", source, true) })
	if compileErr != nil {
		return compileErr
	}
	factory, err := rt.RunProgram(program)
	if err != nil {
		return err
	}
	build, ok := sobek.AssertFunction(factory)
	if !ok {
		return fmt.Errorf("web.js must evaluate to a function")
	}
	exports, err := build(sobek.Undefined(), rt.ToValue(natives(rt)))
	if err != nil {
		return err
	}
	obj := exports.ToObject(rt)
	for _, name := range Globals {
		if err := rt.GlobalObject().DefineDataProperty(name, obj.Get(name), sobek.FLAG_TRUE, sobek.FLAG_FALSE, sobek.FLAG_TRUE); err != nil {
			return err
		}
	}
	return nil
}

// natives are the Go functions web.js is built on.
func natives(rt *sobek.Runtime) map[string]any {
	return map[string]any{
		"encodeUTF8": func(s string) sobek.ArrayBuffer { return rt.NewArrayBuffer([]byte(s)) },
		"newDecoder": func(fatal, ignoreBOM bool) func(sobek.ArrayBuffer, int, int, bool) string {
			d := newUTF8Decoder(fatal, ignoreBOM)
			return func(buf sobek.ArrayBuffer, off, n int, stream bool) string {
				s, err := d.Decode(buf.Bytes()[off:off+n], stream)
				if err != nil {
					panic(rt.NewTypeError("TextDecoder.decode: %v", err))
				}
				return s
			}
		},
		"parseURL": func(input, base string, hasBase bool) map[string]any {
			if !hasBase {
				base = ""
			} else if base == "" {
				panic(rt.NewTypeError("URL: invalid base URL %q", base))
			}
			p, err := parseURL(input, base)
			if err != nil {
				panic(rt.NewTypeError("URL: invalid URL %q: %v", input, err))
			}
			return p.values()
		},
		"formEncode": formEncode,
		"formDecode": formDecode,
	}
}
