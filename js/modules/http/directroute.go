package k6http

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// carries reports whether the direct transport carries req: a plain
// http:// request with a method (a token, not CONNECT), without a proxy,
// whose body, if any, has a known length up to maxDirectBody, whose host,
// target and headers net/http would write as they are, and which asks
// for no 100-continue and no protocol switch. Everything else is
// net/http's, errors about a bad request included.
func (t *directTransport) carries(req *http.Request) bool {
	u := req.URL
	if u == nil || u.Scheme != "http" || u.Host == "" || !httpguts.ValidHeaderFieldName(req.Method) || req.Method == http.MethodConnect {
		return false
	}
	if !noBody(req) && (req.ContentLength <= 0 || req.ContentLength > maxDirectBody) {
		return false
	}
	if len(req.TransferEncoding) != 0 || req.Trailer != nil || !plainHost(u.Host) || (req.Host != "" && !plainHost(req.Host)) {
		return false
	}
	if hasCTL(u.Opaque) || hasCTL(u.RawQuery) || !plainHeader(req.Header) {
		return false
	}
	return t.fallback.Proxy == nil || noProxy(t.fallback.Proxy, req)
}

// noProxy reports whether proxy sends req directly.
func noProxy(proxy func(*http.Request) (*url.URL, error), req *http.Request) bool {
	p, err := proxy(req)
	return p == nil && err == nil
}

// plainHost reports whether host is a valid Host header of printable
// ASCII without an IPv6 zone: written and dialed as it is.
func plainHost(host string) bool {
	for i := 0; i < len(host); i++ {
		if host[i] <= ' ' || host[i] >= 0x7f || host[i] == '%' {
			return false
		}
	}
	return httpguts.ValidHostHeader(host)
}

// hasCTL reports whether s holds an ASCII control character.
func hasCTL(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// plainHeader reports whether every field of h is valid (net/http refuses
// the others), and none asks for a 100-continue or a protocol switch.
func plainHeader(h http.Header) bool {
	for k, vv := range h {
		if !httpguts.ValidHeaderFieldName(k) || k == "Expect" || k == "Upgrade" {
			return false
		}
		for _, v := range vv {
			if !httpguts.ValidHeaderFieldValue(v) {
				return false
			}
		}
	}
	return true
}

// wantsClose reports whether a request's header asks to close the
// connection after the exchange.
func wantsClose(h http.Header) bool {
	for _, v := range h["Connection"] {
		for _, tok := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(tok), "close") {
				return true
			}
		}
	}
	return false
}

// dialAddr returns the host:port a request to u is sent to, port 80 by
// default.
func dialAddr(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	return net.JoinHostPort(u.Hostname(), "80")
}
