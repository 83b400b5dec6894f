// Package redact hides secrets before they reach a log line, a banner, a
// summary, a report or a metric tag: the password of a URL's userinfo, the
// values of query parameters, headers and JSON fields whose names look like
// credentials (SecretParam), and the credentials of an Authorization value.
// Every place that prints or exports a URL goes through URL (a URL alone,
// parsable or not) or Text (a message that may contain URLs, a server's
// answer); Body cuts and redacts what an endpoint answered. Values masks
// known secret values, those k6/secrets handed to a script, in log lines.
package redact

import (
	"net/url"
	"strings"
)

// Mask replaces every hidden value.
const Mask = "REDACTED"

// URL returns raw with the password of its userinfo and the values of its
// credential-like query and fragment parameters (see SecretParam) replaced
// by Mask. The user name stays; the rest of the text is unchanged, byte for
// byte. raw need not parse as a URL: a malformed one (a bad port, a bad
// escape, a space, a control character) is redacted the same way, as its
// error message would quote it.
func URL(raw string) string {
	return maskParams(maskUserinfo(raw))
}

// maskParams masks the secret parameters of the query (after the first '?')
// and of a fragment holding parameters (#access_token=… of OAuth's implicit
// flow).
func maskParams(s string) string {
	q, f := strings.IndexByte(s, '?'), strings.IndexByte(s, '#')
	if q < 0 && f < 0 {
		return s
	}
	if f >= 0 {
		if frag, ok := redactQuery(s[f+1:]); ok {
			s = s[:f+1] + frag
		}
	}
	if q >= 0 && (f < 0 || q < f) {
		end := len(s)
		if f >= 0 {
			end = f
		}
		if query, ok := redactQuery(s[q+1 : end]); ok {
			s = s[:q+1] + query + s[end:]
		}
	}
	return s
}

// redactQuery masks the values of secret parameters in a raw query, where
// '&' or ';' separate parameters, keeping the order and encoding of the
// others; it reports whether it masked any.
func redactQuery(q string) (string, bool) {
	if !strings.Contains(q, "=") {
		return q, false
	}
	var b strings.Builder
	changed := false
	for q != "" {
		end := strings.IndexAny(q, "&;")
		if end < 0 {
			end = len(q)
		}
		p := q[:end]
		k, _, hasValue := strings.Cut(p, "=")
		if hasValue && secretKey(k) && p[len(k)+1:] != Mask {
			p, changed = k+"="+Mask, true
		}
		b.WriteString(p)
		if end < len(q) {
			b.WriteByte(q[end])
			end++
		}
		q = q[end:]
	}
	return b.String(), changed
}

// secretKey reports whether a parameter name, perhaps percent-encoded, is
// secret.
func secretKey(k string) bool {
	if name, err := url.QueryUnescape(k); err == nil {
		k = name
	}
	return SecretParam(k)
}

// maskUserinfo masks the password of every userinfo after a "//": anything
// between the first ':' and the last '@' before the next '/', '?' or '#'. A
// user name without a password stays.
func maskUserinfo(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "//")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+2])
		s = s[i+2:]
		end := strings.IndexAny(s, "/?#")
		if end < 0 {
			end = len(s)
		}
		at := strings.LastIndex(s[:end], "@")
		if at < 0 {
			continue
		}
		user, pass, hasPass := strings.Cut(s[:at], ":")
		if hasPass && pass != Mask {
			b.WriteString(user + ":" + Mask)
			s = s[at:]
		}
	}
}
