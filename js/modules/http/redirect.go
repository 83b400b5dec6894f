package k6http

import (
	"context"
	"net/http"
	"net/url"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
)

// do sends req on rt, following up to req.redirects redirects by the
// policy the streaming probe applies too (httpsafe.Policy); every
// exchange, hops included, is passed to record as soon as it ended, and the
// cookies it set go to the request's jar before the next hop. It returns
// the last exchange: past req.redirects, the last redirect response, as in
// k6, marked with the number of requests sent (stoppedAfter); a refused
// redirect (https to http) carries an error.
func do(ctx context.Context, rt http.RoundTripper, req *request, record func(*exchange)) *exchange {
	parent := ctx
	ctx, cancel := context.WithTimeoutCause(ctx, req.timeout, errRequestTimeout)
	defer cancel()
	ctx = withInterrupt(ctx, parent)
	policy := httpsafe.Policy{Max: req.redirects, Sensitive: req.sensitiveHeaders, AllowDowngrade: req.allowInsecureRedirect}
	first := req.first
	if first == nil {
		u, _ := url.Parse(req.url)
		first = newHopURL(u)
	}
	hop := httpsafe.Hop{Method: req.method, URL: first.u, Header: req.header, Body: req.body}
	for at, followed := first, 1; ; followed++ {
		ex := req.sendHop(ctx, rt, hop.Method, at, hopHeader(hop.Header, req, first.u, at), hop.Body, record)
		storeCookies(req.jar, at, ex.header)
		loc := ex.header.Get("Location")
		if (ex.errorCode != 0 && ex.status == 0) || !httpsafe.IsRedirect(ex.status) || loc == "" {
			record(ex)
			return ex
		}
		if followed > req.redirects {
			ex.stoppedAfter = followed
			record(ex)
			return ex
		}
		next, err := policy.Next(hop, ex.status, loc, followed)
		if err != nil {
			ex.errorCode, ex.errorMsg = codeGeneric, err.Error()
			record(ex)
			return ex
		}
		record(ex)
		hop, at = next, newHopURL(next.URL)
	}
}
