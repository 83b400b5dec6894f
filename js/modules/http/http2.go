package k6http

import (
	"errors"
	"strings"

	"golang.org/x/net/http2"
)

// k6's HTTP/2 error codes: a base for each kind of failure plus 1 + the
// HTTP/2 error code (RFC 9113 section 7) for the codes up to
// HTTP_1_1_REQUIRED, the base alone for others.
const (
	codeHTTP2GoAway     = 1610
	codeHTTP2Stream     = 1630
	codeHTTP2Connection = 1650
)

// http2Code maps the HTTP/2 errors of Go's client — a GOAWAY after which
// the server closed the connection, a stream reset, a connection error —
// to k6's codes; 0 when err is none of them. Like k6, it reads them from
// the text of the errors in err's chain, which net/http's bundled HTTP/2
// and golang.org/x/net/http2 word alike: their types are unexported in
// one, and move between Go versions.
//
// A GOAWAY with an error code that refuses the first request of a
// connection (its last stream ID is below the request's: the server never
// took it) fails the request with Go's "http2: Transport received GOAWAY
// from server ErrCode:…", a text k6 does not map: 1000, as in k6. Go
// retries other refused requests on a new connection.
func http2Code(err error) int {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if code := http2TextCode(e.Error()); code != 0 {
			return code
		}
	}
	return 0
}

// http2TextCode is the code of one error text: "stream error: stream ID
// 1; INTERNAL_ERROR[; cause]", "connection error: PROTOCOL_ERROR", or
// "http2: server sent GOAWAY and closed the connection; LastStreamID=1,
// ErrCode=ENHANCE_YOUR_CALM, debug=…"; 0 for another text or an error
// code name it does not know.
func http2TextCode(msg string) int {
	var base int
	var name string
	switch {
	case strings.HasPrefix(msg, "stream error: "):
		_, rest, _ := strings.Cut(msg, "; ")
		name, _, _ = strings.Cut(rest, ";")
		base = codeHTTP2Stream
	case strings.HasPrefix(msg, "connection error: "):
		name, base = strings.TrimPrefix(msg, "connection error: "), codeHTTP2Connection
	case strings.HasPrefix(msg, "http2: server sent GOAWAY"):
		_, rest, _ := strings.Cut(msg, "ErrCode=")
		name, _, _ = strings.Cut(rest, ",")
		base = codeHTTP2GoAway
	default:
		return 0
	}
	offset, ok := http2Offset(strings.TrimSpace(name))
	if !ok {
		return 0
	}
	return base + offset
}

// http2Offset is k6's offset of an HTTP/2 error code, named as Go names it
// (ErrCode.String()), within its kind: 1 + the code for the codes RFC 9113
// defines, 0 for another ("unknown error code 0xe"). ok is false for a
// name that is neither.
func http2Offset(name string) (offset int, ok bool) {
	for code := http2.ErrCodeNo; code <= http2.ErrCodeHTTP11Required; code++ {
		if code.String() == name {
			return 1 + int(code), true
		}
	}
	return 0, strings.HasPrefix(name, "unknown error code 0x")
}
