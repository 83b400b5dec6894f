package k6http

import (
	"fmt"
	"net/url"
	"sort"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// requestBody encodes the body argument: a string as is, an ArrayBuffer or
// typed array as its bytes, an object as a form
// (application/x-www-form-urlencoded, set unless the script set a
// Content-Type) or, when one of its values is an http.file, as
// multipart/form-data, null or undefined as no body. contentType is the
// Content-Type of a form, "" for the others.
func requestBody(rt *sobek.Runtime, v sobek.Value) (body []byte, contentType string, err error) {
	if isNullish(v) {
		return nil, "", nil
	}
	if b, ok := modules.Bytes(rt, v); ok {
		return b, "", nil
	}
	if _, ok := v.Export().(map[string]any); ok && hasFile(v.ToObject(rt)) {
		return multipartBody(v.ToObject(rt))
	}
	if _, ok := v.Export().(map[string]any); ok {
		return []byte(formBody(rt, v.ToObject(rt)).Encode()), "application/x-www-form-urlencoded", nil
	}
	return nil, "", fmt.Errorf("k6/http: the body must be a string, an ArrayBuffer, an object or null, got %s", v.String())
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
