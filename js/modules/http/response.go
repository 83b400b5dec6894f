package k6http

import (
	"net/http"
	"sort"
	"strings"

	"github.com/grafana/sobek"
)

// responseValue is the JavaScript response of a request: k6's field names,
// times in float milliseconds. Its methods (json(), html(), …) are the
// page methods it inherits (page.go).
func responseValue(rt *sobek.Runtime, req *request, ex *exchange) *sobek.Object {
	obj := rt.NewObject()
	t := ex.timings
	for k, v := range map[string]any{
		"status": ex.status, "status_text": ex.statusText, "proto": ex.proto, "url": ex.url,
		"headers": sortedObject(rt, joinedHeaders(ex.header)), "body": bodyValue(rt, req.responseType, ex),
		"error": ex.errorMsg, "error_code": errorCode(ex),
		"remote_ip": ex.remoteIP, "remote_port": ex.remotePort,
		"tls_version": ex.tlsVersion, "tls_cipher_suite": ex.cipher, "ocsp": ex.ocsp.value(rt),
		"timings": map[string]any{
			"blocked": t.Blocked, "connecting": t.Connecting, "tls_handshaking": t.TLSHandshaking,
			"sending": t.Sending, "waiting": t.Waiting, "receiving": t.Receiving, "duration": t.Duration,
		},
		"cookies": sortedObject(rt, responseCookies(ex.header)),
		"request": map[string]any{
			"method": ex.method, "url": ex.url, "headers": sortedObject(rt, listHeaders(ex.reqHeader)),
			"body": string(shownBody(req, ex)), "cookies": sortedObject(rt, sentCookies(ex.reqHeader)),
		},
	} {
		_ = obj.Set(k, v)
	}
	return obj
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
