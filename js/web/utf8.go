package web

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// errInvalidUTF8 is the error of a fatal decoder given malformed bytes.
var errInvalidUTF8 = errors.New("the encoded data is not valid utf-8")

// utf8Decoder is the WHATWG Encoding Standard's UTF-8 decoder: a malformed
// sequence becomes one U+FFFD per maximal subpart (or an error when fatal),
// and a sequence cut at the end of a streamed chunk waits for the next.
type utf8Decoder struct {
	fatal, ignoreBOM bool

	needed, seen int
	codePoint    rune
	lower, upper byte
	// started is set once a code point was emitted since the last reset:
	// only the stream's first one may be a BOM to strip.
	started bool
}

func newUTF8Decoder(fatal, ignoreBOM bool) *utf8Decoder {
	d := &utf8Decoder{fatal: fatal, ignoreBOM: ignoreBOM}
	d.reset()
	return d
}

// reset forgets a partial sequence and the BOM state: a new stream.
func (d *utf8Decoder) reset() {
	d.clearSequence()
	d.started = false
}

func (d *utf8Decoder) clearSequence() {
	d.needed, d.seen, d.codePoint = 0, 0, 0
	d.lower, d.upper = 0x80, 0xBF
}

// Decode decodes p. With stream set, a sequence cut at the end of p is
// kept for the next call; without it, the stream ends here and the
// decoder is reset for the next one.
func (d *utf8Decoder) Decode(p []byte, stream bool) (string, error) {
	var out strings.Builder
	out.Grow(len(p))
	for i := 0; i < len(p); i++ {
		r, ok, retry := d.step(p[i])
		if retry {
			i-- // the byte that broke a sequence starts the next one
		}
		if !ok {
			if d.fatal {
				d.reset()
				return "", errInvalidUTF8
			}
			r = utf8.RuneError
		}
		if r >= 0 {
			d.emit(&out, r)
		}
	}
	if !stream {
		incomplete := d.needed != 0
		d.reset()
		if incomplete {
			if d.fatal {
				return "", errInvalidUTF8
			}
			out.WriteRune(utf8.RuneError)
		}
	}
	return out.String(), nil
}

// step feeds one byte. It returns the completed code point (-1 when none
// is complete yet), ok false on a malformed sequence, and retry when the
// byte must be fed again because it ended a malformed sequence.
func (d *utf8Decoder) step(b byte) (r rune, ok, retry bool) {
	if d.needed == 0 {
		return d.lead(b)
	}
	if b < d.lower || b > d.upper {
		d.clearSequence()
		return -1, false, true
	}
	d.lower, d.upper = 0x80, 0xBF
	d.codePoint = d.codePoint<<6 | rune(b&0x3F)
	d.seen++
	if d.seen < d.needed {
		return -1, true, false
	}
	r = d.codePoint
	d.clearSequence()
	return r, true, false
}

// lead starts a sequence with its first byte.
func (d *utf8Decoder) lead(b byte) (rune, bool, bool) {
	switch {
	case b <= 0x7F:
		return rune(b), true, false
	case b >= 0xC2 && b <= 0xDF:
		d.needed, d.codePoint = 1, rune(b&0x1F)
	case b >= 0xE0 && b <= 0xEF:
		if b == 0xE0 {
			d.lower = 0xA0
		} else if b == 0xED {
			d.upper = 0x9F // no surrogates
		}
		d.needed, d.codePoint = 2, rune(b&0x0F)
	case b >= 0xF0 && b <= 0xF4:
		if b == 0xF0 {
			d.lower = 0x90
		} else if b == 0xF4 {
			d.upper = 0x8F // nothing past U+10FFFF
		}
		d.needed, d.codePoint = 3, rune(b&0x07)
	default:
		return -1, false, false
	}
	return -1, true, false
}

// emit writes r, dropping the stream's leading BOM unless ignoreBOM.
func (d *utf8Decoder) emit(out *strings.Builder, r rune) {
	first := !d.started
	d.started = true
	if first && r == 0xFEFF && !d.ignoreBOM {
		return
	}
	out.WriteRune(r)
}
