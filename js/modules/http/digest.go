package k6http

import (
	"context"
	"crypto/md5" //nolint:gosec // digest authentication's MD5 algorithm
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"net/http"
	"net/url"
	"strings"
)

// credentials are the user name and password of a URL, answered to a
// digest challenge (auth: 'digest').
type credentials struct {
	user, pass string
	// origin is the scheme and host they belong to: challenges from any
	// other origin are not answered.
	origin string
}

// sendHop sends one hop of req. With digest authentication, a 401 from the
// request's origin that carries a Digest challenge is recorded as its own
// exchange (an expected response, as in k6) and the hop is sent again with
// the answer.
func (req *request) sendHop(ctx context.Context, rt http.RoundTripper, method string, at *hopURL, header http.Header, body []byte, record func(*exchange)) *exchange {
	ex := send(ctx, rt, method, at, header, body, req.reading(), req.tracers)
	if req.digest == nil || ex.status != http.StatusUnauthorized || origin(at.str) != req.digest.origin {
		return ex
	}
	auth, ok := digestAuthorization(ex.header.Values("Www-Authenticate"), req.digest, method, at.str, body)
	if !ok {
		return ex
	}
	ex.challenge = true
	storeCookies(req.jar, at, ex.header)
	record(ex)
	header = header.Clone()
	header.Set("Authorization", auth)
	return send(ctx, rt, method, at, header, body, req.reading(), req.tracers)
}

// origin returns the scheme and host of a URL.
func origin(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// digestAuthorization answers the first Digest challenge among the
// WWW-Authenticate values (RFC 7616): MD5 or SHA-256, their -sess forms,
// qop auth or auth-int, or none (RFC 2069). ok is false when there is no
// challenge it can answer.
func digestAuthorization(challenges []string, c *credentials, method, target string, body []byte) (string, bool) {
	var p map[string]string
	for _, ch := range challenges {
		if scheme, rest, _ := strings.Cut(strings.TrimSpace(ch), " "); strings.EqualFold(scheme, "Digest") {
			p = authParams(rest)
			break
		}
	}
	if p == nil {
		return "", false
	}
	algorithm := p["algorithm"]
	newHash := digestHash(algorithm)
	if newHash == nil {
		return "", false
	}
	h := func(parts ...string) string {
		d := newHash()
		d.Write([]byte(strings.Join(parts, ":")))
		return hex.EncodeToString(d.Sum(nil))
	}
	u, _ := url.Parse(target)
	uri := u.RequestURI()
	cnonce, nc := newCnonce(), "00000001"
	ha1 := h(c.user, p["realm"], c.pass)
	if strings.HasSuffix(strings.ToLower(algorithm), "-sess") {
		ha1 = h(ha1, p["nonce"], cnonce)
	}
	qop := chooseQop(p["qop"])
	ha2 := h(method, uri)
	if qop == "auth-int" {
		ha2 = h(method, uri, h(string(body)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `Digest username="%s", realm="%s", nonce="%s", uri="%s"`, c.user, p["realm"], p["nonce"], uri)
	if qop == "" {
		fmt.Fprintf(&b, `, response="%s"`, h(ha1, p["nonce"], ha2))
	} else {
		fmt.Fprintf(&b, `, qop=%s, nc=%s, cnonce="%s", response="%s"`, qop, nc, cnonce, h(ha1, p["nonce"], nc, cnonce, qop, ha2))
	}
	if algorithm != "" {
		fmt.Fprintf(&b, ", algorithm=%s", algorithm)
	}
	if o, ok := p["opaque"]; ok {
		fmt.Fprintf(&b, `, opaque="%s"`, o)
	}
	return b.String(), true
}

// digestHash returns the hash of a digest algorithm, nil for one it does
// not know.
func digestHash(algorithm string) func() hash.Hash {
	switch strings.ToUpper(strings.TrimSuffix(strings.ToLower(algorithm), "-sess")) {
	case "", "MD5":
		return md5.New
	case "SHA-256":
		return sha256.New
	}
	return nil
}

// chooseQop picks auth over auth-int among the offered qop values; ""
// when none is offered.
func chooseQop(offered string) string {
	choice := ""
	for _, q := range strings.Split(offered, ",") {
		switch strings.TrimSpace(q) {
		case "auth":
			return "auth"
		case "auth-int":
			choice = "auth-int"
		}
	}
	return choice
}

// newCnonce returns a random client nonce; tests replace it.
var newCnonce = func() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// authParams parses the comma-separated name=value and name="value"
// parameters of a challenge.
func authParams(s string) map[string]string {
	out := map[string]string{}
	for s = strings.TrimSpace(s); s != ""; {
		name, rest, ok := strings.Cut(s, "=")
		if !ok {
			break
		}
		name, rest = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(rest)
		var value string
		if strings.HasPrefix(rest, `"`) {
			value, rest = quotedValue(rest[1:])
		} else {
			value, rest, _ = strings.Cut(rest, ",")
			value = strings.TrimSpace(value)
		}
		out[name] = value
		s = strings.TrimLeft(strings.TrimSpace(rest), ", ")
	}
	return out
}

// quotedValue reads a quoted string whose opening quote was consumed,
// undoing backslash escapes, and returns it with what follows the closing
// quote.
func quotedValue(s string) (string, string) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), s[i+1:]
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), ""
}
