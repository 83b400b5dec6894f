package web

import (
	"strings"
)

// A byteSet says which bytes a URL component percent-encodes; the sets
// are the WHATWG URL Standard's.
type byteSet func(c byte) bool

// c0Set is the C0 control percent-encode set: controls and non-ASCII.
func c0Set(c byte) bool { return c < 0x20 || c >= 0x7F }

// fragmentSet adds space, ", <, > and ` to c0Set.
func fragmentSet(c byte) bool { return c0Set(c) || strings.IndexByte(" \"<>`", c) >= 0 }

// querySet adds space, ", #, < and > to c0Set.
func querySet(c byte) bool { return c0Set(c) || strings.IndexByte(" \"#<>", c) >= 0 }

// specialQuerySet adds ' to querySet, for http, https and the other
// special schemes.
func specialQuerySet(c byte) bool { return querySet(c) || c == '\'' }

// pathSet adds ?, `, {, } and ^ to querySet.
func pathSet(c byte) bool { return querySet(c) || strings.IndexByte("?`{}^", c) >= 0 }

// encodeSet percent-encodes the bytes of s that are in set; existing
// percent escapes are kept as they are.
func encodeSet(s string, set byteSet) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; set(c) {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

const upperHex = "0123456789ABCDEF"

// formEncode serialises s as application/x-www-form-urlencoded: space is
// "+", alphanumerics and *-._ stay, every other UTF-8 byte is %XX.
func formEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			b.WriteByte('+')
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("*-._", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		}
	}
	return b.String()
}

// formDecode decodes one application/x-www-form-urlencoded name or value:
// "+" is space, valid %XX escapes are bytes, anything else stays as it is;
// the bytes are then decoded as UTF-8 without failing.
func formDecode(s string) string {
	if !strings.ContainsAny(s, "+%") {
		return s
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			out = append(out, ' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			out = append(out, c)
		}
	}
	str, _ := newUTF8Decoder(false, true).Decode(out, false)
	return str
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
