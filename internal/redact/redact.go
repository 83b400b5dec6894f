// Package redact hides the secrets a URL may carry before it reaches a log
// line, a banner, a summary, a report or a metric tag: the password of its
// userinfo and the values of query parameters whose names look like
// credentials. Every place that prints or exports a URL goes through URL
// (a URL alone) or Text (a message that may contain URLs).
package redact

import (
	"net/url"
	"strings"
)

// Mask replaces every hidden value.
const Mask = "REDACTED"

// secretSuffixes are the endings of query parameter names, lower-cased and
// without '-' and '_', whose values are hidden: api_key, apiKey, key,
// access_token, token, client_secret, password, X-Amz-Signature, sig, auth…
var secretSuffixes = []string{
	"key", "token", "secret", "password", "passwd", "pwd", "signature", "sig", "credential", "auth", "authorization",
}

// URL returns raw with the password of its userinfo and the values of its
// credential-like query parameters (see SecretParam) replaced by Mask. The
// user name stays; the rest of the URL is unchanged, byte for byte. A text
// that does not parse as a URL is returned with anything between "//" and
// an "@" before the next "/" masked.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return maskUserinfo(raw)
	}
	changed := false
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), Mask)
		changed = true
	}
	if q, ok := redactQuery(u.RawQuery); ok {
		u.RawQuery, changed = q, true
	}
	if !changed {
		return raw
	}
	return u.String()
}

// SecretParam reports whether a query parameter of this name carries a
// credential: its name, lower-cased and without '-' and '_', ends with key,
// token, secret, password, passwd, pwd, signature, sig, credential, auth or
// authorization.
func SecretParam(name string) bool {
	n := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(name))
	for _, s := range secretSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// redactQuery masks the values of secret parameters in a raw query, keeping
// the order and encoding of the others; it reports whether it masked any.
func redactQuery(q string) (string, bool) {
	if q == "" {
		return q, false
	}
	parts := strings.Split(q, "&")
	changed := false
	for i, p := range parts {
		k, _, hasValue := strings.Cut(p, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			name = k
		}
		if hasValue && SecretParam(name) {
			parts[i], changed = k+"="+Mask, true
		}
	}
	return strings.Join(parts, "&"), changed
}

// maskUserinfo masks the userinfo of a text that is not a parsable URL.
func maskUserinfo(s string) string {
	i := strings.Index(s, "//")
	if i < 0 {
		return s
	}
	rest := s[i+2:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndex(rest[:end], "@")
	if at < 0 {
		return s
	}
	user, _, _ := strings.Cut(rest[:at], ":")
	return s[:i+2] + user + ":" + Mask + rest[at:]
}

// Text returns s with every http:// or https:// URL in it redacted (see
// URL). A URL ends at white space, a quote, '<', '>' or a backtick.
func Text(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	var b strings.Builder
	for {
		i := indexURL(s)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := strings.IndexAny(s[i:], " \t\r\n\"'<>`")
		if end < 0 {
			end = len(s) - i
		}
		b.WriteString(s[:i])
		b.WriteString(URL(s[i : i+end]))
		s = s[i+end:]
	}
}

// indexURL returns the index of the first "http://" or "https://" in s,
// case-insensitively, or -1.
func indexURL(s string) int {
	l := strings.ToLower(s)
	i, j := strings.Index(l, "http://"), strings.Index(l, "https://")
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	}
	return min(i, j)
}
