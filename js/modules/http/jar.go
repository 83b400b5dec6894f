package k6http

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"

	"github.com/grafana/sobek"

	"github.com/usefullatency/usefullatency/internal/redact"
)

// CookieJar is a cookie jar as scripts see it: the VU's (http.cookieJar())
// or one of the script's own (new http.CookieJar()). Its exported methods
// are the JavaScript API.
type CookieJar struct {
	rt  *sobek.Runtime
	jar func() *cookiejar.Jar
}

// newJar returns an empty jar. A nil public-suffix list lets any host set
// cookies for its own domain, as k6 does.
func newJar() *cookiejar.Jar {
	j, _ := cookiejar.New(nil) // cannot fail without options
	return j
}

// CookiesForURL returns the cookies the jar would send to u, by name (in
// sorted order): each with the list of its values.
func (j *CookieJar) CookiesForURL(u string) (*sobek.Object, error) {
	parsed, err := jarURL(u)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, c := range j.jar().Cookies(parsed) {
		list, _ := out[c.Name].([]any)
		out[c.Name] = append(list, c.Value)
	}
	return sortedObject(j.rt, out), nil
}

// Set stores a cookie for u. opts may give domain, path, expires (an HTTP
// date), max_age (seconds), secure and http_only.
func (j *CookieJar) Set(u, name, value string, opts map[string]any) error {
	parsed, err := jarURL(u)
	if err != nil {
		return err
	}
	c := &http.Cookie{Name: name, Value: value}
	if err := cookieOptions(c, opts); err != nil {
		return fmt.Errorf("k6/http: cookieJar.set: %w", err)
	}
	j.jar().SetCookies(parsed, []*http.Cookie{c})
	return nil
}

// Delete removes the cookie called name that the jar would send to u.
func (j *CookieJar) Delete(u, name string) error {
	parsed, err := jarURL(u)
	if err != nil {
		return err
	}
	expire(j.jar(), parsed, name)
	return nil
}

// Clear removes every cookie the jar would send to u.
func (j *CookieJar) Clear(u string) error {
	parsed, err := jarURL(u)
	if err != nil {
		return err
	}
	jar := j.jar()
	for _, c := range jar.Cookies(parsed) {
		expire(jar, parsed, c.Name)
	}
	return nil
}

// expire removes the cookie called name for u from jar. The jar does not
// tell a cookie's domain and path, so every domain and path that can match
// u is expired: the host alone or one of its parent domains, and each
// prefix of the path.
func expire(jar *cookiejar.Jar, u *url.URL, name string) {
	domains := []string{""}
	host := u.Hostname()
	for d := host; d != ""; {
		domains = append(domains, d)
		_, rest, ok := strings.Cut(d, ".")
		if !ok {
			break
		}
		d = rest
	}
	paths := []string{"/"}
	for i, r := range u.Path {
		if r == '/' && i > 0 {
			paths = append(paths, u.Path[:i])
		}
	}
	if u.Path != "" && u.Path != "/" {
		paths = append(paths, u.Path)
	}
	var gone []*http.Cookie
	for _, d := range domains {
		for _, p := range paths {
			gone = append(gone, &http.Cookie{Name: name, Domain: d, Path: p, MaxAge: -1})
		}
	}
	jar.SetCookies(u, gone)
}

// cookieOptions applies the options of cookieJar.set to c.
func cookieOptions(c *http.Cookie, opts map[string]any) error {
	for k, v := range opts {
		var err error
		switch k {
		case "domain":
			c.Domain = fmt.Sprint(v)
		case "path":
			c.Path = fmt.Sprint(v)
		case "expires":
			c.Expires, err = http.ParseTime(fmt.Sprint(v))
		case "max_age":
			n, ok := v.(int64)
			if !ok {
				err = fmt.Errorf("want whole seconds, got %v", v)
			}
			c.MaxAge = int(n)
		case "secure":
			c.Secure = v == true
		case "http_only":
			c.HttpOnly = v == true
		default:
			return fmt.Errorf("unknown option %q", k)
		}
		if err != nil {
			return fmt.Errorf("option %s: %w", k, err)
		}
	}
	return nil
}

// jarURL parses the URL argument of a jar method.
func jarURL(u string) (*url.URL, error) {
	parsed, err := url.Parse(u)
	if err != nil || parsed.Host == "" {
		return nil, fmt.Errorf("k6/http: cookie jar: invalid url %q", redact.URL(u))
	}
	return parsed, nil
}

// vuJar returns the VU's jar: a new one at each iteration, as in k6.
func (h *HTTP) vuJar() *cookiejar.Jar {
	it := h.vu.State().Iteration
	if h.jar == nil || h.jarIteration != it {
		h.jar, h.jarIteration = newJar(), it
	}
	return h.jar
}

// cookieJar is http.cookieJar(): the VU's jar.
func (h *HTTP) cookieJar() *CookieJar { return &CookieJar{rt: h.vu.Runtime(), jar: h.vuJar} }

// newCookieJar is the constructor new http.CookieJar(): a jar of the
// script's own, used through the jar param.
func (h *HTTP) newCookieJar(call sobek.ConstructorCall) *sobek.Object {
	j, rt := newJar(), h.vu.Runtime()
	return rt.ToValue(&CookieJar{rt: rt, jar: func() *cookiejar.Jar { return j }}).ToObject(rt)
}

// jarOf returns the jar of a CookieJar value, for other modules' jar
// params (modules.State.CookieJarOf).
func jarOf(v any) (http.CookieJar, bool) {
	if j, ok := v.(*CookieJar); ok {
		return j.jar(), true
	}
	return nil, false
}

// requestJar reads the jar param: a CookieJar, or null for no jar.
func requestJar(v sobek.Value) (http.CookieJar, error) {
	if isNullish(v) {
		return nil, nil
	}
	if j, ok := v.Export().(*CookieJar); ok {
		return j.jar(), nil
	}
	return nil, fmt.Errorf("want a CookieJar (http.cookieJar() or new http.CookieJar()) or null, got %s", v.String())
}

// requestCookies reads the cookies param: name → value or {value,
// replace}.
func requestCookies(rt *sobek.Runtime, v sobek.Value) ([]requestCookie, error) {
	if _, ok := v.Export().(map[string]any); !ok {
		return nil, fmt.Errorf("want an object, got %s", v.String())
	}
	obj := v.ToObject(rt)
	var out []requestCookie
	for _, name := range obj.Keys() {
		c := requestCookie{name: name}
		val := obj.Get(name)
		if m, ok := val.Export().(map[string]any); ok {
			c.value = fmt.Sprint(m["value"])
			c.replace = m["replace"] == true
		} else {
			c.value = val.String()
		}
		out = append(out, c)
	}
	return out, nil
}
