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

// Globals are the names Build returns and Install defines.
var Globals = []string{"TextEncoder", "TextDecoder", "URL", "URLSearchParams", "structuredClone"}

// Flags are the attributes of the web globals' properties: writable and
// enumerable, not configurable.
var Flags = sobek.PropertyDescriptor{Writable: sobek.FLAG_TRUE, Configurable: sobek.FLAG_FALSE, Enumerable: sobek.FLAG_TRUE}

// Build evaluates the web globals in rt and returns an object that holds
// each of Globals, without defining them: package js defines each one on
// a VU's global object when the script first uses it. The program is
// compiled once per process; each call builds new classes in rt.
func Build(rt *sobek.Runtime) (*sobek.Object, error) {
	compileOnce.Do(func() { program, compileErr = sobek.Compile("web.js", source, true) })
	if compileErr != nil {
		return nil, compileErr
	}
	factory, err := rt.RunProgram(program)
	if err != nil {
		return nil, err
	}
	build, ok := sobek.AssertFunction(factory)
	if !ok {
		return nil, fmt.Errorf("web.js must evaluate to a function")
	}
	exports, err := build(sobek.Undefined(), rt.ToValue(natives(rt)))
	if err != nil {
		return nil, err
	}
	return exports.ToObject(rt), nil
}

// Install defines the globals of Globals in rt at once (see Flags).
func Install(rt *sobek.Runtime) error {
	obj, err := Build(rt)
	if err != nil {
		return err
	}
	for _, name := range Globals {
		if err := rt.GlobalObject().DefineDataProperty(name, obj.Get(name), Flags.Writable, Flags.Configurable, Flags.Enumerable); err != nil {
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
