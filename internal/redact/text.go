package redact

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// Text returns s with the secrets it may hold masked:
//   - every URL (scheme://…, up to white space, a quote, '<', '>' or a
//     backtick) redacted by URL;
//   - the value of every name=value whose name is secret (SecretParam),
//     wherever it stands (a query cut from its URL by a space, a form body);
//   - the value of a JSON field "name": value with a secret name, and of a
//     header-like name: value (at the start of a line or after '{', '[',
//     '(', ',', ';', ']' or '}') whose name is secret or Cookie — the scheme
//     word of an Authorization value stays ("Authorization: Basic REDACTED");
//   - the credentials after the schemes Basic and Bearer.
func Text(s string) string {
	if s == "" {
		return s
	}
	return maskSchemes(maskPairs(urls(s)))
}

// Body returns what an endpoint answered, for a message: cut to maxBytes
// (at a rune boundary, "…" marking the cut), redacted by Text, on one line,
// with each of secrets (a configured password or token, and its Basic form
// user:password in base64 when both are given as "user:password") masked
// too. Secrets shorter than 4 bytes are too short to tell from other text
// and left to Text.
func Body(b []byte, maxBytes int, secrets ...string) string {
	s := string(b)
	cut := len(s) > maxBytes
	if cut {
		s = s[:maxBytes]
		for len(s) > 0 && !utf8.ValidString(s[len(s)-min(len(s), utf8.UTFMax):]) {
			s = s[:len(s)-1]
		}
	}
	s = Text(Secrets(s, secrets...))
	s = strings.Join(strings.Fields(s), " ")
	if cut {
		s += "…"
	}
	return s
}

// Secrets returns s with each secret of at least 4 bytes masked, and the
// base64 forms of each (what a Basic credential or an echo of it shows).
func Secrets(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) < 4 {
			continue
		}
		for _, form := range []string{sec, base64.StdEncoding.EncodeToString([]byte(sec)),
			base64.RawStdEncoding.EncodeToString([]byte(sec)), base64.URLEncoding.EncodeToString([]byte(sec))} {
			s = strings.ReplaceAll(s, form, Mask)
		}
	}
	return s
}

