// Package jsonstr appends strings quoted as JSON, without reflection or
// allocation beyond the buffer's growth, for the encoders that write JSON
// by hand: the probe's request bodies and the mock server's events.
package jsonstr

import "unicode/utf8"

// hexDigits are the digits of \u escapes.
const hexDigits = "0123456789abcdef"

// Append appends s quoted as encoding/json quotes it: the quote and
// backslash escaped, control characters as \b, \f, \n, \r, \t or \u00XX,
// invalid UTF-8 as U+FFFD and the line and paragraph separators (U+2028,
// U+2029) as \u escapes. html also escapes <, > and & as \u escapes, as
// encoding/json does unless told otherwise.
func Append(b []byte, s string, html bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && (!html || (c != '<' && c != '>' && c != '&')) {
				i++
				continue
			}
			b = appendEscape(append(b, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

// appendEscape appends the escape of the ASCII byte c.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}
