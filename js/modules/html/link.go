package k6html

import (
	"net/url"
	"strings"

	"github.com/grafana/sobek"
)

// hyperlinkMethods are the methods of a and area: the parts of the href
// URL (resolved against the page's URL for Response.html()), the rel
// link types and the text.
var hyperlinkMethods = map[string]method[*element]{
	"hash": urlPart(func(u *url.URL) string { return prefixed("#", u.EscapedFragment()) }),
	"host": urlPart(func(u *url.URL) string {
		if p := port(u); p != "" {
			return u.Hostname() + ":" + p
		}
		return u.Hostname()
	}),
	"hostname": urlPart((*url.URL).Hostname),
	"port":     urlPart(port),
	"origin": urlPart(func(u *url.URL) string {
		if u.Scheme == "" || u.Host == "" {
			return ""
		}
		origin := u.Scheme + "://" + u.Hostname()
		if p := port(u); p != "" {
			origin += ":" + p
		}
		return origin
	}),
	"pathname": urlPart(func(u *url.URL) string {
		if p := u.EscapedPath(); p != "" || u.Host == "" {
			return p
		}
		return "/"
	}),
	"protocol": urlPart(func(u *url.URL) string { return u.Scheme + ":" }),
	"search":   urlPart(func(u *url.URL) string { return prefixed("?", u.RawQuery) }),
	"username": urlPart(func(u *url.URL) string { return u.User.Username() }),
	"password": urlPart(func(u *url.URL) string {
		p, _ := u.User.Password()
		return p
	}),
	"relList": (*element).relList,
	"text":    (*element).text,
}

// defaultPorts are the ports a URL of the scheme leaves out.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}

// port returns the port of u, "" when it is the scheme's default.
func port(u *url.URL) string {
	if p := u.Port(); p != defaultPorts[u.Scheme] {
		return p
	}
	return ""
}

// prefixed returns prefix+s, "" when s is.
func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// urlPart returns the method that gives part of the element's href URL,
// "" when it has no href or the href does not parse.
func urlPart(part func(*url.URL) string) method[*element] {
	return func(e *element, _ sobek.FunctionCall) sobek.Value {
		u := e.href()
		if u == nil {
			return e.kit.rt.ToValue("")
		}
		return e.kit.rt.ToValue(part(u))
	}
}

// href returns the element's href URL, resolved against the page's URL
// when it is known; nil when there is no href or it does not parse.
func (e *element) href() *url.URL {
	v, ok := attr(e.node, "href")
	if !ok {
		return nil
	}
	return e.doc.resolve(v)
}

// resolve parses ref, a URL of the page, and resolves it against the
// page's URL when it is known; nil when ref does not parse.
func (d *document) resolve(ref string) *url.URL {
	u, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return nil
	}
	if d.base != nil {
		u = d.base.ResolveReference(u)
	}
	return u
}

// relList is relList(): the link types of the rel attribute, in an array.
func (e *element) relList(sobek.FunctionCall) sobek.Value {
	v, _ := attr(e.node, "rel")
	return e.kit.rt.ToValue(strings2any(strings.Fields(v)))
}
