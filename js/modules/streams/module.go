// Package k6streams is the "k6/experimental/streams" JavaScript module:
// ReadableStream with its default reader and controller, and the
// CountQueuingStrategy and ByteLengthQueuingStrategy of the WHATWG Streams
// Standard. Only default (non-byte) streams exist, as in k6: a "bytes"
// source type and BYOB readers are TypeErrors. The classes are written in
// JavaScript (streams.js, compiled once per process and evaluated once per
// VU), so their promises are the VU runtime's own and settle on its event
// loop. The package is named after the module's import path, like
// k6timers.
package k6streams

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// Name is the module's import specifier.
const Name = "k6/experimental/streams"

// Exported are the names the module exports, as named exports and as the
// default export's properties.
var Exported = []string{
	"ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamDefaultController",
	"CountQueuingStrategy", "ByteLengthQueuingStrategy",
}

//go:embed streams.js
var source string

var (
	compileOnce sync.Once
	program     *sobek.Program
	compileErr  error
)

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newInstance) }

type instance struct{ exports modules.Exports }

var _ modules.Instance = instance{}

func newInstance(vu modules.VU) modules.Instance {
	named, err := build(vu.Runtime())
	if err != nil {
		// streams.js is part of the binary: failing to evaluate it is a
		// programming error, not a script's.
		panic(fmt.Sprintf("%s: %v", Name, err))
	}
	return instance{modules.Exports{Default: named, Named: named}}
}

// Exports returns the classes of Exported.
func (i instance) Exports() modules.Exports { return i.exports }

// build evaluates streams.js in rt and returns its classes by name.
func build(rt *sobek.Runtime) (map[string]any, error) {
	compileOnce.Do(func() { program, compileErr = sobek.Compile("streams.js", source, true) })
	if compileErr != nil {
		return nil, compileErr
	}
	factory, err := rt.RunProgram(program)
	if err != nil {
		return nil, err
	}
	fn, ok := sobek.AssertFunction(factory)
	if !ok {
		return nil, fmt.Errorf("streams.js must evaluate to a function")
	}
	v, err := fn(sobek.Undefined())
	if err != nil {
		return nil, err
	}
	obj := v.ToObject(rt)
	named := make(map[string]any, len(Exported))
	for _, name := range Exported {
		named[name] = obj.Get(name)
	}
	return named, nil
}
