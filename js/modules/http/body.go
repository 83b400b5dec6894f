package k6http

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"

	"github.com/grafana/sobek"
)

// requestBody encodes the body argument: a string as is, an ArrayBuffer or
// typed array as its bytes, an object as a form
// (application/x-www-form-urlencoded, set unless the script set a
// Content-Type), null or undefined as no body.
func requestBody(rt *sobek.Runtime, v sobek.Value, h http.Header) ([]byte, error) {
	if isNullish(v) {
		return nil, nil
	}
	switch b := v.Export().(type) {
	case string:
		return []byte(b), nil
	case sobek.ArrayBuffer:
		return b.Bytes(), nil
	case []byte:
		return b, nil
	case map[string]any:
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		return []byte(formBody(rt, v.ToObject(rt)).Encode()), nil
	default:
		if ab, ok := typedArrayBytes(v); ok {
			return ab, nil
		}
		return nil, fmt.Errorf("k6/http: the body must be a string, an ArrayBuffer, an object or null, got %s", v.String())
	}
}

// formBody returns the object's properties as form values; array values
// repeat the key.
func formBody(rt *sobek.Runtime, obj *sobek.Object) url.Values {
	form := url.Values{}
	keys := obj.Keys()
	sort.Strings(keys)
	for _, k := range keys {
		v := obj.Get(k)
		if list, ok := v.Export().([]any); ok {
			for _, x := range list {
				form.Add(k, fmt.Sprint(x))
			}
			continue
		}
		form.Add(k, v.String())
	}
	return form
}

// typedArrayBytes returns the bytes a typed array or DataView shows of its
// buffer.
func typedArrayBytes(v sobek.Value) ([]byte, bool) {
	obj, ok := v.(*sobek.Object)
	if !ok {
		return nil, false
	}
	buf, ok := obj.Get("buffer").Export().(sobek.ArrayBuffer)
	if !ok {
		return nil, false
	}
	off, n := obj.Get("byteOffset").ToInteger(), obj.Get("byteLength").ToInteger()
	all := buf.Bytes()
	if off < 0 || n < 0 || off+n > int64(len(all)) {
		return nil, false
	}
	return all[off : off+n], true
}
