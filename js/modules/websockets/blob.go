package k6websockets

import (
	"fmt"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// blob is the immutable content of a Blob.
type blob struct {
	data []byte
	typ  string
}

// newBlob is the constructor new Blob(parts, {type}): parts is an array
// of strings (as UTF-8), ArrayBuffers, typed arrays, DataViews and Blobs.
func (m *instance) newBlob(call sobek.ConstructorCall) *sobek.Object {
	rt := m.vu.Runtime()
	b := &blob{}
	if parts := call.Argument(0); !isNullish(parts) {
		var list []sobek.Value
		if err := rt.ExportTo(parts, &list); err != nil {
			panic(rt.NewTypeError("new Blob(parts): parts must be an array"))
		}
		for i, p := range list {
			bytes, ok := m.blobPart(p)
			if !ok {
				panic(rt.NewTypeError(fmt.Sprintf("new Blob(parts): part %d is a %s: want a string, an ArrayBuffer, a view of one or a Blob", i, modules.TypeName(p))))
			}
			b.data = append(b.data, bytes...)
		}
	}
	if opts := call.Argument(1); !isNullish(opts) {
		if t := opts.ToObject(rt).Get("type"); !isNullish(t) {
			b.typ = t.String()
		}
	}
	m.initBlob(call.This, b)
	return nil
}

// blobPart returns the bytes of one part of a Blob.
func (m *instance) blobPart(v sobek.Value) ([]byte, bool) {
	if b := m.blobOf(v); b != nil {
		return b.data, true
	}
	if sobek.IsString(v) {
		return []byte(v.String()), true
	}
	b, ok := modules.Bytes(m.vu.Runtime(), v)
	return append([]byte(nil), b...), ok
}

// blobOf returns the content of v when it is a Blob, or nil.
func (m *instance) blobOf(v sobek.Value) *blob {
	obj, ok := v.(*sobek.Object)
	if !ok {
		return nil
	}
	v = obj.GetSymbol(m.blobKey)
	if v == nil {
		return nil
	}
	b, _ := v.Export().(*blob)
	return b
}

// blobValue returns a new Blob of data (not copied: the caller gives it
// up).
func (m *instance) blobValue(data []byte, typ string) *sobek.Object {
	obj := m.vu.Runtime().NewObject()
	_ = obj.SetPrototype(m.blobProto)
	m.initBlob(obj, &blob{data: data, typ: typ})
	return obj
}

// initBlob gives obj the content b and the Blob members: size, type,
// text(), arrayBuffer(), bytes() and slice(start, end, type). The reads
// return promises, settled at once: the bytes are in memory.
func (m *instance) initBlob(obj *sobek.Object, b *blob) {
	rt := m.vu.Runtime()
	_ = obj.DefineDataPropertySymbol(m.blobKey, rt.ToValue(b), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_FALSE)
	_ = obj.DefineDataProperty("size", rt.ToValue(len(b.data)), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
	_ = obj.DefineDataProperty("type", rt.ToValue(b.typ), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
	resolved := func(v any) *sobek.Promise {
		p, resolve, _ := rt.NewPromise()
		_ = resolve(v)
		return p
	}
	_ = obj.Set("text", func() *sobek.Promise { return resolved(string(b.data)) })
	_ = obj.Set("arrayBuffer", func() *sobek.Promise {
		return resolved(rt.NewArrayBuffer(append([]byte(nil), b.data...)))
	})
	_ = obj.Set("bytes", func() (*sobek.Promise, error) {
		u8, err := uint8Array(rt, append([]byte(nil), b.data...))
		return resolved(u8), err
	})
	_ = obj.Set("slice", func(call sobek.FunctionCall) sobek.Value {
		start, end := sliceBounds(len(b.data), call.Argument(0), call.Argument(1))
		typ := ""
		if t := call.Argument(2); !isNullish(t) {
			typ = t.String()
		}
		return m.blobValue(append([]byte(nil), b.data[start:end]...), typ)
	})
}

// uint8Array returns a Uint8Array over data.
func uint8Array(rt *sobek.Runtime, data []byte) (sobek.Value, error) {
	ctor, ok := sobek.AssertConstructor(rt.Get("Uint8Array"))
	if !ok {
		return nil, fmt.Errorf("Uint8Array is not a constructor")
	}
	obj, err := ctor(nil, rt.ToValue(rt.NewArrayBuffer(data)))
	return obj, err
}

// sliceBounds clamps the start and end of Blob.slice as the File API
// does: negative values count from the end, undefined is the whole.
func sliceBounds(size int, startV, endV sobek.Value) (int, int) {
	clamp := func(v sobek.Value, def int) int {
		if isNullish(v) {
			return def
		}
		n := int(v.ToInteger())
		if n < 0 {
			n += size
		}
		return max(0, min(n, size))
	}
	start, end := clamp(startV, 0), clamp(endV, size)
	if end < start {
		end = start
	}
	return start, end
}
