package k6http

import (
	"net/http"
	"time"

	"github.com/usefullatency/usefullatency/internal/redact"
)

// responseType says how a response body reaches the script.
type responseType int

// The response types of the responseType param.
const (
	// asText gives the body as a string (the default).
	asText responseType = iota
	// asBinary gives the body as an ArrayBuffer.
	asBinary
	// asNone reads and discards the body; response.body is null.
	asNone
)

// defaultTimeout is the timeout of a request without a timeout param, as
// in k6.
const defaultTimeout = 60 * time.Second

// defaultRedirects is the number of redirects followed without a redirects
// param, k6's default for the maxRedirects option.
const defaultRedirects = 10

// request is a request as the script asked for it, checked and ready to
// send.
type request struct {
	method, url string
	header      http.Header
	body        []byte
	// first is the first hop, url parsed; nil when it could not be (do
	// then parses url itself).
	first *hopURL
	// timeout bounds the whole request, redirects included.
	timeout time.Duration
	// redirects is how many redirects are followed; 0 returns the first
	// redirect response.
	redirects int
	// redirectsSet reports that the redirects param or the maxRedirects
	// option chose redirects: stopping at the limit is then expected and
	// not warned about, as in k6.
	redirectsSet bool
	responseType responseType
	// tags are the request's own tags (params.tags); nil for none.
	tags map[string]string
	// expect is the response callback's set of expected statuses; nil
	// when there is no callback.
	expect *statusSet
	// jar keeps the cookies responses set and sends them back; nil for
	// none.
	jar http.CookieJar
	// cookies are the cookies param's.
	cookies []requestCookie
	// compression lists the codings of the compression param, applied
	// in order.
	compression []string
	// plainBody is the body before the compression param encoded it,
	// as response.request.body shows it; nil without compression.
	plainBody []byte
	// auth is the auth param: "basic" (the default) or "digest".
	auth string
	// digest holds the URL's credentials with auth: 'digest'.
	digest *credentials
	// maxResponseSize bounds each response body (the maxResponseSize
	// param, 64 MiB by default); more fails the request.
	maxResponseSize int64
	// sensitiveHeaders are dropped, besides httpsafe.CredentialHeaders,
	// on a redirect to another host or scheme.
	sensitiveHeaders []string
	// allowInsecureRedirect lets a redirect go from https to http.
	allowInsecureRedirect bool
	// tracers keeps the VU's tracer between exchanges; nil keeps none.
	tracers *tracerSlot
}

// reading returns how the responses to req are read.
func (req *request) reading() bodyReading {
	return bodyReading{discard: req.responseType == asNone, limit: req.maxResponseSize}
}

// exchange is one request and its response: a redirect hop or the final
// response.
type exchange struct {
	method, url string
	reqHeader   http.Header
	reqBody     []byte
	// tagURL is url redacted, the name and url tags; "" when not known
	// yet (see redactedURL).
	tagURL string

	// status is 0 when no response was received.
	status             int
	statusText, proto  string
	header             http.Header
	body               []byte
	timings            timings
	remoteIP           string
	remotePort         int
	tlsVersion, cipher string
	// ocsp is the OCSP response stapled to the TLS handshake.
	ocsp ocspInfo

	// errorCode is k6's code of the failure, 0 when none; errorMsg says
	// what failed.
	errorCode int
	errorMsg  string
	// sent and received count the bytes of the exchange on the wire.
	sent, received int64
	end            time.Time
	// canceled is set when the VU's context ended the exchange (the
	// iteration was interrupted): it is not the server's doing.
	canceled bool
	// challenge marks the 401 a digest-authenticated request answers:
	// it counts as an expected response, as in k6.
	challenge bool
	// stoppedAfter is, for the redirect response returned because the
	// request reached its redirect limit, the number of requests sent,
	// the first included (k6's count in its warning); 0 otherwise.
	stoppedAfter int
}

// redactedURL returns the exchange's URL with its secrets masked, as its
// name and url tags show it.
func (ex *exchange) redactedURL() string {
	if ex.tagURL != "" {
		return ex.tagURL
	}
	return redact.URL(ex.url)
}
