package k6http

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/sse"
)

// paramKeys are the params this module reads; any other is an error.
var paramKeys = map[string]bool{
	"headers": true, "tags": true, "timeout": true, "redirects": true, "responseType": true, "auth": true,
	"responseCallback": true, "cookies": true, "jar": true, "compression": true,
	// This build's own, shared with the streaming probe.
	"maxResponseSize": true, "sensitiveHeaders": true, "allowInsecureRedirect": true,
}

// defaults are the values of the params a request leaves out.
type defaults struct {
	// redirects is the maxRedirects option; redirectsSet reports that
	// the run set it.
	redirects    int
	redirectsSet bool
	// expect is the VU's response callback.
	expect *statusSet
	// jar is the VU's cookie jar.
	jar http.CookieJar
	// responseType is asNone with the discardResponseBodies option.
	responseType responseType
	// userAgent is the userAgent option.
	userAgent string
	// header is the header of a request that sets none: User-Agent
	// userAgent only. It is shared by the VU's requests, and nothing
	// modifies it; nil makes one per request.
	header http.Header
	// urls parses the url argument: the VU's cache; nil parses it anew.
	urls *urlCache
}

// defaultUserAgent is the User-Agent header of requests whose headers set
// none, unless the userAgent option sets another.
const defaultUserAgent = "usefullatency"

// newRequest checks the JavaScript arguments of a request and builds it.
// Every problem is reported, naming the argument, before anything is sent.
// The defaults of params come from the run and the VU.
func newRequest(rt *sobek.Runtime, method string, target, body, params sobek.Value, d defaults) (*request, error) {
	pu, err := requestURL(target, d.urls)
	if err != nil {
		return nil, err
	}
	req := &request{
		method: method, timeout: defaultTimeout, redirects: d.redirects, redirectsSet: d.redirectsSet,
		expect: d.expect, jar: d.jar, responseType: d.responseType,
		maxResponseSize: httpsafe.DefaultMaxResponseSize,
	}
	var contentType string
	if req.body, contentType, err = requestBody(rt, body); err != nil {
		return nil, err
	}
	if contentType != "" {
		req.setHeader("Content-Type", contentType)
	}
	if err := req.applyParams(rt, params); err != nil {
		return nil, err
	}
	if err := req.compress(); err != nil {
		return nil, err
	}
	if t, ok := target.Export().(*urlTemplate); ok && req.tags["name"] == "" {
		req.setTag("name", templateName(t.Name, pu.u))
	}
	req.useCredentials(pu.u)
	req.header = withUserAgent(req.header, d)
	req.url, req.first = pu.url, pu.first
	return req, nil
}

// useCredentials takes the credentials of u, if any: sent as basic
// authentication (the auth param's default, unless the headers set an
// Authorization), or kept to answer a digest challenge; never in the
// request line.
func (req *request) useCredentials(u *url.URL) {
	if u.User == nil {
		return
	}
	pass, _ := u.User.Password()
	if req.auth == "digest" {
		req.digest = &credentials{user: u.User.Username(), pass: pass, origin: u.Scheme + "://" + u.Host}
	} else if req.header.Get("Authorization") == "" {
		r := &http.Request{Header: req.fields()}
		r.SetBasicAuth(u.User.Username(), pass)
	}
}

// withUserAgent returns h, nil for none, with the User-Agent of d when it
// has none (an empty value keeps Go from sending its own): d.header,
// shared, when h is empty.
func withUserAgent(h http.Header, d defaults) http.Header {
	if len(h) == 0 && d.header != nil {
		return d.header
	}
	if h == nil {
		h = http.Header{}
	}
	if h.Get("User-Agent") == "" {
		h["User-Agent"] = []string{d.userAgent}
	}
	return h
}

// setHeader sets the header field k of the request.
func (req *request) setHeader(k, v string) { req.fields().Set(k, v) }

// fields returns the request's header, made on first use.
func (req *request) fields() http.Header {
	if req.header == nil {
		req.header = http.Header{}
	}
	return req.header
}

// setTag sets the request's own tag k.
func (req *request) setTag(k, v string) {
	if req.tags == nil {
		req.tags = map[string]string{}
	}
	req.tags[k] = v
}

// compress encodes the body with the codings of the compression param
// and sets Content-Encoding, unless the headers set one (the script's
// header wins, as in k6).
func (req *request) compress() error {
	if len(req.compression) == 0 || req.body == nil {
		return nil
	}
	body, encoding, err := compress(req.body, req.compression)
	if err != nil {
		return fmt.Errorf("k6/http: params.compression: %w", err)
	}
	req.plainBody, req.body = req.body, body
	if req.header.Get("Content-Encoding") == "" {
		req.setHeader("Content-Encoding", encoding)
	}
	return nil
}

// templateName is the name tag of a request to an http.url template:
// the template, without the credentials its URL held.
func templateName(name string, u *url.URL) string {
	if u.User != nil {
		if i := strings.Index(name, "@"); i >= 0 && strings.Contains(name[:i], "://") {
			name = name[:strings.Index(name, "://")+3] + name[i+1:]
		}
	}
	return name
}

