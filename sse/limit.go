package sse

import (
	"context"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"strconv"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
)

// headerLimit is the error of a response head above max bytes.
func headerLimit(max int) *httpsafe.LimitError {
	return &httpsafe.LimitError{What: "maxHeaderSize", Limit: int64(max)}
}

// limitedBody returns the response body, decoded, under the request's
// maxResponseSize and the decompression ratio guard.
func (x *exchange) limitedBody(encoding string) (io.Reader, error) {
	body, err := decodeBody(encoding, x.meter)
	if err != nil {
		return nil, err
	}
	lim := &httpsafe.BodyLimit{R: body, Max: x.req.MaxResponseSize}
	if body != io.Reader(x.meter) {
		lim.Encoded = x.meter.n.Load
	}
	return lim, nil
}

// countInterim returns the exchange's context with a trace that adds the
// size of every 1xx interim response to *n and fails the request once it
// exceeds the request's MaxHeaderSize: on the reactor, the limit counts
// them too.
func (x *exchange) countInterim(n *int64) context.Context {
	return httptrace.WithClientTrace(x.ctx, &httptrace.ClientTrace{
		Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
			*n += headerBytes("HTTP/1.1", strconv.Itoa(code)+" "+http.StatusText(code), http.Header(h))
			if *n > int64(x.req.MaxHeaderSize) {
				return headerLimit(x.req.MaxHeaderSize)
			}
			return nil
		},
	})
}

// headerBytes is the size of a response's status line and headers.
func headerBytes(proto, status string, h http.Header) int64 {
	return int64(len(proto) + 1 + len(status) + 2 + headerSize(h) + 2)
}
