package k6http

import (
	"net/http"
	"sort"
	"strings"

	"github.com/grafana/sobek"
)

// responseFields are the own properties of a response, in the order
// Object.keys lists them: k6's field names, times in float milliseconds.
var responseFields = [...]string{
	"status", "status_text", "proto", "url", "headers", "body", "cookies", "error", "error_code",
	"remote_ip", "remote_port", "tls_version", "tls_cipher_suite", "ocsp", "timings", "request",
}

// response is the JavaScript response of a request. It is built lazily:
// the object is a dynamic object whose fields are made on first read (and
// then kept, so res.headers === res.headers), since most scripts read a
// status and perhaps a body, and building every header, cookie and timing
// object for every request was a tenth of k6/http's CPU. Its methods
// (json(), html(), …) are the page methods it inherits (page.go).
type response struct {
	rt   *sobek.Runtime
	req  *request
	ex   *exchange
	page *page
	// values holds the fields read or set so far, by index in
	// responseFields; gone marks those the script deleted.
	values [len(responseFields)]sobek.Value
	gone   [len(responseFields)]bool
	// extra are properties the script added, in the order it added them.
	extra     map[string]sobek.Value
	extraKeys []string
}

// responseValue returns the response of exchange ex as a script sees it.
func responseValue(rt *sobek.Runtime, req *request, ex *exchange) (*sobek.Object, *response) {
	r := &response{rt: rt, req: req, ex: ex}
	return rt.NewDynamicObject(r), r
}

// field returns the index of name in responseFields, or -1.
func field(name string) int {
	for i, f := range responseFields {
		if f == name {
			return i
		}
	}
	return -1
}

// Get returns the property key, building a field on its first read.
func (r *response) Get(key string) sobek.Value {
	i := field(key)
	if i < 0 {
		return r.extra[key]
	}
	if r.gone[i] {
		return nil
	}
	if r.values[i] == nil {
		r.values[i] = r.rt.ToValue(r.build(key))
	}
	return r.values[i]
}

// build makes the value of the field name.
func (r *response) build(name string) any {
	ex, rt, t := r.ex, r.rt, r.ex.timings
	switch name {
	case "status":
		return ex.status
	case "status_text":
		return ex.statusText
	case "proto":
		return ex.proto
	case "url":
		return ex.url
	case "headers":
		return sortedObject(rt, joinedHeaders(ex.header))
	case "body":
		return bodyValue(rt, r.req.responseType, ex)
	case "cookies":
		return sortedObject(rt, responseCookies(ex.header))
	case "error":
		return ex.errorMsg
	case "error_code":
		return errorCode(ex)
	case "remote_ip":
		return ex.remoteIP
	case "remote_port":
		return ex.remotePort
	case "tls_version":
		return ex.tlsVersion
	case "tls_cipher_suite":
		return ex.cipher
	case "ocsp":
		return ex.ocsp.value(rt)
	case "timings":
		return map[string]any{
			"blocked": t.Blocked, "connecting": t.Connecting, "tls_handshaking": t.TLSHandshaking,
			"sending": t.Sending, "waiting": t.Waiting, "receiving": t.Receiving, "duration": t.Duration,
		}
	}
	return map[string]any{ // request
		"method": ex.method, "url": ex.url, "headers": sortedObject(rt, listHeaders(ex.reqHeader)),
		"body": string(shownBody(r.req, ex)), "cookies": sortedObject(rt, sentCookies(ex.reqHeader)),
	}
}

// Set sets the property key, as on a plain object.
func (r *response) Set(key string, v sobek.Value) bool {
	if i := field(key); i >= 0 {
		r.values[i], r.gone[i] = v, false
		return true
	}
	if r.extra == nil {
		r.extra = map[string]sobek.Value{}
	}
	if _, ok := r.extra[key]; !ok {
		r.extraKeys = append(r.extraKeys, key)
	}
	r.extra[key] = v
	return true
}

// Has reports whether the response has the own property key.
func (r *response) Has(key string) bool {
	if i := field(key); i >= 0 {
		return !r.gone[i]
	}
	_, ok := r.extra[key]
	return ok
}

// Delete removes the property key.
func (r *response) Delete(key string) bool {
	if i := field(key); i >= 0 {
		r.values[i], r.gone[i] = nil, true
		return true
	}
	if _, ok := r.extra[key]; ok {
		delete(r.extra, key)
		for j, k := range r.extraKeys {
			if k == key {
				r.extraKeys = append(r.extraKeys[:j], r.extraKeys[j+1:]...)
				break
			}
		}
	}
	return true
}

// Keys returns the own property names: the fields not deleted, then those
// the script added.
func (r *response) Keys() []string {
	keys := make([]string, 0, len(responseFields)+len(r.extraKeys))
	for i, f := range responseFields {
		if !r.gone[i] {
			keys = append(keys, f)
		}
	}
	return append(keys, r.extraKeys...)
}

// sortedObject returns m as a plain JavaScript object whose keys are in
// sorted order, so that scripts see a stable Object.keys order.
func sortedObject(rt *sobek.Runtime, m map[string]any) *sobek.Object {
	obj := rt.NewObject()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		_ = obj.Set(k, m[k])
	}
	return obj
}

// bodyValue is response.body: a string, an ArrayBuffer (responseType
// binary), or null (responseType none, or no response).
func bodyValue(rt *sobek.Runtime, rtype responseType, ex *exchange) any {
	switch {
	case ex.body == nil && ex.status == 0, rtype == asNone:
		return nil
	case rtype == asBinary:
		return rt.NewArrayBuffer(ex.body)
	}
	return string(ex.body)
}

// joinedHeaders returns h with canonical names and repeated values joined
// by ", ", as k6's response.headers.
func joinedHeaders(h http.Header) map[string]any {
	out := make(map[string]any, len(h))
	for k, vs := range h {
		out[http.CanonicalHeaderKey(k)] = strings.Join(vs, ", ")
	}
	return out
}

// listHeaders returns h as k6's request.headers: every name with its list
// of values.
func listHeaders(h http.Header) map[string]any {
	out := make(map[string]any, len(h))
	for k, vs := range h {
		list := make([]any, len(vs))
		for i, v := range vs {
			list[i] = v
		}
		out[http.CanonicalHeaderKey(k)] = list
	}
	return out
}

// shownBody is response.request.body: the body as the script gave it,
// before the compression param encoded it.
func shownBody(req *request, ex *exchange) []byte {
	if req.plainBody != nil && ex.reqBody != nil {
		return req.plainBody
	}
	return ex.reqBody
}
