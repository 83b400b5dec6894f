package sse

import (
	"net/http"
	"net/url"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/internal/redact"
)

// redirection is a redirect response to follow.
type redirection struct {
	status   int
	location string
}

// redirectOf returns the redirect a response asks to follow, or nil.
func redirectOf(resp *http.Response) *redirection {
	loc := resp.Header.Get("Location")
	if !httpsafe.IsRedirect(resp.StatusCode) || loc == "" {
		return nil
	}
	return &redirection{status: resp.StatusCode, location: loc}
}

// redirectTo makes the request the followed-th redirect r asks for, by the
// request's redirect policy; false (the request failed with
// redirect_error) when the policy refuses it.
func (x *exchange) redirectTo(r *redirection, followed int) bool {
	prev, err := url.Parse(x.req.URL)
	if err != nil {
		x.res.fail(CodeInvalidRequest, redact.Text(err.Error()))
		return false
	}
	hop := httpsafe.Hop{Method: x.req.Method, URL: prev, Header: x.req.Header, Body: x.req.Body}
	next, err := x.req.redirectPolicy().Next(hop, r.status, r.location, followed)
	if err != nil {
		x.res.Status = r.status
		x.res.fail(CodeRedirect, err.Error())
		x.cancel(nil)
		return false
	}
	x.req.Method, x.req.URL, x.req.Header, x.req.Body = next.Method, next.URL.String(), next.Header, next.Body
	x.res.URL = x.req.URL
	return true
}