// requestURL parses the url argument, through the VU's cache urls: a
// string, or an object whose string form is the URL (a URL object). A URL
// http can't send (no scheme, another scheme, no host) is not refused
// here: as in k6, sending it fails, and the script gets a failed response
// (error_code 1000).
func requestURL(v sobek.Value, urls *urlCache) (*parsedURL, error) {
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return nil, errors.New("k6/http: the url argument is missing")
	}
	s := v.String()
	if t, ok := v.Export().(*urlTemplate); ok {
		s = t.URL
	}
	return urls.parse(s)
}

// applyParams reads every param of params into req.
func (req *request) applyParams(rt *sobek.Runtime, params sobek.Value) error {
	if isNullish(params) {
		return nil
	}
	p := params.ToObject(rt)
	for _, key := range p.Keys() {
		if !paramKeys[key] {
			return fmt.Errorf("k6/http: unknown param %q", key)
		}
		v := p.Get(key)
		if isNullish(v) && key != "responseCallback" && key != "jar" { // null is "none" for these
			continue
		}
		if err := req.applyParam(rt, key, v); err != nil {
			return fmt.Errorf("k6/http: params.%s: %w", key, err)
		}
	}
	return nil
}

// applyParam reads one param.
func (req *request) applyParam(rt *sobek.Runtime, key string, v sobek.Value) (err error) {
	switch key {
	case "headers":
		return stringMap(rt, v, req.setHeader)
	case "tags":
		return stringMap(rt, v, req.setTag)
	case "timeout":
		req.timeout, err = modules.PositiveDuration(v)
	case "redirects":
		req.redirects, err = redirectCount(v)
		req.redirectsSet = true
	case "responseType":
		req.responseType, err = parseResponseType(v.String())
	case "jar":
		req.jar, err = requestJar(v)
	case "cookies":
		req.cookies, err = requestCookies(rt, v)
	case "responseCallback":
		req.expect, err = responseCallback(v)
	case "maxResponseSize", "sensitiveHeaders", "allowInsecureRedirect":
		return req.applySafetyParam(key, v)
	case "auth":
		req.auth, err = authScheme(v.String())
	case "compression":
		req.compression, err = parseCompression(v.String())
	}
	return err
}

// applySafetyParam reads a param of the limits and the redirect policy.
func (req *request) applySafetyParam(key string, v sobek.Value) error {
	switch key {
	case "maxResponseSize":
		n, err := sse.ParseByteSize(v.String())
		if err != nil || n <= 0 {
			return fmt.Errorf("want a positive size like '64MiB' or a number of bytes, got %s", v.String())
		}
		req.maxResponseSize = int64(n)
	case "sensitiveHeaders":
		list, ok := v.Export().([]any)
		if !ok {
			return fmt.Errorf("want an array of header names, got %s", v.String())
		}
		for _, x := range list {
			req.sensitiveHeaders = append(req.sensitiveHeaders, fmt.Sprint(x))
		}
	case "allowInsecureRedirect":
		b, ok := v.Export().(bool)
		if !ok {
			return fmt.Errorf("want true or false, got %s", v.String())
		}
		req.allowInsecureRedirect = b
	}
	return nil
}

// stringMap calls set with every property of the object v, values read as
// strings.
func stringMap(rt *sobek.Runtime, v sobek.Value, set func(k, v string)) error {
	if _, ok := v.Export().(map[string]any); !ok {
		return fmt.Errorf("want an object, got %s", v.String())
	}
	obj := v.ToObject(rt)
	for _, k := range obj.Keys() {
		set(k, obj.Get(k).String())
	}
	return nil
}

// authScheme reads the auth param: "basic" or "digest"; NTLM is refused
// by name.
func authScheme(s string) (string, error) {
	switch s {
	case "basic", "digest":
		return s, nil
	case "ntlm":
		return "", errors.New(`"ntlm" is not supported: use "basic" or "digest"`)
	}
	return "", fmt.Errorf(`%q is not supported: want "basic" or "digest" (credentials in the URL)`, s)
}

// redirectCount reads a number of redirects: a whole number from 0.
func redirectCount(v sobek.Value) (int, error) {
	f := v.ToFloat()
	if f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		return 0, fmt.Errorf("want a whole number from 0, got %s", v.String())
	}
	return int(f), nil
}

// parseResponseType reads "text", "binary" or "none".
func parseResponseType(s string) (responseType, error) {
	switch s {
	case "text":
		return asText, nil
	case "binary":
		return asBinary, nil
	case "none":
		return asNone, nil
	}
	return 0, fmt.Errorf("want \"text\", \"binary\" or \"none\", got %q", s)
}

// isNullish reports whether v is missing, undefined or null.
func isNullish(v sobek.Value) bool {
	return v == nil || sobek.IsUndefined(v) || sobek.IsNull(v)
}
