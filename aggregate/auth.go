package aggregate

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"strings"
)

// ErrBadToken means a token cannot be sent in an Authorization header.
var ErrBadToken = errors.New("aggregate: a token is 8 to 4096 visible ASCII characters without spaces")

// CheckToken says whether token can be the shared token: 8 to 4096
// visible ASCII characters, no space (it travels as "Bearer <token>").
// The error never contains the token.
func CheckToken(token string) error {
	if len(token) < 8 || len(token) > 4096 || !visibleASCII(token) {
		return ErrBadToken
	}
	return nil
}

// visibleASCII says whether s is made of visible ASCII characters only:
// no space, no control character, nothing beyond 0x7e.
func visibleASCII(s string) bool {
	for i := range len(s) {
		if c := s[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// refusal is why a post was refused: its HTTP status and a message for the
// poster, which is also logged.
type refusal struct {
	status int
	msg    string
}

// authorize checks who may post: never a web page (a post with an Origin
// header); with a token, a post carrying it as "Authorization: Bearer
// <token>", compared in constant time; without one, a post from this
// machine only, addressed to a loopback host (so a web page that rebinds
// its own name to 127.0.0.1 is refused too). It returns nil for a post it
// takes.
func (a *Aggregator) authorize(r *http.Request) *refusal {
	if r.Header.Get("Origin") != "" {
		return &refusal{http.StatusForbidden, "posts from web pages (with an Origin header) are refused"}
	}
	if a.tokenSum == nil {
		if !loopback(hostOf(r.RemoteAddr)) || !loopbackName(r.Host) {
			return &refusal{http.StatusForbidden, "this aggregator has no token (--token or " + TokenEnv + "): it takes posts from its own machine only"}
		}
		return nil
	}
	scheme, given, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	sum := sha256.Sum256([]byte(strings.TrimSpace(given)))
	// Both sides are hashed: the comparison takes the same time whatever
	// the token's length and wherever the first difference is.
	if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(sum[:], a.tokenSum) != 1 {
		return &refusal{http.StatusUnauthorized, "a post needs the aggregator's token: set " + TokenEnv + " on the runner (it sends Authorization: Bearer)"}
	}
	return nil
}

// hostOf is the host of a "host:port" address, the address itself when it
// has no port.
func hostOf(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// loopback says whether host is a loopback IP address.
func loopback(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loopbackName says whether a Host header names this machine: a loopback
// IP address or localhost, with or without a port.
func loopbackName(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(hostOf(host)), ".")
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || loopback(h)
}
