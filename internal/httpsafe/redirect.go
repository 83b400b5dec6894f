package httpsafe

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// DefaultMaxRedirects is how many redirects a request follows unless told
// otherwise, as net/http and k6.
const DefaultMaxRedirects = 10

// CredentialHeaders are the request headers that carry credentials: they
// never follow a redirect to another host or scheme. Ocp-Apim-Subscription-Key
// is Azure API Management's key (Azure OpenAI behind it), X-Auth-Token
// OpenStack's and many gateways' token.
var CredentialHeaders = []string{
	"Authorization", "Proxy-Authorization", "Cookie", "Cookie2",
	"X-Api-Key", "Api-Key", "X-Goog-Api-Key", "Ocp-Apim-Subscription-Key", "X-Auth-Token",
}

// Errors of a refused redirect; every one wraps ErrRedirect.
var (
	// ErrRedirect is wrapped by every error of Policy.Next.
	ErrRedirect = errors.New("redirect refused")
	// ErrDowngrade is a redirect from https to http that the policy does
	// not allow.
	ErrDowngrade = fmt.Errorf("%w: from https to http", ErrRedirect)
	// ErrTooManyRedirects is a redirect beyond the policy's Max.
	ErrTooManyRedirects = fmt.Errorf("%w: too many redirects", ErrRedirect)
)

// Policy says which redirects a request follows and how. The zero value
// follows none.
type Policy struct {
	// Max is how many redirects are followed; 0 follows none.
	Max int
	// Sensitive lists headers, besides CredentialHeaders, dropped when a
	// redirect changes the host or the scheme.
	Sensitive []string
	// AllowDowngrade lets a redirect go from https to http.
	AllowDowngrade bool
}

// Hop is one request of a redirect chain.
type Hop struct {
	Method string
	URL    *url.URL
	Header http.Header
	// Body is sent as is; nil sends none.
	Body []byte
}

// IsRedirect reports whether status is a redirect a client follows (301,
// 302, 303, 307, 308).
func IsRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// Next returns the request that follows the redirect response (status and
// its Location header) to prev, the followed-th redirect of the chain
// (counting from 1), or an error wrapping ErrRedirect:
//   - more than Max redirects, a Location that is not an http(s) URL, or
//     https to http without AllowDowngrade are refused;
//   - 307 and 308 repeat the method and body, once, to the new location;
//     301, 302 and 303 turn anything but HEAD into a GET without a body,
//     as browsers do, so a POST is never sent twice;
//   - a change of host or scheme drops CredentialHeaders, Sensitive and a
//     Host override;
//   - no Referer is added, and a Referer the request carried is cut to
//     its origin on a change of host or scheme.
func (p Policy) Next(prev Hop, status int, location string, followed int) (Hop, error) {
	if followed > p.Max {
		return Hop{}, fmt.Errorf("%w: stopped after %d", ErrTooManyRedirects, p.Max)
	}
	next, err := prev.URL.Parse(location)
	if err != nil || (next.Scheme != "http" && next.Scheme != "https") || next.Host == "" {
		return Hop{}, fmt.Errorf("%w: Location %q is not an http(s) URL", ErrRedirect, Redact(location))
	}
	if prev.URL.Scheme == "https" && next.Scheme == "http" && !p.AllowDowngrade {
		return Hop{}, fmt.Errorf("%w (to %s)", ErrDowngrade, Redact(next.String()))
	}
	h := Hop{Method: prev.Method, URL: next, Header: prev.Header.Clone(), Body: prev.Body}
	if status != http.StatusTemporaryRedirect && status != http.StatusPermanentRedirect {
		h.toGet()
	}
	if prev.URL.Scheme != next.Scheme || !strings.EqualFold(prev.URL.Host, next.Host) {
		p.dropCredentials(h.Header)
	}
	return h, nil
}

// toGet turns the hop into a GET without a body (HEAD stays HEAD).
func (h *Hop) toGet() {
	if h.Method != http.MethodHead {
		h.Method = http.MethodGet
	}
	h.Body = nil
	for _, k := range []string{"Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"} {
		h.Header.Del(k)
	}
}

// dropCredentials removes the credential-bearing headers and a Host
// override from h, and cuts a Referer to its origin.
func (p Policy) dropCredentials(h http.Header) {
	h.Del("Host")
	for _, k := range CredentialHeaders {
		h.Del(k)
	}
	for _, k := range p.Sensitive {
		h.Del(k)
	}
	if ref := h.Get("Referer"); ref != "" {
		if u, err := url.Parse(ref); err == nil && u.Host != "" {
			h.Set("Referer", u.Scheme+"://"+u.Host+"/")
		} else {
			h.Del("Referer")
		}
	}
}

// Redact returns the URL s without its user information and query, for
// messages: neither may carry a secret into a log line.
func Redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(invalid URL)"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment = nil, "", false, ""
	return u.String()
}
