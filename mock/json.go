package mock

import (
	"strconv"
	"unicode/utf8"
)

// appendString appends s as a JSON string. Control characters, quotes and
// backslashes are escaped; invalid UTF-8 becomes U+FFFD; everything else is
// copied as is.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b = append(append(b, s[start:i]...), `\ufffd`...)
			i++
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			b = append(b, `\u00`...)
			b = append(b, hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

// appendMS appends milliseconds with microsecond precision, e.g. 12.345.
func appendMS(b []byte, ms float64) []byte {
	return strconv.AppendFloat(b, ms, 'f', 3, 64)
}

// formatMS formats milliseconds in the shortest exact form, e.g. 2000.
func formatMS(ms float64) string {
	return strconv.FormatFloat(ms, 'f', -1, 64)
}
