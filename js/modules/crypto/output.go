package k6crypto

import (
	"encoding/base64"
	"encoding/hex"

	"github.com/grafana/sobek"
)

// outputs are the encodings of a digest by their k6 names: hex (lower
// case), base64 (RFC 4648 section 4, padded), base64url (section 5,
// padded), base64rawurl (section 5, unpadded) and binary (an ArrayBuffer).
var outputs = map[string]func(rt *sobek.Runtime, sum []byte) sobek.Value{
	"hex":          text(hex.EncodeToString),
	"base64":       text(base64.StdEncoding.EncodeToString),
	"base64url":    text(base64.URLEncoding.EncodeToString),
	"base64rawurl": text(base64.RawURLEncoding.EncodeToString),
	"binary": func(rt *sobek.Runtime, sum []byte) sobek.Value {
		return rt.ToValue(rt.NewArrayBuffer(sum))
	},
}

// outputNames lists the names of outputs for error messages.
var outputNames = quotedList(outputs)

// text adapts a byte-to-text encoder to an output encoding.
func text(encode func([]byte) string) func(*sobek.Runtime, []byte) sobek.Value {
	return func(rt *sobek.Runtime, sum []byte) sobek.Value { return rt.ToValue(encode(sum)) }
}
