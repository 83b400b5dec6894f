package k6http

import (
	"context"
	"net/http"
	"net/url"
)

// do sends req on rt, following up to req.redirects redirects; every
// exchange, hops included, is passed to record as soon as it ended, and
// the cookies it set go to the request's jar before the next hop. It
// returns the last exchange.
func do(ctx context.Context, rt http.RoundTripper, req *request, record func(*exchange)) *exchange {
	ctx, cancel := context.WithTimeoutCause(ctx, req.timeout, errRequestTimeout)
	defer cancel()
	method, target, header, body := req.method, req.url, req.header, req.body
	for hop := 0; ; hop++ {
		ex := req.sendHop(ctx, rt, method, target, hopHeader(header, req, target), body, record)
		storeCookies(req.jar, target, ex.header)
		record(ex)
		if (ex.errorCode != 0 && ex.status == 0) || hop >= req.redirects {
			return ex
		}
		next, ok := location(ex)
		if !ok {
			return ex
		}
		method, body, header = redirectMethod(ex.status, method, body, header)
		header = redirectHeader(header, target, next)
		target = next
	}
}

// location returns the absolute target of a redirect response, and false
// when ex is not one.
func location(ex *exchange) (string, bool) {
	switch ex.status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return "", false
	}
	loc := ex.header.Get("Location")
	if loc == "" {
		return "", false
	}
	base, err := url.Parse(ex.url)
	if err != nil {
		return "", false
	}
	ref, err := base.Parse(loc)
	if err != nil {
		return "", false
	}
	return ref.String(), true
}

// redirectMethod returns the method, body and headers of the request that
// follows a redirect: 307 and 308 repeat the request; 301, 302 and 303
// turn it into a GET without a body (HEAD stays HEAD), as browsers and Go
// do.
func redirectMethod(status int, method string, body []byte, h http.Header) (string, []byte, http.Header) {
	if status == http.StatusTemporaryRedirect || status == http.StatusPermanentRedirect {
		return method, body, h
	}
	if method != http.MethodHead {
		method = http.MethodGet
	}
	if body != nil {
		h = h.Clone()
		h.Del("Content-Type")
		h.Del("Content-Length")
	}
	return method, nil, h
}

// redirectHeader returns the headers sent to next after a redirect from
// prev: credentials and cookies are dropped when the host or the scheme
// changes, so that they never reach another origin.
func redirectHeader(h http.Header, prev, next string) http.Header {
	p, errP := url.Parse(prev)
	n, errN := url.Parse(next)
	if errP == nil && errN == nil && p.Host == n.Host && p.Scheme == n.Scheme {
		return h
	}
	h = h.Clone()
	for _, k := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Cookie2", "Www-Authenticate"} {
		h.Del(k)
	}
	return h
}
