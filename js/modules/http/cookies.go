package k6http

import (
	"net/http"
	"net/url"
	"strings"
)

// requestCookie is a cookie of the cookies param. With replace, it takes
// the place of a jar cookie of the same name; without, both are sent.
type requestCookie struct {
	name, value string
	replace     bool
}

// hopHeader returns the headers of one exchange to at: h plus a Cookie
// header with the jar's cookies for at and, on the request's own origin
// (that of reqURL, the request's URL), the cookies of the cookies param.
// h itself is not modified.
func hopHeader(h http.Header, req *request, reqURL *url.URL, at *hopURL) http.Header {
	u := at.parsed
	if at.err != nil || (req.jar == nil && len(req.cookies) == 0) {
		return h
	}
	var pairs []string
	own := sameOrigin(reqURL, u)
	replaced := map[string]bool{}
	if own {
		for _, c := range req.cookies {
			replaced[c.name] = replaced[c.name] || c.replace
		}
	}
	if req.jar != nil {
		for _, c := range req.jar.Cookies(u) {
			if !replaced[c.Name] {
				pairs = append(pairs, c.Name+"="+c.Value)
			}
		}
	}
	if own {
		for _, c := range req.cookies {
			pairs = append(pairs, c.name+"="+c.value)
		}
	}
	if len(pairs) == 0 {
		return h
	}
	out := h.Clone()
	if prev := out.Get("Cookie"); prev != "" {
		pairs = append([]string{prev}, pairs...)
	}
	out.Set("Cookie", strings.Join(pairs, "; "))
	return out
}

// storeCookies puts the cookies the response of an exchange to at set into
// the jar.
func storeCookies(jar http.CookieJar, at *hopURL, h http.Header) {
	if jar == nil || len(h["Set-Cookie"]) == 0 || at.err != nil {
		return
	}
	jar.SetCookies(at.parsed, (&http.Response{Header: h}).Cookies())
}

// sameOrigin reports whether two URLs, nil for one that did not parse,
// have the same scheme and host.
func sameOrigin(a, b *url.URL) bool {
	return a != nil && b != nil && a.Scheme == b.Scheme && a.Host == b.Host
}

// responseCookies is response.cookies: every cookie the response set, by
// name, as k6 shows them (expires in ms since the epoch, 0 when unset).
func responseCookies(h http.Header) map[string]any {
	out := map[string]any{}
	for _, c := range (&http.Response{Header: h}).Cookies() {
		var expires int64
		if !c.Expires.IsZero() {
			expires = c.Expires.UnixMilli()
		}
		list, _ := out[c.Name].([]any)
		out[c.Name] = append(list, map[string]any{
			"name": c.Name, "value": c.Value, "domain": c.Domain, "path": c.Path,
			"http_only": c.HttpOnly, "secure": c.Secure, "max_age": c.MaxAge, "expires": expires,
		})
	}
	return out
}

// sentCookies is request.cookies: the cookies of the Cookie header sent, by
// name.
func sentCookies(h http.Header) map[string]any {
	out := map[string]any{}
	for _, c := range (&http.Request{Header: h}).Cookies() {
		list, _ := out[c.Name].([]any)
		out[c.Name] = append(list, map[string]any{"name": c.Name, "value": c.Value, "replace": false})
	}
	return out
}
