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

// hopHeader returns the headers of one exchange to target: h plus a Cookie
// header with the jar's cookies for target and, on the request's own
// origin, the cookies of the cookies param. h itself is not modified.
func hopHeader(h http.Header, req *request, target string) http.Header {
	u, err := url.Parse(target)
	if err != nil || (req.jar == nil && len(req.cookies) == 0) {
		return h
	}
	var pairs []string
	own := sameOrigin(req.url, target)
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

// storeCookies puts the cookies an exchange's response set into the jar.
func storeCookies(jar http.CookieJar, target string, h http.Header) {
	if jar == nil || len(h["Set-Cookie"]) == 0 {
		return
	}
	u, err := url.Parse(target)
	if err != nil {
		return
	}
	jar.SetCookies(u, (&http.Response{Header: h}).Cookies())
}

// sameOrigin reports whether two URLs have the same scheme and host.
func sameOrigin(a, b string) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	return errA == nil && errB == nil && ua.Scheme == ub.Scheme && ua.Host == ub.Host
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