// urls redacts every scheme://… URL in s with URL.
func urls(s string) string {
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

// indexURL returns the index of the first URL in s, the start of the scheme
// before a "://", or -1.
func indexURL(s string) int {
	off := 0
	for {
		i := strings.Index(s[off:], "://")
		if i < 0 {
			return -1
		}
		i += off
		j := i
		for j > 0 && isSchemeChar(s[j-1]) {
			j--
		}
		if j < i {
			return j
		}
		off = i + 3
	}
}

func isSchemeChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

// maskPairs masks the values of secret name=value pairs, JSON fields and
// header-like lines (see Text).
func maskPairs(s string) string {
	if !strings.ContainsAny(s, "=:") {
		return s
	}
	var b strings.Builder
	done := 0 // s[:done] is in b
	for i := 0; i < len(s); i++ {
		if s[i] != '=' && s[i] != ':' {
			continue
		}
		name, quoted, start := nameBefore(s, i)
		if name == "" || !pairWanted(s, i, name, quoted, start) {
			continue
		}
		vs, ve := valueSpan(s, i+1, s[i] == ':')
		if ve <= vs || s[vs:ve] == Mask {
			continue
		}
		b.WriteString(s[done:vs])
		b.WriteString(Mask)
		done, i = ve, ve-1
	}
	b.WriteString(s[done:])
	return b.String()
}

// pairWanted reports whether the pair whose separator is at s[i] has its
// value masked: a secret name; for ':', a quoted name or one that starts a
// header-like line, never a URL's "://".
//
// A name that is secret only as a whole name (code) counts in a text only
// when it touches its '=' (a query or a form, code=abc): gRPC writes
// "code = Canceled" in its errors, which is the status, not a credential.
func pairWanted(s string, i int, name string, quoted bool, start int) bool {
	if s[i] == '=' && i > 0 && s[i-1] == ' ' && wholeNameOnly(name) {
		return false
	}
	if s[i] == ':' {
		if strings.HasPrefix(s[i:], "://") || !quoted && !headerContext(s, start) {
			return false
		}
		if strings.EqualFold(name, "cookie") || strings.EqualFold(name, "set-cookie") {
			return true
		}
	}
	return secretKey(name)
}

// nameBefore returns the name that ends before the separator at s[i]
// (spaces and a closing quote, plain or escaped, skipped), whether it was
// quoted, and where it starts (its opening quote when quoted).
func nameBefore(s string, i int) (name string, quoted bool, start int) {
	j := i
	for j > 0 && s[j-1] == ' ' {
		j--
	}
	q := ""
	switch {
	case strings.HasSuffix(s[:j], `\"`):
		q = `\"`
	case strings.HasSuffix(s[:j], `"`):
		q = `"`
	}
	j -= len(q)
	k := j
	for k > 0 && isNameChar(s[k-1]) {
		k--
	}
	if q == "" {
		return s[k:j], false, k
	}
	if !strings.HasSuffix(s[:k], q) {
		return "", false, 0
	}
	return s[k:j], true, k - len(q)
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == '[' || c == ']' || c == '%'
}

// headerContext reports whether a name starting at s[start] starts a
// header-like line: at the start of s or of a line, or after '{', '[',
// '(', ',', ';', ']' or '}' and spaces.
func headerContext(s string, start int) bool {
	j := start
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	return j == 0 || strings.IndexByte("\n\r{[(,;]}", s[j-1]) >= 0
}

// valueSpan returns the span of the value that starts at s[p], after
// spaces: a quoted string (its content), a bracketed list (its content),
// or a bare value up to a delimiter. The scheme word of a value such as
// "Basic …" or "Bearer …" is left out of the span. colon says the
// separator was ':', whose bare values run to the end of the line or a ','.
func valueSpan(s string, p int, colon bool) (int, int) {
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	if p >= len(s) {
		return p, p
	}
	var end int
	if s[p] == '[' {
		p++
		end = indexFrom(s, p, "]")
		if p < end && s[p] == '"' {
			p++
			end = closingQuote(s, p, `"`)
		}
		return skipScheme(s, p, end), end
	}
	switch {
	case s[p] == '"':
		p++
		end = closingQuote(s, p, `"`)
	case strings.HasPrefix(s[p:], `\"`):
		p += 2
		end = closingQuote(s, p, `\"`)
	case colon:
		end = indexFrom(s, p, "\r\n,;}]\"")
	default:
		end = bareEnd(s, p)
	}
	return skipScheme(s, p, end), end
}

// closingQuote returns the index of the quote q that closes a string
// starting at p (a backslash escapes the next byte when q is `"`).
func closingQuote(s string, p int, q string) int {
	for i := p; i < len(s); i++ {
		if strings.HasPrefix(s[i:], q) {
			return i
		}
		if q == `"` && s[i] == '\\' {
			i++
		}
	}
	return len(s)
}

// indexFrom returns the index of the first byte of any of chars at or
// after p, or len(s).
func indexFrom(s string, p int, chars string) int {
	if i := strings.IndexAny(s[p:], chars); i >= 0 {
		return p + i
	}
	return len(s)
}

// bareEnd returns the end of an unquoted name=value value: white space,
// one of &#"'<>`;,)]}, or an escaped quote or line break of a quoted text
// (\" \' \n \r \t \\).
func bareEnd(s string, p int) int {
	for i := p; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || strings.IndexByte("&#\"'<>`;,)]}", c) >= 0 {
			return i
		}
		if c == '\\' && i+1 < len(s) && strings.IndexByte(`"'nrt\`, s[i+1]) >= 0 {
			return i
		}
	}
	return len(s)
}

// schemes are the Authorization schemes (RFC 9110 and common ones), lower
// case, whose name stays visible before a masked credential.
var schemes = []string{"basic", "bearer", "digest", "token", "negotiate", "ntlm", "hoba", "mutual", "apikey",
	"sharedkey", "aws4-hmac-sha256", "gnap", "dpop", "ssws"}

// skipScheme moves the start of a value past a leading scheme word ("Basic
// ", "Bearer ", "Digest "…) when more follows.
func skipScheme(s string, p, end int) int {
	word, _, ok := strings.Cut(s[p:end], " ")
	if !ok || p+len(word)+1 >= end {
		return p
	}
	for _, sc := range schemes {
		if strings.EqualFold(word, sc) {
			return p + len(word) + 1
		}
	}
	return p
}

// authSchemes are the Authorization schemes whose credentials follow them
// as one token.
var authSchemes = []string{"Basic ", "BASIC ", "Bearer ", "bearer ", "BEARER "}

// maskSchemes masks the token after each Basic or Bearer scheme word, unless
// it is an auth-param (realm="…") or masked already.
func maskSchemes(s string) string {
	for _, scheme := range authSchemes {
		if !strings.Contains(s, scheme) {
			continue
		}
		var b strings.Builder
		rest := s
		for {
			i := strings.Index(rest, scheme)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			p := i + len(scheme)
			end := tokenEnd(rest, p)
			wordStart := i == 0 || !isSchemeChar(rest[i-1])
			param := end < len(rest) && rest[end] == '"' && end > p && rest[end-1] == '='
			if !wordStart || end == p || param || rest[p:end] == Mask {
				b.WriteString(rest[:end])
			} else {
				b.WriteString(rest[:p] + Mask)
			}
			rest = rest[end:]
		}
		s = b.String()
	}
	return s
}

// tokenEnd returns the end of the credential token at s[p]: token68 (RFC
// 7235: letters, digits, -._~+/ and trailing '=').
func tokenEnd(s string, p int) int {
	i := p
	for i < len(s) {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~+/=", c) >= 0 {
			i++
			continue
		}
		break
	}
	return i
}

// Error returns err with its message redacted by Text (nil for nil), for an
// error that quotes what it was given: a *url.Error quotes the whole URL,
// query and password included. errors.Is and errors.As still see err.
func Error(err error) error {
	if err == nil {
		return nil
	}
	return &redactedError{msg: Text(err.Error()), err: err}
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
