package k6http

import (
	"errors"
	"reflect"
)

// k6's HTTP/2 error codes: a base for each kind of failure plus 1 + the
// HTTP/2 error code (RFC 9113 section 7) for the codes up to
// HTTP_1_1_REQUIRED, the base alone for others.
const (
	codeHTTP2GoAway     = 1610
	codeHTTP2Stream     = 1630
	codeHTTP2Connection = 1650
	// lastHTTP2ErrCode is HTTP_1_1_REQUIRED, the last code RFC 9113
	// defines.
	lastHTTP2ErrCode = 0xd
)

// http2Code maps the HTTP/2 errors of net/http's bundled client, a
// GOAWAY from the server, a stream reset and a connection error, to k6's
// codes; 0 when err is none of them. net/http does not export these
// types, so they are recognised by name and their error code read by
// reflection.
func http2Code(err error) int {
	for e := err; e != nil; e = errors.Unwrap(e) {
		v := reflect.ValueOf(e)
		switch v.Type().String() {
		case "http.http2GoAwayError":
			return codeHTTP2GoAway + http2Offset(v.FieldByName("ErrCode").Uint())
		case "http.http2StreamError":
			return codeHTTP2Stream + http2Offset(v.FieldByName("Code").Uint())
		case "http.http2ConnectionError":
			return codeHTTP2Connection + http2Offset(v.Uint())
		}
	}
	return 0
}

// http2Offset is k6's offset of an HTTP/2 error code within its kind.
func http2Offset(code uint64) int {
	if code > lastHTTP2ErrCode {
		return 0
	}
	return 1 + int(code)
}
