package modules

import "github.com/grafana/sobek"

// Bytes returns the bytes of a text or binary argument: a string (as UTF-8),
// an ArrayBuffer, or a view of one (a typed array or a DataView: only the
// bytes it views). ok is false for any other value. The bytes of an
// ArrayBuffer or a view are the script's memory, not a copy: callers read
// them before they return to the script, and write them only to fill the
// buffer on purpose.
func Bytes(rt *sobek.Runtime, v sobek.Value) (b []byte, ok bool) {
	if v == nil {
		return nil, false
	}
	switch x := v.Export().(type) {
	case string:
		return []byte(x), true
	case sobek.ArrayBuffer:
		return x.Bytes(), true
	}
	obj, isObj := v.(*sobek.Object)
	if !isObj || !isView(obj) {
		return nil, false
	}
	if err := rt.ExportTo(v, &b); err != nil {
		return nil, false
	}
	return b, true
}

// isView reports whether obj is a typed array or a DataView: an object
// whose buffer property is an ArrayBuffer and that has a byteOffset.
func isView(obj *sobek.Object) bool {
	buf := obj.Get("buffer")
	if buf == nil {
		return false
	}
	if _, ok := buf.Export().(sobek.ArrayBuffer); !ok {
		return false
	}
	return obj.Get("byteOffset") != nil
}

// TypeName names the type of a JavaScript value for an error message:
// "undefined", "null", "boolean", "number", "string", "bigint", "symbol", or the
// constructor of an object ("Array", "Object", "Uint8Array", …).
func TypeName(v sobek.Value) string {
	switch {
	case v == nil || sobek.IsUndefined(v):
		return "undefined"
	case sobek.IsNull(v):
		return "null"
	case sobek.IsNumber(v):
		return "number"
	case sobek.IsString(v):
		return "string"
	case sobek.IsBigInt(v):
		return "bigint"
	}
	obj, ok := v.(*sobek.Object)
	if !ok { // the primitives left: booleans and symbols
		if _, isBool := v.Export().(bool); isBool {
			return "boolean"
		}
		return "symbol"
	}
	if c, ok := obj.Get("constructor").(*sobek.Object); ok {
		if name, ok := c.Get("name").Export().(string); ok && name != "" {
			return name
		}
	}
	return obj.ClassName()
}
