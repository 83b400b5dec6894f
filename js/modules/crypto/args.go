package k6crypto

import (
	"hash"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// bytes returns the bytes of the argument param of fn, a string or an
// ArrayBuffer, or throws a TypeError.
func (m *module) bytes(fn, param string, v sobek.Value) []byte {
	b, ok := modules.Bytes(m.rt, v)
	if !ok {
		panic(m.rt.NewTypeError("%s: %s must be a string or an ArrayBuffer, not %s", fn, param, modules.TypeName(v)))
	}
	return b
}

// algorithm returns the hash function the argument of fn names, or throws
// a TypeError naming the known ones.
func (m *module) algorithm(fn string, v sobek.Value) func() hash.Hash {
	alg, ok := algorithms[m.name(v)]
	if !ok {
		panic(m.rt.NewTypeError("%s: unknown algorithm %s: use %s", fn, describe(v), algorithmNames))
	}
	return alg
}

// output returns the output encoding the argument of fn names, or throws a
// TypeError naming the known ones.
func (m *module) output(fn string, v sobek.Value) func(*sobek.Runtime, []byte) sobek.Value {
	out, ok := outputs[m.name(v)]
	if !ok {
		panic(m.rt.NewTypeError("%s: unknown output encoding %s: use %s", fn, describe(v), outputNames))
	}
	return out
}

// name returns a string argument, or "" for any other value.
func (m *module) name(v sobek.Value) string {
	if v == nil || !sobek.IsString(v) {
		return ""
	}
	return v.String()
}

// describe renders an argument for an error message: a string quoted, a
// number as written, anything else by its type.
func describe(v sobek.Value) string {
	switch {
	case v != nil && sobek.IsString(v):
		return `"` + v.String() + `"`
	case v != nil && sobek.IsNumber(v):
		return v.String()
	}
	return modules.TypeName(v)
}
